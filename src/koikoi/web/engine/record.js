// @ts-check
// Records: a whole game as JSON, and replay that re-checks every action and result
// (docs/rules.md §7, record.py).
//
// Two forms: a match from a seed, {"version": 1, "rules": {...}, "seed": 42, "actions":
// [...]}, and one given deal, {"rules": {...}, "dealer": 0, "hands": [[...], [...]],
// "field": [...], "stock": [...], "actions": [...]}. Both may carry the replay's output
// as "result", which is then checked. Records read by pyjson.js (Maps, exact ints) and
// plain JSON.parse objects are both accepted; messages are record.py's, word for word.

import { Match } from "./match.js";
import { DealError, IllegalActionError, Round, actionFromJson, actionToJson } from "./round.js";
import { RuleSet, RulesError } from "./rules.js";
import { JSONDecodeError, NestingError, TooManyDigitsError, loads } from "./pyjson.js";
import { codePoints, comparePoints, dictItems, isDict, isInt, jsonDumps, pyEquals, shortRepr, strRepr } from "./pytext.js";

/** @typedef {import("./random.js").Seed} Seed */
/** @typedef {import("./pytext.js").Dict} Dict */
/** @typedef {import("./rules.js").RulesMapping} RulesMapping */
/**
 * A record's given deal, as read (checked when the record is replayed): the dealer, the
 * two hands, the field and the stock (top card first), as card slugs.
 * @typedef {object} DealData
 * @property {unknown} dealer
 * @property {unknown} hands
 * @property {unknown} field
 * @property {unknown} stock
 */
/**
 * A record's file form (docs/rules.md §7; Record.toJson).
 * @typedef {{version: number, rules: RulesMapping, seed?: Seed, dealer?: unknown, hands?: unknown, field?: unknown, stock?: unknown, actions: unknown[], result?: unknown}} RecordJson
 */
/**
 * What koikoi replay --json prints for a replayed match (docs/rules.md §7).
 * @typedef {object} ReplayOutput
 * @property {ReturnType<import("./round.js").RoundResult["toJson"]>[]} rounds
 * @property {number[]} totals
 * @property {number | null} winner
 * @property {false} [finished] present (false) while the match is not over
 */

export const RECORD_VERSION = 1;
const DEAL_KEYS = ["dealer", "hands", "field", "stock"];
const KEYS = ["version", "rules", "seed", "actions", "result", ...DEAL_KEYS];
const SORTED_KEYS = [...KEYS].sort();

/** A record that cannot be replayed; ``index`` names the bad action, if one is. */
export class RecordError extends Error {
  /**
   * @param {string} message
   * @param {number | null} [index]
   */
  constructor(message, index = null) {
    super(message);
    this.name = "RecordError";
    this.index = index;
  }
}

/**
 * record.py's _short: JSON (or repr for a string), cut to 120 characters.
 * @param {unknown} value
 * @returns {string}
 */
export function short(value) {
  const text = typeof value === "string" ? strRepr(value) : jsonDumps(value);
  const points = codePoints(text);
  return points.length <= 120 ? text : points.slice(0, 117).join("") + "...";
}

/**
 * @param {unknown} value
 * @returns {value is string[]}
 */
