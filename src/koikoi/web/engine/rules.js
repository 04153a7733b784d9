// @ts-check
// Rule sets: every option of docs/rules.md §6, the presets, their file form (rules.py).
//
// The same keys as Python, snake_case included, so a rules mapping means the same on
// both sides; the same checks and, where they can be, the same messages, because a
// record's rules are checked when it is replayed and the message is printed. The fields
// themselves (keys, defaults, kinds, descriptions, allowed values and bounds) and the
// presets are tables.js's, written from rules.py.

import { CARD_COUNT, MONTH_COUNT } from "./cards.js";
import { closeMatches, dictItems, isDict, isInt, shortRepr, strRepr } from "./pytext.js";
import {
  BOOL,
  BestPerCategory,
  BothHandYaku,
  CHOICE,
  CHOICES,
  COUNT,
  Decision,
  DrawDealer,
  Exhausted,
  FirstDealer,
  MAX_CALLS,
  MAX_DIGITS,
  MAX_SCORE,
  Multiplier,
  NUMBER,
  NextDealer,
  POINTS,
  PRESET_TABLE,
  RULE_FIELDS,
  RuleFields,
  SUGGESTIONS,
  SakeCup,
  TsukifudaMonth,
  Viewing,
  ViewingCanceller,
} from "./tables.js";

export {
  BOOL,
  BestPerCategory,
  BothHandYaku,
  CHOICE,
  CHOICES,
  COUNT,
  Decision,
  DrawDealer,
  Exhausted,
  FirstDealer,
  MAX_CALLS,
  MAX_SCORE,
  Multiplier,
  NUMBER,
  NextDealer,
  POINTS,
  SakeCup,
  TsukifudaMonth,
  Viewing,
  ViewingCanceller,
};

/** @typedef {import("./tables.js").RuleValues} RuleValues */
/** @typedef {import("./tables.js").RuleKey} RuleKey */
/** @typedef {import("./tables.js").RuleValue} RuleValue */
/** @typedef {import("./tables.js").FieldKind} FieldKind */
/** @typedef {import("./tables.js").FieldFacts} FieldFacts */
/** @typedef {import("./pytext.js").Dict} Dict */
/**
 * A rule set's file form (toMapping): ``preset`` and the fields that differ from it.
 * @typedef {{[key: string]: RuleValue | string}} RulesMapping
 */

/** One or more problems with a rule set; ``problems`` lists each one. */
export class RulesError extends Error {
  /** @param {Iterable<string>} problems */
  constructor(problems) {
    const list = [...problems];
    super(list.join("; "));
    this.name = "RulesError";
    this.problems = list;
  }
}

/**
 * @param {string} key
 * @param {unknown} value
 * @param {string | readonly string[]} allowed
 */
function badValueMessage(key, value, allowed) {
  const words = typeof allowed === "string" ? allowed : allowed.join(", ");
  return `rule ${strRepr(key)}: ${shortRepr(value)} is not allowed; allowed: ${words}`;
}

/** One rule key: its kind of value, its allowed values and a short description. */
export class FieldSpec {
  /** @param {FieldFacts} facts the field's row of tables.js's RULE_FIELDS */
  constructor({ key, kind, help, choices, bounds }) {
    this.key = key;
    this.kind = kind;
    this.help = help;
    this.choices = choices;
    this.bounds = bounds;
    Object.freeze(this);
  }

  /** The allowed values in words, for error messages and help. */
  get allowed() {
    if (this.bounds !== null) {
      const [low, high] = this.bounds;
      const off = this.kind === POINTS ? " (0 switches it off)" : "";
      return `an integer from ${low} to ${high}${off}`;
    }
    if (this.kind === BOOL) return "true or false";
    const names = this.members.join(", ");
    if (this.kind === CHOICES) return `a list of: ${names} (empty for none)`;
    return names;
  }

  /** The allowed values of a choice field. */
  get members() {
    return this.choices ?? [];
  }

  /**
   * The error for a value this field does not allow.
   * @param {unknown} value
   */
  bad(value) {
    return new RangeError(badValueMessage(this.key, value, this.allowed));
  }

