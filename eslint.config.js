// ESLint's flat config for the browser client (src/koikoi/web), its engine and the
// engine's Node.js programs, the benchmarks' and the Node.js tests' scripts:
//
//   npx eslint            (npm run lint)
//
// The recommended rules, plus those that catch real bugs in this code: == where ===
// was meant, a name shadowing another of an outer scope, let where nothing reassigns.
// Browser globals for the client, a worker's for the engine's worker and the service
// worker, Node.js's for web/node, bench and tests/js.

import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/", "build/", "dist/", ".venv/"],
  },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
    rules: {
      eqeqeq: ["error", "always"],
      "no-shadow": ["error", { builtinGlobals: false, hoist: "functions" }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none", ignoreRestSiblings: true }],
      "prefer-const": ["error", { destructuring: "all" }],
      "no-var": "error",
      "no-implicit-coercion": ["error", { boolean: false, number: true, string: false }],
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
      "no-constructor-return": "error",
      "no-promise-executor-return": "error",
      "no-new-wrappers": "error",
      "no-throw-literal": "error",
      "no-return-assign": ["error", "always"],
      "array-callback-return": ["error", { checkForEach: false }],
      "default-param-last": "error",
      radix: "error",
    },
  },
  {
    // The page's modules and the engine: a browser's globals (the engine's modules
    // also run under Node.js, through the same globals both have).
    files: ["src/koikoi/web/**/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The practice worker is a module Web Worker.
    files: ["src/koikoi/web/engine/worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // The service worker is a classic script; the server fills in __OFFLINE__.
    files: ["src/koikoi/web/offline/sw.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.serviceworker, __OFFLINE__: "readonly" },
    },
  },
  {
    // Node.js programs: the engine's, the benchmarks', the tests'.
    files: ["src/koikoi/web/node/**", "bench/**/*.mjs", "tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
