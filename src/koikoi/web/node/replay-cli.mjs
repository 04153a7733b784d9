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

import fs from "node:fs";
import readline from "node:readline";
import { RecordError, recordFromBytes, replay, replayOutput } from "../engine/record.js";
import { replayText } from "./replaytext.js";
import { jsonDumps, strRepr } from "../engine/pytext.js";

// The strerror texts Python prints for the errors reading a file can meet.
/** @type {Readonly<Record<string, string>>} */
const STRERROR = {
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  ENOTDIR: "Not a directory",
  ENAMETOOLONG: "File name too long",
  ELOOP: "Too many levels of symbolic links",
  EIO: "Input/output error",
  ENXIO: "No such device or address",
  EINVAL: "Invalid argument",
  EMFILE: "Too many open files",
  ENFILE: "Too many open files in system",
  ENOMEM: "Cannot allocate memory",
  EFBIG: "File too large",
};

/**
 * str(pathlib.Path(path)): repeated and trailing slashes and "." parts dropped.
 * @param {string} path
 * @returns {string}
 */
export function pythonPath(path) {
  const root = path.startsWith("//") && !path.startsWith("///") ? "//" : path.startsWith("/") ? "/" : "";
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  const joined = root + parts.join("/");
  return joined || ".";
}

/**
 * A record to replay: its name as printed, and its bytes or the error reading them.
 * @typedef {object} Source
 * @property {string} name
 * @property {Uint8Array | null} [bytes]
 * @property {string | null} [readError]
 */
/** What a run prints, and its exit status. @typedef {{rc: number, stdout: string, stderr: string}} Run */

/**
 * What one `koikoi replay` run prints: {rc, stdout, stderr}.
 * @param {Source & {asJson?: boolean, width?: number}} run
 * @returns {Run}
 */
export function runReplay({ name, bytes = null, readError = null, asJson = false, width = 80 }) {
  /**
   * @param {string} message
   * @param {number | null} [index]
   * @returns {Run}
   */
  const fail = (message, index = null) => {
    const data = index === null ? { error: message } : { error: message, index };
    return { rc: 1, stdout: asJson ? jsonDumps(data) + "\n" : "", stderr: `koikoi: error: ${message}\n` };
  };
  if (readError !== null) return fail(`cannot read record ${strRepr(name)}: ${readError}`);
  let match;
  try {
    match = replay(recordFromBytes(name, bytes ?? new Uint8Array()));
  } catch (error) {
    if (error instanceof RecordError) return fail(error.message, error.index);
    throw error;
  }
  const output = replayOutput(match);
  return { rc: 0, stdout: asJson ? jsonDumps(output) + "\n" : replayText(match, output, width), stderr: "" };
}

/**
 * @param {string} path
 * @returns {Source}
 */
function readRecord(path) {
  const name = pythonPath(path);
  try {
    return { name, bytes: fs.readFileSync(name) };
  } catch (error) {
    const { code, message } = /** @type {NodeJS.ErrnoException} */ (error);
    return { name, readError: (code !== undefined && STRERROR[code]) || message };
  }
}

/**
 * The stack of a thrown value, as ``error && error.stack`` reads it.
 * @param {unknown} error
 */
function stackOf(error) {
  return error && /** @type {{stack?: unknown}} */ (error).stack;
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
    const source = job.path !== undefined ? readRecord(job.path) : { name: job.name ?? "record.json", bytes: Buffer.from(job.text, "utf8") };
    let answer;
    try {
      answer = runReplay({ ...source, asJson: Boolean(job.json), width: job.width ?? 80 });
    } catch (error) {
      answer = { rc: 2, stdout: "", stderr: `crash: ${stackOf(error)}\n` };
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

/** @param {readonly string[]} argv */
function main(argv) {
  /** @type {string | null} */
  let file = null;
  let asJson = false;
  let width = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--batch") return batch();
    if (arg === "--json") asJson = true;
    else if (arg === "--width") {
      const value = argv[++i];
      if (value === undefined || !/^[0-9]+$/.test(value)) return usage("--width takes a number");
      width = Number(value);
    } else if (arg === "--") {
      file = argv[i + 1] ?? null;
      break;
    } else if (file === null && !arg.startsWith("--")) file = arg;
    else return usage(`unexpected argument ${arg}`);
  }
  if (file === null) return usage("a record FILE is needed");
  const result = runReplay({ ...readRecord(file), asJson, width: width ?? consoleWidth() });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.rc;
  return undefined;
}

main(process.argv.slice(2));