  /**
   * Validate a JSON value and return it in the field's own form; a RangeError if the
   * field does not allow it.
   * @param {unknown} value
   * @returns {RuleValue}
   */
  check(value) {
    if (this.kind === BOOL) {
      if (typeof value !== "boolean") throw this.bad(value);
      return value;
    }
    if (this.bounds !== null) {
      if (!isInt(value)) throw this.bad(value);
      const [low, high] = this.bounds;
      if (value < low || value > high) throw this.bad(value);
      return Number(value);
    }
    const members = this.members;
    if (this.kind === CHOICE) {
      if (typeof value !== "string" || !members.includes(value)) throw this.bad(value);
      return /** @type {RuleValue} */ (value);
    }
    if (!Array.isArray(value)) throw this.bad(value);
    for (const item of value) if (typeof item !== "string" || !members.includes(item)) throw this.bad(value);
    // A canonical order, so equal sets compare and print equal.
    return /** @type {RuleValue} */ (Object.freeze(members.filter((member) => value.includes(member))));
  }

  /**
   * Parse a command-line value (``--set key=value``) and validate it.
   * @param {unknown} text
   * @returns {RuleValue}
   */
  parse(text) {
    if (typeof text !== "string") return this.check(text);
    if (this.bounds !== null) {
      if (!/^[0-9]+$/.test(text) || text.length > MAX_DIGITS) throw this.bad(text);
      return this.check(text.length > 15 ? BigInt(text) : Number(text));
    }
    const stripped = text.trim();
    if (this.kind === BOOL) {
      if (!["true", "false"].includes(stripped.toLowerCase())) throw this.bad(stripped);
      return stripped.toLowerCase() === "true";
    }
    if (this.kind === CHOICES) {
      const items = stripped.split(",").map((item) => item.trim()).filter((item) => item);
      try {
        return this.check(items);
      } catch {
        throw this.bad(stripped);
      }
    }
    return this.check(stripped);
  }
}

/**
 * Every rule key's spec, in rules.py's order.
 * @type {ReadonlyMap<string, FieldSpec>}
 */
export const FIELDS = new Map(RULE_FIELDS.map((facts) => [facts.key, new FieldSpec(facts)]));
/** Every rule key, in rules.py's order. */
export const KEYS = Object.freeze(RULE_FIELDS.map((facts) => facts.key));
/** Every field's default: the classic preset's values. */
const DEFAULTS = /** @type {Readonly<RuleValues>} */ (Object.freeze(Object.fromEntries(RULE_FIELDS.map((facts) => [facts.key, facts.fallback]))));

/**
 * @param {unknown} key
 * @param {boolean} [suggest]
 */
function unknownKeyMessage(key, suggest = true) {
  let message = `unknown rule ${shortRepr(key)}`;
  const close = suggest && typeof key === "string" ? closeMatches(key, KEYS, 1) : [];
  if (close.length) message += `; did you mean ${strRepr(close[0])}?`;
  return message + " (see 'koikoi rules show' for every key)";
}

/**
 * Every rule option (the fields of tables.js's RuleFields); the defaults are the
 * ``classic`` preset. Frozen, like Python's.
 */
export class RuleSet extends RuleFields {
  /**
   * A rule set from checked values (the defaults for those not given); ``preset`` names
   * its base. A RulesError if the fields do not go together.
   * @param {Partial<RuleValues>} [values]
   * @param {string} [preset]
   */
  constructor(values = {}, preset = "classic") {
    /** @type {Record<string, unknown>} */
    const full = {};
    for (const key of KEYS) full[key] = key in values ? values[key] : DEFAULTS[key];
    super(/** @type {RuleValues} */ (full), preset);
    Object.freeze(this);
    const problems = crossFieldProblems(this);
    if (problems.length) throw new RulesError(problems);
  }

