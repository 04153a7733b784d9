// Rule sets: every option of docs/rules.md §6, the presets, their file form (rules.py).
//
// The same keys as Python, snake_case included, so a rules mapping means the same on
// both sides; the same checks and, where they can be, the same messages, because a
// record's rules are checked when it is replayed and the message is printed.

import { CARD_COUNT, MONTH_COUNT } from "./cards.js";
import { closeMatches, dictItems, isDict, isInt, shortRepr, strRepr } from "./pytext.js";

export const FirstDealer = Object.freeze({ RANDOM: "random", CARD_DRAW: "card-draw", SEAT_0: "seat-0" });
export const NextDealer = Object.freeze({ ALTERNATE: "alternate", WINNER: "winner" });
export const DrawDealer = Object.freeze({ KEEP: "keep", PASS: "pass" });
export const BothHandYaku = Object.freeze({ REDEAL: "redeal", DEALER: "dealer", BOTH: "both", IGNORE: "ignore" });
export const Viewing = Object.freeze({ ALWAYS: "always", OFF: "off", WITH_OTHER_YAKU: "with-other-yaku" });
export const ViewingCanceller = Object.freeze({ RAINMAN: "rainman", LIGHTNING: "lightning", WILLOW: "willow", PAULOWNIA: "paulownia" });
export const TsukifudaMonth = Object.freeze({ ROUND: "round", ANY: "any" });
export const SakeCup = Object.freeze({ ANIMAL: "animal", PLAIN: "plain", BOTH: "both" });
export const BestPerCategory = Object.freeze({ NONE: "none", ANIMALS: "animals", RIBBONS: "ribbons", BOTH: "both" });
export const Decision = Object.freeze({ NEW_YAKU: "new-yaku", HIGHER_TOTAL: "higher-total" });
export const Multiplier = Object.freeze({
  NONE: "none",
  PER_CALL: "per-call",
  ANY_CALLED: "any-called",
  OPPONENT_CALLED: "opponent-called",
  PER_OPPONENT_CALL: "per-opponent-call",
  ADDITIVE: "additive",
});
export const Exhausted = Object.freeze({ DRAW: "draw", DEALER: "dealer" });

/** One or more problems with a rule set; ``problems`` lists each one. */
export class RulesError extends Error {
  constructor(problems) {
    const list = [...problems];
    super(list.join("; "));
    this.name = "RulesError";
    this.problems = list;
  }
}

// The kinds of value a rule field holds.
export const POINTS = "points"; // int >= 0, 0 switches a yaku off
export const COUNT = "count"; // int >= 1
export const NUMBER = "number"; // int >= 0
export const BOOL = "bool";
export const CHOICE = "choice"; // one of an enum's values
export const CHOICES = "choices"; // a list of an enum's values

// Every integer field has bounds (rules.py says why: scores stay exact in a double).
const BOUNDS = { [POINTS]: [0, 1000], [COUNT]: [1, CARD_COUNT] };

/** The most koi-koi calls one player makes in a round. */
export const MAX_CALLS = CARD_COUNT / 2;
/** The largest match total a rule set may make possible (2**53 - 1). */
export const MAX_SCORE = 2n ** 53n - 1n;

function rule(key, fallback, kind, help, choices = null, bounds = null) {
  if (kind === POINTS || kind === COUNT || kind === NUMBER) bounds = bounds || BOUNDS[kind];
  return { key, fallback, kind, help, choices: choices ? Object.values(choices) : null, bounds };
}

