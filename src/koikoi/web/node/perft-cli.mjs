#!/usr/bin/env node
// @ts-check
// `koikoi perft FILE --depth N [--divide] [--json]` with the browser's engine, under
// Node.js: it prints exactly what the Python command prints (docs/perft.md), errors and
// exit status included, so that the two engines can be compared on any position.
//
//   node perft-cli.mjs --depth N [--divide] [--json] [--] FILE
//   node perft-cli.mjs --batch < lines
//
// --batch reads JSON lines {"text": record file contents, "name": path as printed,
// "depth": N, "divide": bool, "json": bool} (or {"path": FILE, ...} to read a file) and
// answers each with {"rc": status, "stdout": ..., "stderr": ...}; "json" is true unless
// the line says otherwise, and "divide" too. One process answers a whole vector file,
// and the descent that looks for the first divergent path (koikoi.perftvectors.NodeEngine).

import readline from "node:readline";
import { parseArgs } from "node:util";
import { RecordError, recordFromBytes, replay } from "../engine/record.js";
import { jsonDumps } from "../engine/pytext.js";
import { run } from "../engine/perft.js";
import { crash, readRecord, refusal, sourceOf, unreadable } from "./recordfile.js";

/** @typedef {import("./recordfile.js").Source} Source */
/** @typedef {import("./recordfile.js").Run} Run */
/** @typedef {{count: number, divide: Map<string, number>}} Result */

/**
 * The perft.py perft_text: each first action's count, then perft(DEPTH) = COUNT.
 * @param {Result} result
 * @param {string} depth
 * @param {boolean} withDivide
 * @param {boolean} over
 * @returns {string}
 */
function perftText(result, depth, withDivide, over) {
  const lines = withDivide ? [...result.divide].map(([key, n]) => `${key}: ${n}`) : [];
  lines.push(`perft(${depth}) = ${result.count}${over ? " (the round is over)" : ""}`);
  return lines.map((line) => line + "\n").join("");
}

/**
 * What one `koikoi perft` run prints: {rc, stdout, stderr}. ``depth`` is a string of
 * digits as the command line has it (Python's int() already took it: no sign, no
 * leading zeros but for 0 itself).
 * @param {Source & {depth: string, withDivide?: boolean, asJson?: boolean}} run
 * @returns {Run}
 */
function runPerft({ depth, withDivide = false, asJson = false, ...source }) {
  const problem = unreadable(source);
  if (problem !== null) return refusal(asJson, problem);
  let game;
  try {
    game = replay(recordFromBytes(source.name, source.bytes ?? new Uint8Array())).round.copy();
  } catch (error) {
    if (error instanceof RecordError) return refusal(asJson, error.message, error.index);
    throw error;
  }
  // A depth past any round's length counts the same as that length (every sequence
  // has ended by then), so a depth too large for a number is as good as 2**31.
  const big = BigInt(depth);
  const result = run(game, big > 2n ** 31n ? 2 ** 31 : Number(big), withDivide);
  if (asJson) {
    /** @type {Map<string, unknown>} */
    const output = new Map();
    output.set("depth", big);
    output.set("count", result.count);
    if (withDivide) output.set("divide", result.divide);
    return { rc: 0, stdout: jsonDumps(output) + "\n", stderr: "" };
  }
  return { rc: 0, stdout: perftText(result, big.toString(), withDivide, game.isOver), stderr: "" };
}

async function batch() {
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of input) {
    if (!line.trim()) continue;
    const job = JSON.parse(line);
    let answer;
    try {
      answer = runPerft({ ...sourceOf(job), depth: String(job.depth), withDivide: job.divide ?? true, asJson: job.json ?? true });
    } catch (error) {
      answer = crash(error);
    }
    // One answer a line, at once: the asker may wait for it before its next question.
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
}

/** @param {string} message */
function usage(message) {
  process.stderr.write(`perft-cli: ${message}\nusage: node perft-cli.mjs --depth N [--divide] [--json] [--] FILE | --batch\n`);
  process.exitCode = 2;
}

/** @param {string[]} argv */
function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { batch: { type: "boolean" }, json: { type: "boolean" }, divide: { type: "boolean" }, depth: { type: "string" } },
    });
  } catch (error) {
    return usage(/** @type {Error} */ (error).message);
  }
  const { values, positionals } = parsed;
  if (values.batch) return batch();
  if (positionals.length !== 1) return usage("one record FILE is needed");
  if (values.depth === undefined || !/^[0-9]+$/.test(values.depth)) return usage("--depth takes a number 0 or more");
  const [file] = positionals;
  const depth = BigInt(values.depth).toString();
  const withDivide = Boolean(values.divide);
  const asJson = Boolean(values.json);
  const result = runPerft({ ...readRecord(file), depth, withDivide, asJson });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.rc;
  return undefined;
}

main(process.argv.slice(2));