  /**
   * This rule set with some checked values replaced (dataclasses.replace).
   * @param {Partial<RuleValues>} changes
   * @param {string} [preset]
   * @returns {RuleSet}
   */
  replace(changes, preset = this.preset) {
    /** @type {Record<string, unknown>} */
    const values = {};
    for (const key of KEYS) values[key] = key in changes ? changes[key] : this[key];
    return new RuleSet(/** @type {RuleValues} */ (values), preset);
  }

  /**
   * Whether two rule sets play the same game (``preset`` is not compared).
   * @param {RuleSet} other
   */
  equals(other) {
    return KEYS.every((key) => fieldEquals(this[key], other[key]));
  }

  /** A string that is equal for equal rule sets: a cache key. */
  get fingerprint() {
    return KEYS.map((key) => String(this[key])).join("|");
  }

  /**
   * A rule set from file-form data: an optional ``preset`` plus overrides; a RulesError
   * that lists every problem if it cannot stand.
   * @param {unknown} data
   * @returns {RuleSet}
   */
  static fromMapping(data) {
    if (!isDict(data)) throw new RulesError([`rules must be a table of key = value, not ${shortRepr(data)}`]);
    const items = dictItems(data);
    const presetItem = items.find(([key]) => key === "preset");
    const preset = presetItem ? presetItem[1] : "classic";
    const problems = [];
    let base = typeof preset === "string" ? PRESETS.get(preset) : undefined;
    if (base === undefined) {
      problems.push(badValueMessage("preset", preset, PRESET_NAMES));
      base = CLASSIC;
    }
    let rules;
    try {
      rules = base.withOverrides(new Map(items.filter(([key]) => key !== "preset")));
    } catch (error) {
      if (error instanceof RulesError) throw new RulesError([...problems, ...error.problems]);
      throw error;
    }
    if (problems.length) throw new RulesError(problems);
    return rules;
  }

  /**
   * This rule set with some fields changed; ``fromText`` parses command-line strings.
   * A RulesError that lists every problem if it cannot stand.
   * @param {Dict} overrides
   * @param {{fromText?: boolean}} [options]
   * @returns {RuleSet}
   */
  withOverrides(overrides, { fromText = false } = {}) {
    const items = dictItems(overrides);
    if (items.length > KEYS.length) {
      throw new RulesError([
        `rules with ${items.length} keys: a rule set has only ${KEYS.length} (see 'koikoi rules show' for every key)`,
      ]);
    }
    /** @type {Record<string, RuleValue>} */
    const changes = {};
    /** @type {string[]} */
    const problems = [];
    let unknown = 0;
    for (const [key, value] of items) {
      if (key === "preset") {
        problems.push("'preset' chooses the base and cannot be overridden here");
        continue;
      }
      const spec = FIELDS.get(key);
      if (spec === undefined) {
        unknown += 1;
        problems.push(unknownKeyMessage(key, unknown <= SUGGESTIONS));
        continue;
      }
      try {
        changes[key] = fromText ? spec.parse(value) : spec.check(value);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        problems.push(error.message);
      }
    }
    /** @type {RuleSet | null} */
    let rules = null;
    try {
      rules = this.replace(/** @type {Partial<RuleValues>} */ (changes));
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      problems.push(...error.problems);
    }
    if (problems.length || rules === null) throw new RulesError(problems);
    return rules;
  }

  /**
   * The file form: ``preset`` and the fields that differ from it (or all of them).
   * @param {{full?: boolean}} [options]
   * @returns {RulesMapping}
   */
  toMapping({ full = false } = {}) {
    const base = PRESETS.get(this.preset) || CLASSIC;
    /** @type {RulesMapping} */
    const data = { preset: PRESETS.has(this.preset) ? this.preset : "classic" };
    for (const key of KEYS) {
      const value = this[key];
      if (full || !fieldEquals(value, base[key])) data[key] = Array.isArray(value) ? [...value] : value;
    }
    return data;
  }
}

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function fieldEquals(a, b) {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => item === b[i]);
  return a === b;
}

/**
 * More than any pile of captured cards scores under these rules (a BigInt).
 * @param {RuleSet} rules
 * @returns {bigint}
 */