// Every field, in rules.py's order (the order of keys in files and messages).
const SPECS = [
  rule("hand_size", 8, COUNT, "cards dealt to each hand"),
  rule("field_size", 8, COUNT, "cards dealt face up to the field"),
  rule("deal_in_pairs", false, BOOL, "deal two cards at a time"),
  rule("first_dealer", FirstDealer.RANDOM, CHOICE, "who deals the first round", FirstDealer),
  rule("next_dealer", NextDealer.ALTERNATE, CHOICE, "who deals after a round someone won", NextDealer),
  rule("draw_dealer", DrawDealer.PASS, CHOICE, "who deals after a round nobody won", DrawDealer),
  rule("redeal_four_of_month", false, BOOL, "redeal when the field holds a whole month"),
  rule("redeal_four_pairs", false, BOOL, "redeal when the field is four pairs"),
  rule("redeal_three_of_month", false, BOOL, "redeal when the field holds three or four cards of a month"),
  rule("redeal_hand_four_of_month", false, BOOL, "redeal when a hand holds a whole month (teshi then never scores)"),
  rule("redeal_hand_four_pairs", false, BOOL, "redeal when a hand is four pairs (kuttsuki then never scores)"),
  rule("forced_capture", false, BOOL, "a card that matches nothing may be played only when no card matches"),
  rule("teshi", 0, POINTS, "four cards of one month in the dealt hand"),
  rule("kuttsuki", 0, POINTS, "four pairs of months in the dealt hand"),
  rule("both_hand_yaku", BothHandYaku.REDEAL, CHOICE, "what happens when both hands hold a hand yaku", BothHandYaku),
  rule("goko", 10, POINTS, "all five brights"),
  rule("shiko", 8, POINTS, "four brights without the rain man"),
  rule("ame_shiko", 7, POINTS, "four brights with the rain man"),
  rule("sanko", 5, POINTS, "three brights without the rain man"),
  rule("brights_exclusive", true, BOOL, "only the best bright yaku scores (false: every one that applies)"),
  rule("inoshikacho", 5, POINTS, "boar, deer and butterflies"),
  rule("inoshikacho_extra", false, BOOL, "inoshikacho: +1 per animal beyond its three"),
  rule("tane", 1, POINTS, "animals"),
  rule("tane_min", 5, COUNT, "animals needed for tane"),
  rule("tane_extra", 1, POINTS, "tane: points per animal beyond the minimum"),
  rule("tan", 1, POINTS, "ribbons"),
  rule("tan_min", 5, COUNT, "ribbons needed for tan"),
  rule("tan_extra", 1, POINTS, "tan: points per ribbon beyond the minimum"),
  rule("kasu", 1, POINTS, "plains"),
  rule("kasu_min", 10, COUNT, "plains needed for kasu"),
  rule("kasu_extra", 1, POINTS, "kasu: points per plain beyond the minimum"),
  rule("akatan", 5, POINTS, "the three red poem ribbons"),
  rule("aotan", 5, POINTS, "the three blue ribbons"),
  rule("ribbon_set_extra", false, BOOL, "ribbon sets: +1 per ribbon beyond the set"),
  rule("akatan_aotan", 0, POINTS, "all six poem and blue ribbons"),
  rule("akatan_aotan_replaces", true, BOOL, "akatan-aotan replaces akatan and aotan instead of adding to them"),
  rule("kusatan", 0, POINTS, "the three plain red ribbons of wisteria, iris, clover"),
  rule("tsukimi", 5, POINTS, "moon and sake cup"),
  rule("hanami", 5, POINTS, "cherry curtain and sake cup"),
  rule(
    "viewing_after_koikoi",
    0,
    NUMBER,
    "tsukimi and hanami points once their holder has called koi-koi (0: unchanged)",
    null,
    BOUNDS[POINTS],
  ),
  rule("viewing", Viewing.ALWAYS, CHOICE, "when the viewing yaku count", Viewing),
  rule("viewing_in_season", false, BOOL, "hanami only in a round of month 3, tsukimi only in one of month 8"),
  rule("viewing_cancelled_by", Object.freeze([]), CHOICES, "captured cards that cancel the viewing yaku", ViewingCanceller),
  rule("tsukifuda", 0, POINTS, "all four cards of a month"),
  rule("tsukifuda_month", TsukifudaMonth.ROUND, CHOICE, "which months tsukifuda counts", TsukifudaMonth),
  rule("sake_cup", SakeCup.ANIMAL, CHOICE, "what the sake cup counts as", SakeCup),
  rule("lightning_is_kasu", true, BOOL, "the lightning card counts as a plain"),
  rule("best_per_category", BestPerCategory.NONE, CHOICE, "drop tane/tan when a set of that kind scores", BestPerCategory),
  rule("decision", Decision.HIGHER_TOTAL, CHOICE, "what reopens stop or koi-koi after a call", Decision),
  rule("max_koikoi", 0, NUMBER, "koi-koi calls allowed per player per round (0: any)", null, [0, MAX_CALLS]),
  rule("koikoi_after_opponent", true, BOOL, "a player may call koi-koi after the opponent has called"),
  rule("multiplier", Multiplier.PER_CALL, CHOICE, "how koi-koi calls multiply the score", Multiplier),
  rule("double_at", 0, POINTS, "double a yaku total at least this high (0: never)"),
  rule("exhausted", Exhausted.DRAW, CHOICE, "who wins a round played out without a stop", Exhausted),
  rule("exhausted_points", 0, POINTS, "the dealer's points for an exhausted round"),
  rule("rounds", 12, COUNT, "rounds in a match", null, [1, 120]),
  rule(
    "starting_points",
    0,
    NUMBER,
    "both start with these points, and a round's points move from loser to winner" +
      " (0: totals start at 0 and only grow)",
    null,
    [0, 100000],
  ),
  rule("target_score", 50, NUMBER, "a match ends when a player reaches it (0: none)", null, [0, 100000]),
];

