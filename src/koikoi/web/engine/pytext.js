// @ts-check
// Python's spelling of values, for messages that must read exactly as the Python
// engine writes them (koikoi replay prints them, and the two engines are compared on
// their output): repr(), reprlib's short repr, json.dumps(), difflib's close matches
// and ==. Values are what pyjson.js parses: Map (dict), Array (list), string, number
// (int), BigInt (an int past 2**53), PyFloat (float), boolean, null (None).

/**
 * A dict as the engine reads one: a Map (pyjson.js's) or a plain object (JSON.parse's).
 * @typedef {Map<string, unknown> | {[key: string]: unknown}} Dict
 */

/** A Python float, kept apart from ints: JSON's 5.0 is a float, and rules refuse it. */
export class PyFloat {
  /** @param {number} value */
  constructor(value) {
    this.value = value;
  }
}

/**
 * Whether a value is a dict (a Map or a plain object that is no list and no PyFloat).
 * @param {unknown} value
 * @returns {value is Dict}
 */
export function isDict(value) {
  return value instanceof Map || (value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof PyFloat));
}

/**
 * A dict's items, in insertion order, from a Map or a plain object.
 * @param {Dict} value
 * @returns {[string, unknown][]}
 */
export function dictItems(value) {
  return value instanceof Map ? [...value.entries()] : Object.entries(value);
}

/**
 * Python's int test: true for ints (numbers without a fraction, BigInts), not bools.
 * @param {unknown} value
 * @returns {value is number | bigint}
 */
export function isInt(value) {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}

/**
 * A string as code points: Python indexes strings by code point, JavaScript by unit.
 * @param {string} text
 * @returns {string[]}
 */
export function codePoints(text) {
  return Array.from(text);
}

/**
 * len() of a str: its code points.
 * @param {string} text
 * @returns {number}
 */
export function pyLength(text) {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/**
 * @param {number} code
 * @param {number} digits
 */
function hex(code, digits) {
  return code.toString(16).padStart(digits, "0");
}

/**
 * repr() of a str.
 * @param {string} text
 * @returns {string}
 */
export function strRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = /** @type {number} */ (ch.codePointAt(0));
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
    else if (code < 0x7f) out += ch;
    else if (!NOT_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += "\\x" + hex(code, 2);
    else if (code <= 0xffff) out += "\\u" + hex(code, 4);
    else out += "\\U" + hex(code, 8);
  }
  return out + quote;
}

/**
 * repr() of a float: the shortest digits that read back, as Python lays them out.
 * @param {number} x
 * @returns {string}
 */
export function floatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exponent] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const decpt = Number(exponent) + 1; // the value is 0.DIGITS * 10**decpt
  const sign = x < 0 ? "-" : "";
  if (decpt <= -4 || decpt > 16) {
    const rest = digits.length > 1 ? "." + digits.slice(1) : "";
    const e = decpt - 1;
    return `${sign}${digits[0]}${rest}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** @param {number | bigint} value */
function intRepr(value) {
  return typeof value === "bigint" ? value.toString() : String(value);
}

/**
 * repr() of a parsed JSON value.
 * @param {unknown} value
 * @returns {string}
 */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return strRepr(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  const items = isDict(value) ? dictItems(value) : [];
  return `{${items.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}

// reprlib.Repr with the limits of rules.short_repr.
const MAX_LEVEL = 3;
const MAX_LIST = 6;
const MAX_DICT = 4;
const MAX_STRING = 60;
const MAX_LONG = 60;
const MAX_OTHER = 60;
const FILL = "...";

/**
 * @param {string} text
 * @param {number} limit
 */
function cutMiddle(text, limit) {
  const points = codePoints(text);
  if (points.length <= limit) return text;
  const i = Math.max(0, Math.floor((limit - 3) / 2));
  const j = Math.max(0, limit - 3 - i);
  return points.slice(0, i).join("") + FILL + points.slice(points.length - j).join("");
}

/**
 * Python's order of two strings: by code point.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function comparePoints(a, b) {
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = /** @type {number} */ (x[i].codePointAt(0)) - /** @type {number} */ (y[i].codePointAt(0));
    if (d) return d;
  }
  return x.length - y.length;
}

