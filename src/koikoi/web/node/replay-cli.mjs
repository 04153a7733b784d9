#!/usr/bin/env node
// @ts-check
// `koikoi replay FILE [--json]` with the browser's engine, under Node.js: it prints
// exactly what the Python command prints (docs/rules.md §7), errors and exit status
// included, so that the two engines can be compared on any record.
//
//   node replay-cli.mjs FILE [--json] [--width N]
//   node replay-cli.mjs --batch < lines
//
// --width is the console width the text table is laid out for; without it, the width
// rich would pick: COLUMNS, else the terminal's, else 80. (`koikoi replay --engine js`
// passes the width its own console has, so the two agree exactly.)
// --batch reads JSON lines {"text": record file contents, "name": path as printed,
// "json": bool, "width": N} (or {"path": FILE, ...} to read a file) and answers each with
// {"rc": status, "stdout": ..., "stderr": ...}: thousands of records in one process.

import readline from "node:readline";
import { parseArgs } from "node:util";
import { RecordError, recordFromBytes, replay, replayOutput } from "../engine/record.js";
import { replayText } from "./replaytext.js";
import { jsonDumps } from "../engine/pytext.js";
import { crash, readRecord, refusal, sourceOf, unreadable } from "./recordfile.js";

/** @typedef {import("./recordfile.js").Source} Source */
/** @typedef {import("./recordfile.js").Run} Run */

/**
 * What one `koikoi replay` run prints: {rc, stdout, stderr}.
 * @param {Source & {asJson?: boolean, width?: number}} run
 * @returns {Run}
 */
export function runReplay({ asJson = false, width = 80, ...source }) {
  const problem = unreadable(source);
  if (problem !== null) return refusal(asJson, problem);
  let match;
  try {
    match = replay(recordFromBytes(source.name, source.bytes ?? new Uint8Array()));
  } catch (error) {
    if (error instanceof RecordError) return refusal(asJson, error.message, error.index);
    throw error;
  }
  const output = replayOutput(match);
  return { rc: 0, stdout: asJson ? jsonDumps(output) + "\n" : replayText(match, output, width), stderr: "" };
}

/** The width rich gives its console here (console.py's size, for a plain console). */
function consoleWidth() {
  /** @param {string | undefined} value */
  const digits = (value) => (value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : null);
  const columns = digits(process.env.COLUMNS);
  const lines = digits(process.env.LINES);
  if (columns !== null && lines !== null) return columns;
  const term = (process.env.TERM || "").toLowerCase();
  if (process.stdout.isTTY && (term === "dumb" || term === "unknown")) return 80;
  if (columns !== null) return columns;
  for (const stream of [process.stdin, process.stdout, process.stderr]) {
    const width = /** @type {{columns?: number}} */ (stream).columns;
    if (stream.isTTY && width) return width;
  }
  return 80;
}

async function batch() {
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  /** @type {string[]} */
  const out = [];
  for await (const line of input) {
    if (!line.trim()) continue;
    const job = JSON.parse(line);
    let answer;
    try {
      answer = runReplay({ ...sourceOf(job), asJson: Boolean(job.json), width: job.width ?? 80 });
    } catch (error) {
      answer = crash(error);
    }
    out.push(JSON.stringify(answer));
    if (out.length >= 256) {
      process.stdout.write(out.join("\n") + "\n");
      out.length = 0;
    }
  }
  if (out.length) process.stdout.write(out.join("\n") + "\n");
}

/** @param {string} message */
function usage(message) {
  process.stderr.write(`replay-cli: ${message}\nusage: node replay-cli.mjs FILE [--json] [--width N] | --batch\n`);
  process.exitCode = 2;
}

/** @param {string[]} argv */
function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { batch: { type: "boolean" }, json: { type: "boolean" }, width: { type: "string" } },
    });
  } catch (error) {
    return usage(/** @type {Error} */ (error).message);
  }
  const { values, positionals } = parsed;
  if (values.batch) return batch();
  if (positionals.length !== 1) return usage("one record FILE is needed");
  if (values.width !== undefined && !/^[0-9]+$/.test(values.width)) return usage("--width takes a number");
  const [file] = positionals;
  const asJson = Boolean(values.json);
  const width = values.width === undefined ? null : Number(values.width);
  const result = runReplay({ ...readRecord(file), asJson, width: width ?? consoleWidth() });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.rc;
  return undefined;
}

main(process.argv.slice(2));