const MAX_DIGITS = 20; // digits a command-line number may have
const SUGGESTIONS = 3; // unknown keys that get a did-you-mean

function badValueMessage(key, value, allowed) {
  const words = typeof allowed === "string" ? allowed : allowed.join(", ");
  return `rule ${strRepr(key)}: ${shortRepr(value)} is not allowed; allowed: ${words}`;
}

/** One rule key: its kind of value, its allowed values and a short description. */
export class FieldSpec {
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
    const names = this.choices.join(", ");
    if (this.kind === CHOICES) return `a list of: ${names} (empty for none)`;
    return names;
  }

  bad(value) {
    return new RangeError(badValueMessage(this.key, value, this.allowed));
  }

  /** Validate a JSON value and return it in the field's own form. */
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
    if (this.kind === CHOICE) {
      if (typeof value !== "string" || !this.choices.includes(value)) throw this.bad(value);
      return value;
    }
    if (!Array.isArray(value)) throw this.bad(value);
    for (const item of value) if (typeof item !== "string" || !this.choices.includes(item)) throw this.bad(value);
    // A canonical order, so equal sets compare and print equal.
    return Object.freeze(this.choices.filter((member) => value.includes(member)));
  }

  /** Parse a command-line value (``--set key=value``) and validate it. */
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

/** Every rule key's spec, in rules.py's order. */
export const FIELDS = new Map(SPECS.map((spec) => [spec.key, new FieldSpec(spec)]));
/** Every rule key. */
export const KEYS = Object.freeze([...FIELDS.keys()]);
const DEFAULTS = Object.fromEntries(SPECS.map((spec) => [spec.key, spec.fallback]));

function unknownKeyMessage(key, suggest = true) {
  let message = `unknown rule ${shortRepr(key)}`;
  const close = suggest ? closeMatches(key, KEYS, 1) : [];
  if (close.length) message += `; did you mean ${strRepr(close[0])}?`;
  return message + " (see 'koikoi rules show' for every key)";
}

/** Every rule option; the defaults are the ``classic`` preset. Frozen, like Python's. */
export class RuleSet {
  /** A rule set from every field (checked values); ``preset`` names its base. */
  constructor(values = {}, preset = "classic") {
    this.preset = preset;
    for (const key of KEYS) this[key] = key in values ? values[key] : DEFAULTS[key];
    Object.freeze(this);
    const problems = crossFieldProblems(this);
    if (problems.length) throw new RulesError(problems);
  }

  /** This rule set with some checked values replaced (dataclasses.replace). */
  replace(changes, preset = this.preset) {
    const values = {};
    for (const key of KEYS) values[key] = key in changes ? changes[key] : this[key];
    return new RuleSet(values, preset);
  }

  /** Whether two rule sets play the same game (``preset`` is not compared). */
  equals(other) {
    return KEYS.every((key) => fieldEquals(this[key], other[key]));
  }

  /** A string that is equal for equal rule sets: a cache key. */
  get fingerprint() {
    return KEYS.map((key) => String(this[key])).join("|");
  }