/**
 * @param {unknown} value
 * @param {number} level
 * @returns {string}
 */
function reprlib(value, level) {
  if (typeof value === "string") {
    const points = codePoints(value);
    const s = strRepr(points.slice(0, MAX_STRING).join(""));
    if (pyLength(s) > MAX_STRING) {
      const i = Math.max(0, Math.floor((MAX_STRING - 3) / 2));
      const j = Math.max(0, MAX_STRING - 3 - i);
      const cut = codePoints(strRepr(points.slice(0, i).join("") + points.slice(points.length - j).join("")));
      return cut.slice(0, i).join("") + FILL + cut.slice(cut.length - j).join("");
    }
    return s;
  }
  if (isInt(value) && typeof value !== "boolean") return cutMiddle(intRepr(value), MAX_LONG);
  if (Array.isArray(value)) {
    if (level <= 0 && value.length) return `[${FILL}]`;
    const pieces = value.slice(0, MAX_LIST).map((item) => reprlib(item, level - 1));
    if (value.length > MAX_LIST) pieces.push(FILL);
    return `[${pieces.join(", ")}]`;
  }
  if (isDict(value)) {
    const items = dictItems(value);
    if (!items.length) return "{}";
    if (level <= 0) return `{${FILL}}`;
    // reprlib sorts the keys when it can (they are all strings here).
    items.sort(([a], [b]) => comparePoints(a, b));
    const pieces = items.slice(0, MAX_DICT).map(([k, v]) => `${reprlib(k, level - 1)}: ${reprlib(v, level - 1)}`);
    if (items.length > MAX_DICT) pieces.push(FILL);
    return `{${pieces.join(", ")}}`;
  }
  return cutMiddle(pyRepr(value), MAX_OTHER);
}

/** @param {bigint} n */
function bitLengthBig(n) {
  return (n < 0n ? -n : n).toString(2).length;
}

/**
 * rules.short_repr: repr() cut short, for error messages.
 * @param {unknown} value
 * @returns {string}
 */
export function shortRepr(value) {
  if (typeof value === "bigint" && bitLengthBig(value) > 64) {
    const sign = value < 0n ? "-" : "";
    return `${sign}an integer of about ${(bitLengthBig(value) * 0.30103).toFixed(0)} digits`;
  }
  return reprlib(value, MAX_LEVEL);
}

const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** @param {string} text */
function jsonString(text) {
  if (JSON_PLAIN.test(text)) return '"' + text + '"';
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code === 8) out += "\\b";
    else if (code === 12) out += "\\f";
    else if (code < 0x20 || code > 0x7e) out += "\\u" + hex(code, 4);
    else out += ch;
  }
  return out + '"';
}

/** @param {number} x */
function jsonFloat(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return floatRepr(x);
}

/**
 * json.dumps(value) with Python's defaults: ", " and ": " separators, ASCII only.
 * @param {unknown} value
 * @returns {string}
 */
export function jsonDumps(value) {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return jsonString(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : jsonFloat(value);
  if (value instanceof PyFloat) return jsonFloat(value.value);
  if (Array.isArray(value)) return `[${value.map(jsonDumps).join(", ")}]`;
  const items = isDict(value) ? dictItems(value) : [];
  return `{${items.map(([k, v]) => `${jsonString(k)}: ${jsonDumps(v)}`).join(", ")}}`;
}

/**
 * @param {unknown} value
 * @returns {bigint | number | undefined}
 */
function numeric(value) {
  // A comparable form of a Python number: [kind, value] with exact ints as BigInt.
  if (typeof value === "boolean") return BigInt(value ? 1 : 0);
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/**
 * Python's == between parsed JSON values (1 == 1.0 == True; dicts ignore order).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function pyEquals(a, b) {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    if (typeof x === typeof y) return x === y;
    const [big, float] = typeof x === "bigint" ? [x, /** @type {number} */ (y)] : [/** @type {bigint} */ (y), x];
    return Number.isInteger(float) && BigInt(float) === big;
  }
  if (a === null || b === null) return a === b;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEquals(item, b[i]));
  }
  if (!isDict(a) || !isDict(b)) return a === b;
  const left = new Map(dictItems(a));
  const right = new Map(dictItems(b));
  if (left.size !== right.size) return false;
  for (const [key, value] of left) {
    if (!right.has(key) || !pyEquals(value, right.get(key))) return false;
  }
  return true;
}

