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
// and the descent that looks for the first divergent path (koikoi.perft.NodeEngine).

import fs from "node:fs";
import readline from "node:readline";
import { RecordError, recordFromBytes, replay } from "../engine/record.js";
import { jsonDumps, strRepr } from "../engine/pytext.js";
import { run } from "../engine/perft.js";

// The strerror texts Python prints for the errors reading a file can meet (as
// replay-cli.mjs has them).
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

// files.py's MAX_FILE_BYTES: a longer record (or /dev/zero) is refused, not read whole.
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * str(pathlib.Path(path)): repeated and trailing slashes and "." parts dropped.
 * @param {string} path
 * @returns {string}
 */
function pythonPath(path) {
  const root = path.startsWith("//") && !path.startsWith("///") ? "//" : path.startsWith("/") ? "/" : "";
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  return root + parts.join("/") || ".";
}

/**
 * A record to count from: its name as printed, and its bytes or the error reading them.
 * @typedef {object} Source
 * @property {string} name
 * @property {Uint8Array | null} [bytes]
 * @property {string | null} [readError]
 */
/** What a run prints, and its exit status. @typedef {{rc: number, stdout: string, stderr: string}} Run */
/** @typedef {{count: number, divide: Map<string, number>}} Result */

/**
 * A record file's bytes, at most MAX_FILE_BYTES + 1 of them, or why it cannot be read.
 * @param {string} path
 * @returns {Source}
 */
function readRecord(path) {
  const name = pythonPath(path);
  let fd;
  try {
    fd = fs.openSync(name, "r");
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let size = 0;
    for (;;) {
      const read = fs.readSync(fd, buffer, size, buffer.length - size, null);
      if (read === 0) break;
      size += read;
      if (size === buffer.length) break;
    }
    return { name, bytes: buffer.subarray(0, size) };
  } catch (error) {
    const { code, message } = /** @type {NodeJS.ErrnoException} */ (error);
    return { name, readError: (code !== undefined && STRERROR[code]) || message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

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
function runPerft({ name, bytes = null, readError = null, depth, withDivide = false, asJson = false }) {
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
  const data = bytes ?? new Uint8Array();
  if (data.length > MAX_FILE_BYTES) {
    return fail(`record ${strRepr(name)} holds more than ${MAX_FILE_BYTES / (1024 * 1024)} MB; it cannot be one`);
  }
  let game;
  try {
    game = replay(recordFromBytes(name, data)).round.copy();
  } catch (error) {
    if (error instanceof RecordError) return fail(error.message, error.index);
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
    const source = job.path !== undefined ? readRecord(job.path) : { name: job.name ?? "record.json", bytes: Buffer.from(job.text, "utf8") };
    let answer;
    try {
      answer = runPerft({ ...source, depth: String(job.depth), withDivide: job.divide ?? true, asJson: job.json ?? true });
    } catch (error) {
      const stack = error && /** @type {{stack?: unknown}} */ (error).stack;
      answer = { rc: 2, stdout: "", stderr: `crash: ${stack}\n` };
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

/** @param {readonly string[]} argv */
function main(argv) {
  /** @type {string | null} */
  let file = null;
  /** @type {string | null} */
  let depth = null;
  let withDivide = false;
  let asJson = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--batch") return batch();
    if (arg === "--json") asJson = true;
    else if (arg === "--divide") withDivide = true;
    else if (arg === "--depth") {
      const value = argv[++i];
      if (value === undefined || !/^[0-9]+$/.test(value)) return usage("--depth takes a number 0 or more");
      depth = BigInt(value).toString();
    } else if (arg === "--") {
      file = argv[i + 1] ?? null;
      break;
    } else if (file === null && !arg.startsWith("--")) file = arg;
    else return usage(`unexpected argument ${arg}`);
  }
  if (file === null) return usage("a record FILE is needed");
  if (depth === null) return usage("--depth N is needed");
  const result = runPerft({ ...readRecord(file), depth, withDivide, asJson });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.rc;
  return undefined;
}

main(process.argv.slice(2));
