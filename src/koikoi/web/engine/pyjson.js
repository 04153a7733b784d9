// @ts-check
// JSON read as Python's json.loads reads it, errors included, since koikoi replay
// prints the parser's message for a broken record. JSON.parse differs in what matters
// here: it rounds integers past 2**53 (seeds may be any size), reads 5.0 as 5 (a rule
// refuses a float), refuses NaN and Infinity, and words its errors differently.
//
// Values: dict -> Map, list -> Array, str -> string, int -> number (BigInt past 2**53),
// float -> PyFloat, true/false -> boolean, null -> null.

import { PyFloat } from "./pytext.js";

/**
 * A value json.loads gives: a dict (Map), list (Array), str, int (number, a BigInt past
 * 2**53), float (PyFloat), bool or None (null); typed as unknown, for its readers to
 * check (pytext.js's isDict, isInt and the like).
 * @typedef {unknown} PyValue
 */

/** json.JSONDecodeError: ``message`` is Python's "MSG: line L column C (char P)". */
export class JSONDecodeError extends Error {
  /**
   * @param {string} msg
   * @param {string} doc the whole text
   * @param {number} pos where it failed, in UTF-16 units
   */
  constructor(msg, doc, pos) {
    // Python counts positions in code points; JavaScript indexes UTF-16 units.
    const before = doc.slice(0, pos);
    const point = Array.from(before).length;
    const lineno = before.split("\n").length;
    const lastNewline = before.lastIndexOf("\n");
    const colno = lastNewline < 0 ? point + 1 : point - Array.from(before.slice(0, lastNewline)).length;
    super(`${msg}: line ${lineno} column ${colno} (char ${point})`);
    this.name = "JSONDecodeError";
    this.msg = msg;
    this.pos = point;
  }
}

/** An integer literal of more digits than Python's int() converts (4300). */
export class TooManyDigitsError extends Error {}

/** Nesting deeper than Python's recursion limit lets its scanner go. */
export class NestingError extends Error {}

const MAX_INT_DIGITS = 4300;
// About where CPython's scanner meets the recursion limit when koikoi replay reads a
// record (the limit is 1000 frames, some of them taken by the command itself).
export const MAX_DEPTH = 975;

class StopIteration {
  /** @param {number} pos */
  constructor(pos) {
    this.pos = pos;
  }
}