// difflib.get_close_matches, for the did-you-mean of unknown cards and rule keys.

class SequenceMatcher {
  /** @param {string[]} b */
  constructor(b) {
    this.b = b;
    /** @type {string[]} */
    this.a = [];
    /** @type {Map<string, number[]>} */
    const b2j = new Map();
    b.forEach((elt, i) => {
      const indices = b2j.get(elt);
      if (indices === undefined) b2j.set(elt, [i]);
      else indices.push(i);
    });
    if (b.length >= 200) {
      // difflib's autojunk: elements in more than 1% of a long sequence are ignored.
      const ntest = Math.floor(b.length / 100) + 1;
      for (const [elt, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(elt);
    }
    this.b2j = b2j;
    /** @type {Map<string, number> | null} */
    this.fullbcount = null;
  }

  /** @param {string[]} a */
  setA(a) {
    this.a = a;
  }

  /**
   * @param {number} alo
   * @param {number} ahi
   * @param {number} blo
   * @param {number} bhi
   * @returns {[number, number, number]}
   */
  longestMatch(alo, ahi, blo, bhi) {
    const { a, b, b2j } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    /** @type {Map<number, number>} */
    let j2len = new Map();
    for (let i = alo; i < ahi; i++) {
      /** @type {Map<number, number>} */
      const newj2len = new Map();
      for (const j of b2j.get(a[i]) || []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) || 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    // No junk function: popular elements are left out of b2j but are not junk, so a
    // match still grows over them at its ends.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  }

  matches() {
    const la = this.a.length;
    const lb = this.b.length;
    /** @type {[number, number, number, number][]} */
    const queue = [[0, la, 0, lb]];
    let total = 0;
    while (queue.length) {
      const [alo, ahi, blo, bhi] = /** @type {[number, number, number, number]} */ (queue.pop());
      const [i, j, k] = this.longestMatch(alo, ahi, blo, bhi);
      if (k) {
        total += k;
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    return total;
  }

  ratio() {
    const length = this.a.length + this.b.length;
    return length ? (2.0 * this.matches()) / length : 1.0;
  }

  quickRatio() {
    let fullbcount = this.fullbcount;
    if (fullbcount === null) {
      fullbcount = new Map();
      for (const elt of this.b) fullbcount.set(elt, (fullbcount.get(elt) || 0) + 1);
      this.fullbcount = fullbcount;
    }
    /** @type {Map<string, number>} */
    const avail = new Map();
    let matches = 0;
    for (const elt of this.a) {
      const numb = avail.get(elt) ?? (fullbcount.get(elt) || 0);
      avail.set(elt, numb - 1);
      if (numb > 0) matches++;
    }
    const length = this.a.length + this.b.length;
    return length ? (2.0 * matches) / length : 1.0;
  }

  realQuickRatio() {
    const la = this.a.length;
    const lb = this.b.length;
    return la + lb ? (2.0 * Math.min(la, lb)) / (la + lb) : 1.0;
  }
}

/**
 * difflib.get_close_matches(word, possibilities, n, cutoff).
 * @param {string} word
 * @param {Iterable<string>} possibilities
 * @param {number} [n]
 * @param {number} [cutoff]
 * @returns {string[]}
 */
export function closeMatches(word, possibilities, n = 3, cutoff = 0.6) {
  const matcher = new SequenceMatcher(codePoints(word));
  /** @type {[number, string][]} */
  const result = [];
  for (const x of possibilities) {
    matcher.setA(codePoints(x));
    if (matcher.realQuickRatio() >= cutoff && matcher.quickRatio() >= cutoff) {
      const ratio = matcher.ratio();
      if (ratio >= cutoff) result.push([ratio, x]);
    }
  }
  // heapq.nlargest on (ratio, x): ties go to the larger string.
  result.sort((p, q) => q[0] - p[0] || comparePoints(q[1], p[1]));
  return result.slice(0, n).map(([, x]) => x);
}
