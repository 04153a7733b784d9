// @ts-check
// The browser's engine under Node.js: random-vs-random rounds per second, as
// bench/engine.py measures the Python engine. Run by bench/jsengine.py, which prints JSON.
//
//   node bench/jsengine.mjs [--rounds N] [--preset NAME] [--seed N] [--repeat N]
//
// The rounds are exactly bench/engine.py's random_rounds: the same generator seeded the
// same way deals every round and picks every action, so the step count must equal the
// Python engine's for the same arguments (a parity check for free).

import { PRESETS } from "../src/koikoi/web/engine/rules.js";
import { PyRandom } from "../src/koikoi/web/engine/random.js";
import { Round } from "../src/koikoi/web/engine/round.js";

/**
 * Random-vs-random rounds from one generator; the steps they took.
 * @param {import("../src/koikoi/web/engine/rules.js").RuleSet} rules
 * @param {number} count
 * @param {number} seed
 * @returns {number}
 */
function randomRounds(rules, count, seed) {
  const rng = new PyRandom(seed);
  let steps = 0;
  for (let index = 0; index < count; index++) {
    const game = Round.deal(rules, rng, index & 1);
    while (!game.isOver) {
      const actions = game.legalActions();
      game.apply(actions[Math.floor(rng.random() * actions.length)]);
      steps++;
    }
  }
  return steps;
}

const args = process.argv.slice(2);
/**
 * @param {string} name
 * @param {string} fallback
 */
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const rounds = Number(option("--rounds", "100000"));
const preset = option("--preset", "classic");
const seed = Number(option("--seed", "1"));
const repeat = Number(option("--repeat", "5"));
const rules = PRESETS.get(preset);
if (!rules) throw new Error(`unknown preset ${preset}`);

randomRounds(rules, 5000, seed + 1); // warm the JIT
let best = 0;
let steps = 0;
for (let i = 0; i < repeat; i++) {
  const started = process.hrtime.bigint();
  steps = randomRounds(rules, rounds, seed);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  best = Math.max(best, rounds / seconds);
}
process.stdout.write(
  JSON.stringify({ preset, rounds, seed, steps, rounds_per_second: Math.round(best), steps_per_second: Math.round((best * steps) / rounds) }) + "\n",
);