export function largestPileTotal(rules) {
  const r = rules;
  const sets = [r.inoshikacho, r.akatan, r.aotan, r.akatan_aotan, r.kusatan, r.tsukimi, r.hanami, r.tane, r.tan, r.kasu];
  const extras = r.tane_extra + r.tan_extra + r.kasu_extra;
  // +1 a card beyond their own cards: inoshikacho and the four ribbon sets.
  const ones = (Number(r.inoshikacho_extra) + 4 * Number(r.ribbon_set_extra)) * CARD_COUNT;
  const brights = [r.goko, r.shiko, r.ame_shiko, r.sanko];
  const total =
    (r.brights_exclusive ? Math.max(...brights) : brights.reduce((a, b) => a + b, 0)) +
    sets.reduce((a, b) => a + b, 0) +
    2 * r.viewing_after_koikoi +
    r.tsukifuda * MONTH_COUNT +
    extras * CARD_COUNT +
    ones;
  return BigInt(total);
}

/**
 * More than any player's match total under these rules (a BigInt).
 * @param {RuleSet} rules
 * @returns {bigint}
 */
export function largestMatchTotal(rules) {
  const calls = BigInt(Math.min(rules.max_koikoi || rules.hand_size, rules.hand_size));
  const factor = {
    [Multiplier.NONE]: 1n,
    [Multiplier.PER_CALL]: 1n << (2n * calls),
    [Multiplier.ANY_CALLED]: 2n,
    [Multiplier.OPPONENT_CALLED]: 2n,
    [Multiplier.PER_OPPONENT_CALL]: 1n << calls,
    [Multiplier.ADDITIVE]: calls - 2n > 1n ? calls - 2n : 1n,
  }[rules.multiplier];
  const doubled = rules.double_at ? 2n : 1n;
  const bonus = rules.multiplier === Multiplier.ADDITIVE ? 3n : 0n;
  // Hand yaku and an exhausted round's points take no multiplier.
  const flat = BigInt(Math.max(rules.teshi, rules.kuttsuki, rules.exhausted_points));
  const pile = largestPileTotal(rules) * doubled * factor + bonus;
  // Zero-sum matches start from starting_points and can fall as far below zero.
  return BigInt(rules.starting_points) + BigInt(rules.rounds) * (pile > flat ? pile : flat);
}

/** @param {RuleSet} rules */
function scoreProblems(rules) {
  const largest = largestMatchTotal(rules);
  if (largest <= MAX_SCORE) return [];
  return [
    `rules 'multiplier', 'max_koikoi', 'hand_size', 'rounds' and the points: a match` +
      ` total could reach ${largest} (about 2**${largest.toString(2).length - 1}), past the` +
      " 2**53 that scores are kept within; allow fewer koi-koi calls (max_koikoi), deal" +
      " smaller hands, play fewer rounds, lower the points or choose another multiplier",
  ];
}

/**
 * The most cards a field can hold without meeting a field redeal condition: each month
 * at most 2 cards (three of a month redeals), 3 (four of a month does) or all 4; with
 * four pairs redealing, at most three months hold exactly two.
 * @param {RuleSet} rules
 * @returns {number}
 */
export function fullestField(rules) {
  let most;
  if (rules.redeal_three_of_month) most = 2;
  else if (rules.redeal_four_of_month) most = 3;
  else most = 4;
  if (rules.redeal_four_pairs && most === 2) return 3 * 2 + (MONTH_COUNT - 3); // three pairs, one card of every other month
  return most * MONTH_COUNT;
}

/** The least share of shuffled deals a rule set's redeal conditions must let stand. */
export const MIN_DEAL_CHANCE = 0.05;

/**
 * About the share of shuffled deals that meet none of the redeal conditions: the exact
 * share for the field and for each hand, taken as independent (rules.py's deal_chance,
 * to the last bit: each share is an exact ratio rounded once, as Python's int / int).
 * @param {RuleSet} rules
 * @returns {number}
 */