/** @param {number} c */
function isWhitespace(c) {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** @param {number} c */
function isDigit(c) {
  return c >= 48 && c <= 57;
}

// eslint-disable-next-line no-control-regex -- JSON strings end at a control character
const PLAIN = /[^"\\\x00-\x1f]*/y;

/** @type {Readonly<Record<string, string>>} */
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** @typedef {[PyValue, number]} Scanned a value and the index after it */

class Scanner {
  /** @param {string} text */
  constructor(text) {
    this.s = text;
    this.depth = 0;
  }

  /**
   * @param {string} msg
   * @param {number} pos
   * @returns {never}
   */
  fail(msg, pos) {
    throw new JSONDecodeError(msg, this.s, pos);
  }

  /** @param {number} idx */
  skip(idx) {
    const s = this.s;
    while (idx < s.length && isWhitespace(s.charCodeAt(idx))) idx++;
    return idx;
  }

  /**
   * scan_once: [value, end]; a StopIteration where no value starts.
   * @param {number} idx
   * @returns {Scanned}
   */
  value(idx) {
    const s = this.s;
    if (idx >= s.length) throw new StopIteration(idx);
    const c = s[idx];
    if (c === '"') return this.string(idx + 1);
    if (c === "{" || c === "[") {
      if (++this.depth > MAX_DEPTH) throw new NestingError();
      const result = c === "{" ? this.object(idx + 1) : this.array(idx + 1);
      this.depth--;
      return result;
    }
    if (c === "n" && s.startsWith("null", idx)) return [null, idx + 4];
    if (c === "t" && s.startsWith("true", idx)) return [true, idx + 4];
    if (c === "f" && s.startsWith("false", idx)) return [false, idx + 5];
    if (c === "N" && s.startsWith("NaN", idx)) return [new PyFloat(NaN), idx + 3];
    if (c === "I" && s.startsWith("Infinity", idx)) return [new PyFloat(Infinity), idx + 8];
    if (c === "-" && s.startsWith("-Infinity", idx)) return [new PyFloat(-Infinity), idx + 9];
    return this.number(idx);
  }

  /**
   * @param {number} start
   * @returns {Scanned}
   */
  number(start) {
    const s = this.s;
    const end = s.length - 1;
    let idx = start;
    if (s[idx] === "-") {
      idx++;
      if (idx > end) throw new StopIteration(start);
    }
    const first = s.charCodeAt(idx);
    if (first >= 49 && first <= 57) {
      idx++;
      while (idx <= end && isDigit(s.charCodeAt(idx))) idx++;
    } else if (first === 48) {
      idx++;
    } else {
      throw new StopIteration(start);
    }
    let isFloat = false;
    if (idx < end && s[idx] === "." && isDigit(s.charCodeAt(idx + 1))) {
      isFloat = true;
      idx += 2;
      while (idx <= end && isDigit(s.charCodeAt(idx))) idx++;
    }
    if (idx < end && (s[idx] === "e" || s[idx] === "E")) {
      const eStart = idx;
      idx++;
      if (idx < end && (s[idx] === "-" || s[idx] === "+")) idx++;
      while (idx <= end && isDigit(s.charCodeAt(idx))) idx++;
      if (isDigit(s.charCodeAt(idx - 1))) isFloat = true;
      else idx = eStart;
    }
    const text = s.slice(start, idx);
    if (isFloat) return [new PyFloat(Number(text)), idx];
    const digits = text[0] === "-" ? text.length - 1 : text.length;
    if (digits > MAX_INT_DIGITS) throw new TooManyDigitsError();
    const value = Number(text);
    if (Number.isSafeInteger(value)) return [value === 0 ? 0 : value, idx];
    return [BigInt(text), idx];
  }

  /**
   * A string's value, from just after its opening quote.
   * @param {number} end
   * @returns {[string, number]}
   */
  string(end) {
    const s = this.s;
    const len = s.length;
    const begin = end - 1;
    /** @type {string[]} */
    const chunks = [];
    for (;;) {
      // The common case, a run of plain characters, found by one regular expression.
      PLAIN.lastIndex = end;
      PLAIN.test(s);
      let next = PLAIN.lastIndex;
      let c = next < len ? s[next] : "";
      if (c === '"' && !chunks.length) return [s.slice(end, next), next + 1];
      for (; next < len; next++) {
        c = s[next];
        if (c === '"' || c === "\\") break;
        if (s.charCodeAt(next) <= 0x1f) this.fail("Invalid control character at", next);
      }
      if (!(c === '"' || c === "\\")) this.fail("Unterminated string starting at", begin);
      if (next !== end) chunks.push(s.slice(end, next));
      next++;
      if (c === '"') return [chunks.join(""), next];
      if (next === len) this.fail("Unterminated string starting at", begin);
      c = s[next];
      if (c !== "u") {
        end = next + 1;
        const escaped = ESCAPES[c];
        if (escaped === undefined) this.fail("Invalid \\escape", end - 2);
        chunks.push(escaped);
        continue;
      }
      next++;
      end = next + 4;
      if (end >= len) this.fail("Invalid \\uXXXX escape", next - 1);
      let code = this.hex4(next, end);
      next = end;
      if (code >= 0xd800 && code <= 0xdbff && end + 6 < len && s[next] === "\\" && s[next + 1] === "u") {
        const low = this.hex4(next + 2, end + 6);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          end += 6;
        }
      }
      chunks.push(String.fromCodePoint(code));
    }
  }

  /**
   * @param {number} from
   * @param {number} end
   */
  hex4(from, end) {
    const s = this.s;
    let code = 0;
    for (let i = from; i < end; i++) {
      const digit = parseInt(s[i], 16);
      if (Number.isNaN(digit) || !/[0-9a-fA-F]/.test(s[i])) this.fail("Invalid \\uXXXX escape", end - 5);
      code = code * 16 + digit;
    }
    return code;
  }

  /**
   * @param {number} idx
   * @returns {Scanned}
   */
  object(idx) {
    const s = this.s;
    /** @type {Map<string, PyValue>} */
    const out = new Map();
    idx = this.skip(idx);
    if (idx >= s.length || s[idx] !== "}") {
      for (;;) {
        if (idx >= s.length || s[idx] !== '"') this.fail("Expecting property name enclosed in double quotes", idx);
        const [key, afterKey] = this.string(idx + 1);
        idx = this.skip(afterKey);
        if (idx >= s.length || s[idx] !== ":") this.fail("Expecting ':' delimiter", idx);
        idx = this.skip(idx + 1);
        const [value, afterValue] = this.value(idx);
        out.set(key, value);
        idx = this.skip(afterValue);
        if (idx < s.length && s[idx] === "}") break;
        if (idx >= s.length || s[idx] !== ",") this.fail("Expecting ',' delimiter", idx);
        idx = this.skip(idx + 1);
      }
    }
    return [out, idx + 1];
  }

  /**
   * @param {number} idx
   * @returns {Scanned}
   */
  array(idx) {
    const s = this.s;
    /** @type {PyValue[]} */
    const out = [];
    idx = this.skip(idx);
    if (idx >= s.length || s[idx] !== "]") {
      for (;;) {
        const [value, after] = this.value(idx);
        out.push(value);
        idx = this.skip(after);
        if (idx < s.length && s[idx] === "]") break;
        if (idx >= s.length || s[idx] !== ",") this.fail("Expecting ',' delimiter", idx);
        idx = this.skip(idx + 1);
      }
    }
    return [out, idx + 1];
  }
}

/**
 * json.loads(text): a JSONDecodeError, TooManyDigitsError or NestingError when it fails.
 * @param {string} text
 * @returns {PyValue}
 */
export function loads(text) {
  if (text.startsWith("\ufeff")) throw new JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0);
  const scanner = new Scanner(text);
  let value;
  let end;
  try {
    [value, end] = scanner.value(scanner.skip(0));
  } catch (error) {
    if (error instanceof StopIteration) throw new JSONDecodeError("Expecting value", text, error.pos);
    throw error;
  }
  end = scanner.skip(end);
  if (end !== text.length) throw new JSONDecodeError("Extra data", text, end);
  return value;
}