function isSlugList(value) {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** A game as data: its rules, its seed or given deal, and every action taken. */
export class Record {
  /**
   * @param {object} fields
   * @param {RuleSet} fields.rules
   * @param {readonly unknown[]} fields.actions every action in record form (checked by replay)
   * @param {Seed | null} [fields.seed] the seed of a match (null: a given deal)
   * @param {DealData | ReturnType<import("./round.js").Round["dealJson"]> | null} [fields.deal] a given deal
   * @param {unknown} [fields.result] the replay's output, to check (null: none)
   */
  constructor({ rules, actions, seed = null, deal = null, result = null }) {
    this.rules = rules;
    this.actions = actions;
    this.seed = seed;
    this.deal = deal;
    this.result = result;
    Object.freeze(this);
  }

  /**
   * The record of a match as played so far.
   * @param {Match} match
   * @returns {Record}
   */
  static fromMatch(match) {
    return new Record({
      rules: match.rules,
      actions: match.actions.map(actionToJson),
      seed: match.seed,
      deal: match.deal,
      result: replayOutput(match),
    });
  }

  /**
   * Check a record's shape; the actions themselves are checked by replay(). A
   * RecordError says what is wrong.
   * @param {unknown} data
   * @returns {Record}
   */
  static fromJson(data) {
    if (!isDict(data)) throw new RecordError(`a record is a JSON object, not ${short(data)}`);
    const fields = new Map(dictItems(data));
    const unknown = [...fields.keys()].filter((key) => !KEYS.includes(key)).sort(comparePoints);
    if (unknown.length) {
      throw new RecordError(`unknown record key ${strRepr(unknown[0])}; a record holds ${SORTED_KEYS.join(", ")}`);
    }
    const version = fields.has("version") ? fields.get("version") : RECORD_VERSION;
    if (!isInt(version) || version !== RECORD_VERSION) {
      throw new RecordError(`record version ${shortRepr(version)} is not supported (only 1)`);
    }
    let rules;
    try {
      rules = RuleSet.fromMapping(fields.has("rules") ? fields.get("rules") : new Map());
    } catch (error) {
      if (error instanceof RulesError) throw new RecordError(`record rules: ${error.message}`);
      throw error;
    }
    const actions = fields.has("actions") ? fields.get("actions") : [];
    if (!Array.isArray(actions)) throw new RecordError(`record 'actions' must be a list, not ${short(actions)}`);
    const result = fields.has("result") ? fields.get("result") : null;
    if (result !== null && !isDict(result)) throw new RecordError(`record 'result' must be an object, not ${short(result)}`);
    const given = DEAL_KEYS.filter((key) => fields.has(key));
    if (fields.has("seed")) {
      if (given.length) throw new RecordError(`a record has a seed or a deal, not both (it has ${strRepr(given[0])})`);
      const seed = fields.get("seed");
      if (!isInt(seed) || seed < 0) throw new RecordError(`record 'seed' must be an integer >= 0, not ${short(seed)}`);
      return new Record({ rules, actions: [...actions], seed, result });
    }
    const missing = DEAL_KEYS.filter((key) => !fields.has(key));
    if (missing.length) throw new RecordError(`a record needs a 'seed' or a whole deal; ${strRepr(missing[0])} is missing`);
    const deal = /** @type {DealData} */ (Object.fromEntries(DEAL_KEYS.map((key) => [key, fields.get(key)])));
    return new Record({ rules, actions: [...actions], deal, result });
  }

  /** @returns {RecordJson} */
  toJson() {
    /** @type {{[key: string]: unknown}} */
    const data = { version: RECORD_VERSION, rules: this.rules.toMapping() };
    if (this.deal !== null) Object.assign(data, this.deal);
    else data.seed = this.seed;
    data.actions = [...this.actions];
    if (this.result !== null) data.result = this.result;
    return /** @type {RecordJson} */ (data);
  }
}

/**
 * The match a record starts from, before any action; a RecordError if it cannot start.
 * @param {Record} record
 * @returns {Match}
 */
export function startMatch(record) {
  if (record.deal === null) {
    try {
      return new Match(record.rules, /** @type {Seed} */ (record.seed));
    } catch (error) {
      // rules that can never deal (endless redeals)
      if (error instanceof RulesError) throw new RecordError(`record rules: ${error.message}`);
      throw error;
    }
  }
  const { dealer, hands, field, stock } = record.deal;
  if (!(dealer === 0 || dealer === 1)) throw new RecordError(`record 'dealer' must be 0 or 1, not ${short(dealer)}`);
  /** @type {[string, unknown][]} */
  const lists = [["field", field], ["stock", stock]];
  for (const [key, value] of lists) {
    if (!isSlugList(value)) throw new RecordError(`record ${strRepr(key)} must be a list of card slugs, not ${short(value)}`);
  }
  if (!Array.isArray(hands) || hands.length !== 2 || !hands.every(isSlugList)) {
    throw new RecordError(`record 'hands' must be two lists of card slugs, not ${short(hands)}`);
  }
  let given;
  try {
    given = Round.fromDeal(record.rules, dealer, hands, /** @type {string[]} */ (field), /** @type {string[]} */ (stock));
  } catch (error) {
    if (error instanceof DealError) throw new RecordError(`record deal: ${error.message}`);
    throw error;
  }
  return Match.single(given);
}

/**
 * Replay every action, re-checking each; throws RecordError on the first bad one. A
 * record whose actions stop early gives a match that is not over; a stored result must
 * equal the replay's.
 * @param {Record} record
 * @returns {Match}
 */
export function replay(record) {
  const match = startMatch(record);
  record.actions.forEach((data, index) => {
    let action;
    try {
      action = actionFromJson(data);
    } catch (error) {
      if (error instanceof RangeError) throw new RecordError(`action ${index}: ${error.message}`, index);
      throw error;
    }
    if (match.isOver) throw new RecordError(`action ${index} (${short(data)}) is illegal: the game is already over`, index);
    try {
      match.apply(action);
    } catch (error) {
      if (error instanceof IllegalActionError) throw new RecordError(`action ${index} (${short(data)}): ${error.message}`, index);
      // the next round could not be dealt
      if (error instanceof RulesError) throw new RecordError(`record rules: ${error.message}`);
      throw error;
    }
  });
  if (record.result !== null) {
    const output = replayOutput(match);
    if (!pyEquals(output, record.result)) {
      throw new RecordError(`the stored result ${short(record.result)} differs from the replay's ${short(output)}`);
    }
  }
  return match;
}

/**
 * The docs/rules.md §7 output of koikoi replay --json for a (replayed) match.
 * @param {Match} match
 * @returns {ReplayOutput}
 */
export function replayOutput(match) {
  /** @type {ReplayOutput} */
  const output = {
    rounds: match.results.map((result) => result.toJson()),
    totals: [...match.totals],
    winner: match.winner,
  };
  if (!match.isOver) output.finished = false;
  return output;
}

/**
 * A record from a file's bytes, with load_record's messages; ``name`` is the path as
 * Python's str(Path(...)) spells it. The reading itself (and its errors) is the caller's.
 * @param {string} name
 * @param {Uint8Array} bytes
 * @returns {Record}
 */
export function recordFromBytes(name, bytes) {
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) throw new RecordError(`record ${strRepr(name)} is not UTF-8 text (byte ${bad})`);
  // Python reads text files with universal newlines: \r\n and \r become \n.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).replace(/\r\n?/g, "\n");
  let data;
  try {
    data = loads(text);
  } catch (error) {
    if (error instanceof JSONDecodeError) throw new RecordError(`record ${strRepr(name)} is not JSON: ${error.message}`);
    if (error instanceof NestingError) throw new RecordError(`record ${strRepr(name)} is nested too deeply`);
    if (error instanceof TooManyDigitsError) throw new RecordError(`record ${strRepr(name)} holds a number of too many digits`);
    throw error;
  }
  return Record.fromJson(data);
}

/**
 * The offset of the first byte that starts no well-formed UTF-8 sequence, or -1.
 * @param {Uint8Array} bytes
 * @returns {number}
 */
export function firstInvalidUtf8(bytes) {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}