export function dealChance(rules) {
  const fieldMost = rules.redeal_three_of_month ? 2 : rules.redeal_four_of_month ? 3 : 4;
  const handMost = rules.redeal_hand_four_of_month ? 3 : 4;
  const field = standingShare(rules.field_size, fieldMost, rules.redeal_four_pairs);
  const hand = standingShare(rules.hand_size, handMost, rules.redeal_hand_four_pairs);
  return field * hand * hand;
}

/**
 * @param {number} n
 * @param {number} k
 */
function comb(n, k) {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** @param {bigint} n */
function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * a / b for BigInts a >= 0, b > 0, correctly rounded to a double (half to even), as
 * Python's true division of two ints is. (The shares here are far from the subnormal
 * range, so 53 significant bits are always kept.)
 * @param {bigint} a
 * @param {bigint} b
 * @returns {number}
 */
export function trueDivide(a, b) {
  if (a === 0n) return 0;
  // A quotient of 53 or 54 bits: shift so that (a << shift) / b >= 2**53.
  const shift = 54 - (bitLength(a) - bitLength(b));
  let scaledA = a;
  let scaledB = b;
  if (shift >= 0) scaledA = a << BigInt(shift);
  else scaledB = b << BigInt(-shift);
  let q = scaledA / scaledB;
  let r = scaledA % scaledB;
  let exponent = -shift; // value = (q + r / scaledB) * 2**exponent
  // Keep exactly 53 bits in q, folding the dropped bits into the remainder.
  while (bitLength(q) > 53) {
    if (q & 1n) r += scaledB; // the dropped bit joins the remainder
    q >>= 1n;
    scaledB <<= 1n;
    exponent += 1;
  }
  const twice = 2n * r;
  if (twice > scaledB || (twice === scaledB && q & 1n)) q += 1n;
  return Number(q) * 2 ** exponent;
}

/** @type {Map<string, number>} */
const SHARES = new Map();

/**
 * The share of the deck's ``size``-card subsets with at most ``most`` cards of any month
 * and, with ``noFourPairs``, fewer than four months of exactly two.
 * @param {number} size
 * @param {number} most
 * @param {boolean} noFourPairs
 * @returns {number}
 */
function standingShare(size, most, noFourPairs) {
  const key = `${size},${most},${noFourPairs}`;
  let share = SHARES.get(key);
  if (share !== undefined) return share;
  const choose4 = [1n, 4n, 6n, 4n, 1n];
  // ways[cards][pairs]: the subsets of the months so far, by cards and pairs held.
  let ways = Array.from({ length: size + 1 }, () => [0n, 0n, 0n, 0n, 0n]);
  ways[0][0] = 1n;
  for (let month = 0; month < MONTH_COUNT; month++) {
    const grown = Array.from({ length: size + 1 }, () => [0n, 0n, 0n, 0n, 0n]);
    ways.forEach((byPairs, cards) => {
      byPairs.forEach((count, pairs) => {
        if (!count) return;
        for (let taken = 0; taken <= Math.min(most, size - cards); taken++) {
          const paired = Math.min(pairs + (taken === 2 ? 1 : 0), 4);
          grown[cards + taken][paired] += count * choose4[taken];
        }
      });
    });
    ways = grown;
  }
  const standing = noFourPairs ? ways[size].slice(0, 4) : ways[size];
  share = trueDivide(
    standing.reduce((a, b) => a + b, 0n),
    comb(CARD_COUNT, size),
  );
  if (SHARES.size >= 256) SHARES.clear();
  SHARES.set(key, share);
  return share;
}

/**
 * Python's format(x, f".{digits}%") for a finite double x >= 0: x * 100 in doubles,
 * then its exact binary value rounded to ``digits`` decimals, half to even (toFixed
 * would round a tie such as 0.125 up).
 * @param {number} x
 * @param {number} digits
 * @returns {string}
 */