  /** A rule set from file-form data: an optional ``preset`` plus overrides. */
  static fromMapping(data) {
    if (!isDict(data)) throw new RulesError([`rules must be a table of key = value, not ${shortRepr(data)}`]);
    const items = dictItems(data);
    const presetItem = items.find(([key]) => key === "preset");
    const preset = presetItem ? presetItem[1] : "classic";
    const problems = [];
    let base = typeof preset === "string" && PRESETS.has(preset) ? PRESETS.get(preset) : null;
    if (base === null) {
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

  /** This rule set with some fields changed; ``fromText`` parses command-line strings. */
  withOverrides(overrides, { fromText = false } = {}) {
    const items = dictItems(overrides);
    if (items.length > KEYS.length) {
      throw new RulesError([
        `rules with ${items.length} keys: a rule set has only ${KEYS.length} (see 'koikoi rules show' for every key)`,
      ]);
    }
    const changes = {};
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
    let rules = null;
    try {
      rules = this.replace(changes);
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      problems.push(...error.problems);
    }
    if (problems.length) throw new RulesError(problems);
    return rules;
  }

  /** The file form: ``preset`` and the fields that differ from it (or all of them). */
  toMapping({ full = false } = {}) {
    const base = PRESETS.get(this.preset) || CLASSIC;
    const data = { preset: PRESETS.has(this.preset) ? this.preset : "classic" };
    for (const key of KEYS) {
      const value = this[key];
      if (full || !fieldEquals(value, base[key])) data[key] = Array.isArray(value) ? [...value] : value;
    }
    return data;
  }
}

function fieldEquals(a, b) {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => item === b[i]);
  return a === b;
}

/** More than any pile of captured cards scores under these rules (a BigInt). */
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

/** More than any player's match total under these rules (a BigInt). */
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
 */
export function dealChance(rules) {
  const fieldMost = rules.redeal_three_of_month ? 2 : rules.redeal_four_of_month ? 3 : 4;
  const handMost = rules.redeal_hand_four_of_month ? 3 : 4;
  const field = standingShare(rules.field_size, fieldMost, rules.redeal_four_pairs);
  const hand = standingShare(rules.hand_size, handMost, rules.redeal_hand_four_pairs);
  return field * hand * hand;
}

function comb(n, k) {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * a / b for BigInts a >= 0, b > 0, correctly rounded to a double (half to even), as
 * Python's true division of two ints is. (The shares here are far from the subnormal
 * range, so 53 significant bits are always kept.)
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

const SHARES = new Map();

/**
 * The share of the deck's ``size``-card subsets with at most ``most`` cards of any month
 * and, with ``noFourPairs``, fewer than four months of exactly two.
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
const FIELD_REDEALS = ["redeal_four_of_month", "redeal_three_of_month", "redeal_four_pairs"];
// Each hand redeal condition and the hand yaku it keeps from scoring.
const HAND_REDEALS = [
  ["redeal_hand_four_of_month", "teshi"],
  ["redeal_hand_four_pairs", "kuttsuki"],
];

/** The sizes and the redeal rules in force, quoted, for a message. */
function redealNames(rules) {
  const keys = [...FIELD_REDEALS, ...HAND_REDEALS.map(([redeal]) => redeal)];
  return ["'hand_size'", "'field_size'", ...keys.filter((key) => rules[key]).map(strRepr)].join(", ");
}

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

export const CLASSIC = new RuleSet();

function preset(name, changes) {
  return CLASSIC.replace(changes, name);
}

/** The presets by name. */
export const PRESETS = new Map([
  ["classic", CLASSIC],
  [
    "ten-card",
    preset("ten-card", {
      hand_size: 10,
      tane: 5,
      tan: 5,
      akatan: 3,
      aotan: 3,
      decision: Decision.NEW_YAKU,
      target_score: 0,
    }),
  ],
  [
    "single-deal",
    preset("single-deal", {
      redeal_four_of_month: true,
      redeal_four_pairs: true,
      teshi: 6,
      kuttsuki: 6,
      goko: 15,
      shiko: 10,
      ame_shiko: 8,
      sanko: 6,
      akatan: 6,
      aotan: 6,
      tsukimi: 0,
      hanami: 0,
      sake_cup: SakeCup.BOTH,
      multiplier: Multiplier.NONE,
      rounds: 1,
      target_score: 0,
    }),
  ],
  [
    "traditional",
    preset("traditional", {
      deal_in_pairs: true,
      first_dealer: FirstDealer.CARD_DRAW,
      redeal_four_of_month: true,
      forced_capture: true,
      teshi: 6,
      kuttsuki: 6,
      inoshikacho_extra: true,
      ribbon_set_extra: true,
      akatan_aotan: 10,
      decision: Decision.NEW_YAKU,
      multiplier: Multiplier.OPPONENT_CALLED,
      double_at: 8,
      target_score: 0,
    }),
  ],
  // The rule sets other AIs play (the README's "Rule sets" says where each rule comes from).
  [
    "nintendo",
    preset("nintendo", {
      next_dealer: NextDealer.WINNER,
      redeal_four_of_month: true,
      redeal_three_of_month: true,
      redeal_four_pairs: true,
      redeal_hand_four_of_month: true,
      redeal_hand_four_pairs: true,
      inoshikacho_extra: true,
      ribbon_set_extra: true,
      akatan_aotan: 10,
      sake_cup: SakeCup.BOTH,
      best_per_category: BestPerCategory.BOTH,
      max_koikoi: 1,
      koikoi_after_opponent: false,
      multiplier: Multiplier.OPPONENT_CALLED,
      double_at: 7,
      target_score: 0,
    }),
  ],
  [
    "koikoi-japan",
    preset("koikoi-japan", {
      next_dealer: NextDealer.WINNER,
      redeal_four_of_month: true,
      redeal_hand_four_of_month: true,
      akatan_aotan: 10,
      akatan_aotan_replaces: false,
      tsukimi: 1,
      hanami: 1,
      viewing_after_koikoi: 3,
      sake_cup: SakeCup.BOTH,
      multiplier: Multiplier.ADDITIVE,
      exhausted: Exhausted.DEALER,
      exhausted_points: 1,
      rounds: 8,
      starting_points: 30,
      target_score: 0,
    }),
  ],
]);
export const PRESET_NAMES = Object.freeze([...PRESETS.keys()]);
