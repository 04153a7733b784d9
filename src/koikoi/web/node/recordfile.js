// @ts-check
// A record file as koikoi's commands read it (files.py's read_text, and the messages
// record.py and the command line word), and the shape of what a command prints: shared
// by the Node.js programs that take a record (replay-cli.mjs, perft-cli.mjs), whose
// output must be byte for byte the Python command's.

import fs from "node:fs";
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

/** files.py's MAX_FILE_BYTES: a longer record (or /dev/zero) is refused, not read whole. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * A record: its name as printed, and its bytes or the error reading them.
 * @typedef {object} Source
 * @property {string} name
 * @property {Uint8Array | null} [bytes]
 * @property {string | null} [readError]
 */
/** What a run prints, and its exit status. @typedef {{rc: number, stdout: string, stderr: string}} Run */

/**
 * str(pathlib.Path(path)): repeated and trailing slashes and "." parts dropped.
 * @param {string} path
 * @returns {string}
 */
export function pythonPath(path) {
  const root = path.startsWith("//") && !path.startsWith("///") ? "//" : path.startsWith("/") ? "/" : "";
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  return root + parts.join("/") || ".";
}

/**
 * A record file's bytes, at most MAX_FILE_BYTES + 1 of them, or why it cannot be read.
 * @param {string} path
 * @returns {Source}
 */
export function readRecord(path) {
  const name = pythonPath(path);
  let fd;
  try {
    fd = fs.openSync(name, "r");
    // In chunks, not one buffer of the whole limit: a record is a few kilobytes, and a
    // batch reads thousands of them.
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    while (size <= MAX_FILE_BYTES) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, MAX_FILE_BYTES + 1 - size));
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      size += read;
    }
    return { name, bytes: Buffer.concat(chunks, size) };
  } catch (error) {
    const { code, message } = /** @type {NodeJS.ErrnoException} */ (error);
    return { name, readError: (code !== undefined && STRERROR[code]) || message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The record a batch line names: a file (`path`) or the text itself (`text`, `name`).
 * @param {{path?: string, text?: string, name?: string}} job
 * @returns {Source}
 */
export function sourceOf(job) {
  if (job.path !== undefined) return readRecord(job.path);
  return { name: job.name ?? "record.json", bytes: Buffer.from(job.text ?? "", "utf8") };
}

/**
 * Why a source cannot be a record, as the Python command words it, or null.
 * @param {Source} source
 * @returns {string | null}
 */
export function unreadable({ name, bytes = null, readError = null }) {
  if (readError !== null) return `cannot read record ${strRepr(name)}: ${readError}`;
  if (bytes !== null && bytes.length > MAX_FILE_BYTES) {
    return `record ${strRepr(name)} holds more than ${MAX_FILE_BYTES / (1024 * 1024)} MB; it cannot be one`;
  }
  return null;
}

/**
 * A refusal as the command prints it: the error on standard error, and with --json
 * also as {"error"} (and the action's "index") on standard output; exit status 1.
 * @param {boolean} asJson
 * @param {string} message
 * @param {number | null} [index]
 * @returns {Run}
 */
export function refusal(asJson, message, index = null) {
  const data = index === null ? { error: message } : { error: message, index };
  return { rc: 1, stdout: asJson ? jsonDumps(data) + "\n" : "", stderr: `koikoi: error: ${message}\n` };
}

/**
 * A batch answer for a program that crashed on a line (a bug, never a bad record).
 * @param {unknown} error
 * @returns {Run}
 */
export function crash(error) {
  return { rc: 2, stdout: "", stderr: `crash: ${error && /** @type {{stack?: unknown}} */ (error).stack}\n` };
}