export function percentText(x, digits) {
  const scaled = x * 100;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, scaled);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  if (biased) mantissa |= 1n << 52n;
  const exponent = (biased || 1) - 1075; // scaled = mantissa * 2**exponent
  let units = mantissa * 10n ** BigInt(digits); // scaled * 10**digits, times 2**exponent
  if (exponent >= 0) units <<= BigInt(exponent);
  else {
    const drop = BigInt(-exponent);
    const whole = units >> drop;
    const twice = 2n * (units - (whole << drop));
    const unit = 1n << drop;
    units = twice > unit || (twice === unit && whole & 1n) ? whole + 1n : whole;
  }
  let text = units.toString();
  if (digits) {
    text = text.padStart(digits + 1, "0");
    text = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  }
  return `${text}%`;
}

// The rule names of each field redeal condition, for the message that says which.
/** @type {readonly RuleKey[]} */
const FIELD_REDEALS = ["redeal_four_of_month", "redeal_three_of_month", "redeal_four_pairs"];
// Each hand redeal condition and the hand yaku it keeps from scoring.
/** @type {readonly (readonly ["redeal_hand_four_of_month" | "redeal_hand_four_pairs", "teshi" | "kuttsuki"])[]} */
const HAND_REDEALS = [
  ["redeal_hand_four_of_month", "teshi"],
  ["redeal_hand_four_pairs", "kuttsuki"],
];

/**
 * The sizes and the redeal rules in force, quoted, for a message.
 * @param {RuleSet} rules
 */
function redealNames(rules) {
  const keys = [...FIELD_REDEALS, ...HAND_REDEALS.map(([redeal]) => redeal)];
  return ["'hand_size'", "'field_size'", ...keys.filter((key) => rules[key]).map(strRepr)].join(", ");
}

/**
 * @param {RuleSet} rules
 * @returns {string[]}
 */
function crossFieldProblems(rules) {
  const dealt = 2 * rules.hand_size + rules.field_size;
  if (dealt > CARD_COUNT) {
    return [
      `rules 'hand_size' and 'field_size': 2 x ${rules.hand_size} + ${rules.field_size}` +
        ` = ${dealt} cards dealt, more than the deck's ${CARD_COUNT}`,
    ];
  }
  const problems = [];
  // Only a field can be forced to redeal (rules.py says why); other sizes and redeal
  // rules may let too few deals stand.
  const fullest = fullestField(rules);
  if (rules.field_size > fullest) {
    const names = FIELD_REDEALS.filter((key) => rules[key]).map(strRepr).join(" and ");
    problems.push(
      `rules 'field_size' and ${names}: a field of ${rules.field_size} cards always` +
        ` meets a redeal condition (at most ${fullest} cards meet none), so every deal` +
        " would be redealt",
    );
  } else {
    const chance = dealChance(rules);
    if (chance < MIN_DEAL_CHANCE) {
      problems.push(
        `rules ${redealNames(rules)}: only about ${percentText(chance, 2)} of deals of` +
          ` ${rules.hand_size}-card hands and a ${rules.field_size}-card field meet none` +
          ` of these redeal conditions (at least ${percentText(MIN_DEAL_CHANCE, 0)} must), so most` +
          " deals would be redealt; deal fewer cards or drop a redeal rule",
      );
    }
  }
  // A hand redealt for a hand yaku never scores it: the two settings contradict.
  for (const [redeal, points] of HAND_REDEALS) {
    if (rules[redeal] && rules[points]) {
      problems.push(
        `rules ${strRepr(redeal)} and ${strRepr(points)}: a hand that holds ${points} is redealt,` +
          ` so ${points} never scores; set ${points} = 0 or ${redeal} = false`,
      );
    }
  }
  return problems.concat(scoreProblems(rules));
}

/** The classic preset: every field at its default. */
export const CLASSIC = new RuleSet();

/**
 * The presets by name, in rules.py's order (tables.js's PRESET_TABLE).
 * @type {ReadonlyMap<string, RuleSet>}
 */
export const PRESETS = new Map(
  Object.entries(PRESET_TABLE).map(([name, changes]) => [name, name === CLASSIC.preset ? CLASSIC : CLASSIC.replace(changes, name)]),
);
export const PRESET_NAMES = Object.freeze([...PRESETS.keys()]);
