// Rule sets of the browser engine (rules.js): the presets of docs/rules.md §4 and the
// keys, values and file forms of §6, as tests/test_rules.py checks the Python engine's,
// with the Python engine's messages word for word where rules.js reproduces them.

import { describe, test } from "node:test";

import { CLASSIC, PRESETS, RuleSet, RulesError, SLUGS, assert, caught, pyjson, pytext, random, rules, score, yaku } from "./helpers.mjs";

const { FIELDS, KEYS, PRESET_NAMES, MAX_SCORE, MIN_DEAL_CHANCE, largestMatchTotal, largestPileTotal } = rules;
const { PyFloat } = pytext;

// -- docs/rules.md §4, "The presets as fields" -------------------------------------------

const CLASSIC_FIELDS = {
  hand_size: 8,
  field_size: 8,
  deal_in_pairs: false,
  first_dealer: "random",
  next_dealer: "alternate",
  draw_dealer: "pass",
  redeal_four_of_month: false,
  redeal_four_pairs: false,
  redeal_three_of_month: false,
  redeal_hand_four_of_month: false,
  redeal_hand_four_pairs: false,
  forced_capture: false,
  teshi: 0,
  kuttsuki: 0,
  both_hand_yaku: "redeal",
  goko: 10,
  shiko: 8,
  ame_shiko: 7,
  sanko: 5,
  brights_exclusive: true,
  inoshikacho: 5,
  inoshikacho_extra: false,
  tane: 1,
  tane_min: 5,
  tane_extra: 1,
  tan: 1,
  tan_min: 5,
  tan_extra: 1,
  kasu: 1,
  kasu_min: 10,
  kasu_extra: 1,
  akatan: 5,
  aotan: 5,
  ribbon_set_extra: false,
  akatan_aotan: 0,
  akatan_aotan_replaces: true,
  kusatan: 0,
  tsukimi: 5,
  hanami: 5,
  viewing_after_koikoi: 0,
  viewing: "always",
  viewing_in_season: false,
  viewing_cancelled_by: [],
  tsukifuda: 0,
  tsukifuda_month: "round",
  sake_cup: "animal",
  lightning_is_kasu: true,
  best_per_category: "none",
  decision: "higher-total",
  max_koikoi: 0,
  koikoi_after_opponent: true,
  multiplier: "per-call",
  double_at: 0,
  exhausted: "draw",
  exhausted_points: 0,
  rounds: 12,
  starting_points: 0,
  target_score: 50,
};

const PRESET_DIFFS = {
  classic: {},
  "ten-card": { hand_size: 10, tane: 5, tan: 5, akatan: 3, aotan: 3, decision: "new-yaku", target_score: 0 },
  "single-deal": {
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
    sake_cup: "both",
    multiplier: "none",
    rounds: 1,
    target_score: 0,
  },
  traditional: {
    deal_in_pairs: true,
    first_dealer: "card-draw",
    redeal_four_of_month: true,
    forced_capture: true,
    teshi: 6,
    kuttsuki: 6,
    inoshikacho_extra: true,
    ribbon_set_extra: true,
    akatan_aotan: 10,
    decision: "new-yaku",
    multiplier: "opponent-called",
    double_at: 8,
    target_score: 0,
  },
  nintendo: {
    next_dealer: "winner",
    redeal_four_of_month: true,
    redeal_three_of_month: true,
    redeal_four_pairs: true,
    redeal_hand_four_of_month: true,
    redeal_hand_four_pairs: true,
    inoshikacho_extra: true,
    ribbon_set_extra: true,
    akatan_aotan: 10,
    sake_cup: "both",
    best_per_category: "both",
    max_koikoi: 1,
    koikoi_after_opponent: false,
    multiplier: "opponent-called",
    double_at: 7,
    target_score: 0,
  },
  "koikoi-japan": {
    next_dealer: "winner",
    redeal_four_of_month: true,
    redeal_hand_four_of_month: true,
    akatan_aotan: 10,
    akatan_aotan_replaces: false,
    tsukimi: 1,
    hanami: 1,
    viewing_after_koikoi: 3,
    sake_cup: "both",
    multiplier: "additive",
    exhausted: "dealer",
    exhausted_points: 1,
    rounds: 8,
    starting_points: 30,
    target_score: 0,
  },
};
const NAMES = Object.keys(PRESET_DIFFS);

// -- docs/rules.md §6: each key's kind of value ------------------------------------------

const POINTS_KEYS = [
  "teshi", "kuttsuki", "goko", "shiko", "ame_shiko", "sanko", "inoshikacho", "tane", "tane_extra",
  "tan", "tan_extra", "kasu", "kasu_extra", "akatan", "aotan", "akatan_aotan", "kusatan", "tsukimi",
  "hanami", "tsukifuda", "double_at", "exhausted_points",
];
const COUNT_KEYS = ["tane_min", "tan_min", "kasu_min"];
const INT_KEYS = ["hand_size", "field_size", "max_koikoi", "rounds", "target_score", "viewing_after_koikoi", "starting_points"];
const ZERO_ALLOWED_INT_KEYS = ["max_koikoi", "target_score", "viewing_after_koikoi", "starting_points"];
const BOOL_KEYS = [
  "deal_in_pairs", "redeal_four_of_month", "redeal_four_pairs", "redeal_three_of_month",
  "redeal_hand_four_of_month", "redeal_hand_four_pairs", "forced_capture", "brights_exclusive",
  "viewing_in_season", "inoshikacho_extra", "ribbon_set_extra", "akatan_aotan_replaces",
  "lightning_is_kasu", "koikoi_after_opponent",
];
const CHOICE_KEYS = {
  first_dealer: ["random", "card-draw", "seat-0"],
  next_dealer: ["alternate", "winner"],
  draw_dealer: ["keep", "pass"],
  both_hand_yaku: ["redeal", "dealer", "both", "ignore"],
  viewing: ["always", "off", "with-other-yaku"],
  tsukifuda_month: ["round", "any"],
  sake_cup: ["animal", "plain", "both"],
  best_per_category: ["none", "animals", "ribbons", "both"],
  decision: ["new-yaku", "higher-total"],
  multiplier: ["none", "per-call", "any-called", "opponent-called", "per-opponent-call", "additive"],
  exhausted: ["draw", "dealer"],
};
const CANCELLERS = ["rainman", "lightning", "willow", "paulownia"];

const BOUNDS = {
  ...Object.fromEntries(POINTS_KEYS.map((key) => [key, [0, 1000]])),
  ...Object.fromEntries([...COUNT_KEYS, "hand_size", "field_size"].map((key) => [key, [1, 48]])),
  rounds: [1, 120],
  max_koikoi: [0, 24],
  target_score: [0, 100000],
  viewing_after_koikoi: [0, 1000],
  starting_points: [0, 100000],
};

/** What rule messages say a key allows (rules.py's FieldSpec.allowed). */
function allowedOf(key) {
  if (key in BOUNDS) {
    const [low, high] = BOUNDS[key];
    return `an integer from ${low} to ${high}${POINTS_KEYS.includes(key) ? " (0 switches it off)" : ""}`;
  }
  if (BOOL_KEYS.includes(key)) return "true or false";
  if (key === "viewing_cancelled_by") return `a list of: ${CANCELLERS.join(", ")} (empty for none)`;
  return CHOICE_KEYS[key].join(", ");
}

/** Python's repr() of the simple values these tests use. */
function repr(value) {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return `'${value}'`;
  if (value instanceof PyFloat) return Number.isInteger(value.value) ? `${value.value}.0` : String(value.value);
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  return String(value);
}

function expected(preset) {
  return { ...CLASSIC_FIELDS, ...PRESET_DIFFS[preset] };
}

/** A rule set's field as plain data (choices lists as arrays). */
function plain(value) {
  return Array.isArray(value) ? [...value] : value;
}

function problemsOf(fn) {
  return caught(fn, RulesError).problems;
}

/** resolve_rules(preset, ["key=value", ...]) of rules.py: text overrides on a preset. */
function resolve(preset, assignments) {
  const base = PRESETS.get(preset ?? "classic");
  const pairs = new Map(
    assignments.map((text) => {
      const at = text.indexOf("=");
      return [text.slice(0, at).trim(), text.slice(at + 1)];
    }),
  );
  return base.withOverrides(pairs, { fromText: true });
}

function textOf(value) {
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

describe("the keys and presets of docs/rules.md §4 and §6", () => {
  test("the key kinds cover every key of section 6, once each", () => {
    const listed = [...POINTS_KEYS, ...COUNT_KEYS, ...INT_KEYS, ...BOOL_KEYS, ...Object.keys(CHOICE_KEYS), "viewing_cancelled_by"];
    assert.equal(new Set(listed).size, listed.length);
    assert.deepEqual([...listed].sort(), Object.keys(CLASSIC_FIELDS).sort());
  });

  test("the rule keys are exactly the keys of section 6, in rules.py's order", () => {
    assert.deepEqual(KEYS, Object.keys(CLASSIC_FIELDS));
    assert.deepEqual([...FIELDS.keys()], KEYS);
    assert.equal(KEYS.length, 58);
    assert.deepEqual(PRESET_NAMES, NAMES);
    assert.deepEqual([...PRESETS.keys()], NAMES);
  });

  for (const preset of NAMES) {
    test(`every field of ${preset} is as the presets-as-fields block says`, () => {
      const ruleSet = PRESETS.get(preset);
      assert.equal(ruleSet.preset, preset);
      for (const [key, value] of Object.entries(expected(preset))) assert.deepEqual(plain(ruleSet[key]), value, key);
      assert.deepEqual(ruleSet.toMapping({ full: true }), { preset, ...expected(preset) });
      assert.deepEqual(ruleSet.toMapping(), { preset });
    });
  }

  test("every key has its documented default", () => {
    const fresh = new RuleSet();
    const empty = RuleSet.fromMapping({});
    for (const [key, value] of Object.entries(CLASSIC_FIELDS)) {
      assert.deepEqual(plain(fresh[key]), value, key);
      assert.deepEqual(plain(CLASSIC[key]), value, key);
      assert.deepEqual(plain(empty[key]), value, key);
    }
    assert.ok(empty.equals(CLASSIC));
  });

  for (const [preset, hand, field, stock] of [
    ["classic", 8, 8, 24],
    ["ten-card", 10, 8, 20],
    ["single-deal", 8, 8, 24],
    ["traditional", 8, 8, 24],
  ]) {
    test(`${preset} leaves a stock of ${stock}`, () => {
      const ruleSet = PRESETS.get(preset);
      assert.deepEqual([ruleSet.hand_size, ruleSet.field_size], [hand, field]);
      assert.equal(48 - 2 * ruleSet.hand_size - ruleSet.field_size, stock);
    });
  }

  test("the rule sets are frozen", () => {
    assert.ok(Object.isFrozen(CLASSIC));
    assert.throws(() => {
      CLASSIC.goko = 3; // modules are strict: writing a frozen field throws
    }, TypeError);
    assert.equal(CLASSIC.goko, 10);
  });
});

// -- values: accepted and refused ----------------------------------------------------------

const VALID_VALUES = [
  ...POINTS_KEYS.flatMap((key) => [0, 3, 25].map((value) => [key, value])),
  ...COUNT_KEYS.flatMap((key) => [1, 7].map((value) => [key, value])),
  ...ZERO_ALLOWED_INT_KEYS.flatMap((key) => [0, 4].map((value) => [key, value])),
  ["hand_size", 4],
  ["hand_size", 10],
  ["field_size", 6],
  ["field_size", 12],
  ["rounds", 1],
  ["rounds", 6],
  ...BOOL_KEYS.flatMap((key) => [true, false].map((value) => [key, value])),
  ...Object.entries(CHOICE_KEYS).flatMap(([key, values]) => values.map((value) => [key, value])),
  ["viewing_cancelled_by", []],
  ["viewing_cancelled_by", ["rainman"]],
  ["viewing_cancelled_by", ["willow", "paulownia"]],
  ["viewing_cancelled_by", CANCELLERS],
];

describe("values accepted", () => {
  test(`${VALID_VALUES.length} valid values load from a mapping, and the rest stays classic`, () => {
    for (const [key, value] of VALID_VALUES) {
      const ruleSet = RuleSet.fromMapping({ [key]: value });
      const got = plain(ruleSet[key]);
      if (Array.isArray(value)) assert.deepEqual([...got].sort(), [...value].sort(), key);
      else assert.equal(got, value, key);
      for (const [other, fallback] of Object.entries(CLASSIC_FIELDS)) {
        if (other !== key) assert.deepEqual(plain(ruleSet[other]), fallback, `${key}: ${other}`);
      }
    }
  });

  test("the same values load from key=value text", () => {
    for (const [key, value] of VALID_VALUES) {
      const fromText = resolve(null, [`${key}=${textOf(value)}`]);
      assert.ok(fromText.equals(RuleSet.fromMapping({ [key]: value })), `${key}=${textOf(value)}`);
    }
  });

  test("a list comes out in canonical order, whatever order it came in", () => {
    const ruleSet = RuleSet.fromMapping({ viewing_cancelled_by: ["paulownia", "rainman", "willow"] });
    assert.deepEqual(plain(ruleSet.viewing_cancelled_by), ["rainman", "willow", "paulownia"]);
  });

  test("every points field takes zero", () => {
    const ruleSet = RuleSet.fromMapping(Object.fromEntries(POINTS_KEYS.map((key) => [key, 0])));
    for (const key of POINTS_KEYS) assert.equal(ruleSet[key], 0, key);
  });
});

const INVALID_VALUES = [
  ...POINTS_KEYS.flatMap((key) => [-1, "3", true, new PyFloat(2.5), null].map((value) => [key, value])),
  ...COUNT_KEYS.flatMap((key) => [0, -2, "5", false].map((value) => [key, value])),
  ...INT_KEYS.flatMap((key) => [-1, "8", true, new PyFloat(8)].map((value) => [key, value])),
  ...BOOL_KEYS.flatMap((key) => ["true", 1, 0, "yes"].map((value) => [key, value])),
  ...Object.entries(CHOICE_KEYS).flatMap(([key, values]) => ["nope", 1, [values[0]]].map((value) => [key, value])),
  ["viewing_cancelled_by", "rainman"],
  ["viewing_cancelled_by", ["thunder"]],
  ["viewing_cancelled_by", ["rainman", 3]],
  ["viewing_cancelled_by", 0],
];

describe("values refused", () => {
  test(`${INVALID_VALUES.length} bad values: one problem each, rules.py's message word for word`, () => {
    for (const [key, value] of INVALID_VALUES) {
      const error = caught(() => RuleSet.fromMapping({ [key]: value }), RulesError);
      const message = `rule '${key}': ${repr(value)} is not allowed; allowed: ${allowedOf(key)}`;
      assert.deepEqual(error.problems, [message]);
      assert.equal(error.message, message);
    }
  });

  test("a bad choice lists the allowed values", () => {
    for (const [key, values] of Object.entries(CHOICE_KEYS)) {
      const [problem] = problemsOf(() => RuleSet.fromMapping({ [key]: "sometimes" }));
      assert.match(problem, new RegExp(`^rule '${key}': 'sometimes' is not allowed; allowed: `));
      for (const value of values) assert.ok(problem.includes(value), `${key}: ${value}`);
    }
  });

  test("a bad list item lists the allowed cancellers", () => {
    const problems = problemsOf(() => RuleSet.fromMapping({ viewing_cancelled_by: ["rainman", "thunder"] }));
    assert.deepEqual(problems, [
      "rule 'viewing_cancelled_by': ['rainman', 'thunder'] is not allowed; allowed: a list of: rainman, lightning, willow, paulownia (empty for none)",
    ]);
  });

  test("a bad bool says true or false", () => {
    for (const key of BOOL_KEYS) {
      assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ [key]: "yes" })), [
        `rule '${key}': 'yes' is not allowed; allowed: true or false`,
      ]);
    }
  });

  for (const [assignment, key, bad] of [
    ["goko=lots", "goko", "'lots'"],
    ["goko=-3", "goko", "'-3'"],
    ["goko=", "goko", "''"],
    ["tane_min=0", "tane_min", "0"],
    ["deal_in_pairs=yes", "deal_in_pairs", "'yes'"],
    ["viewing=sometimes", "viewing", "'sometimes'"],
    ["viewing_cancelled_by=rainman,thunder", "viewing_cancelled_by", "'rainman,thunder'"],
    ["multiplier=double", "multiplier", "'double'"],
  ]) {
    test(`the text ${assignment} is refused, naming the key and value`, () => {
      const problems = problemsOf(() => resolve("classic", [assignment]));
      assert.deepEqual(problems, [`rule '${key}': ${bad} is not allowed; allowed: ${allowedOf(key)}`]);
    });
  }

  test("text values: booleans in any case, lists split at commas, numbers with leading zeros", () => {
    const ruleSet = resolve("classic", ["deal_in_pairs= TRUE ", "goko=0012", "viewing_cancelled_by= willow , paulownia "]);
    assert.equal(ruleSet.deal_in_pairs, true);
    assert.equal(ruleSet.goko, 12);
    assert.deepEqual(plain(ruleSet.viewing_cancelled_by), ["willow", "paulownia"]);
  });

  for (const text of ["٣", "\uff15", "1_000", "+5", " 5", "5 ", "0x10", "1e3", "5.0", "-0", "\uff19".repeat(3)]) {
    test(`a command-line number is plain ASCII digits: ${JSON.stringify(text)} is refused`, () => {
      const [problem] = problemsOf(() => resolve("classic", [`goko=${text}`]));
      assert.equal(problem, `rule 'goko': '${text}' is not allowed; allowed: ${allowedOf("goko")}`);
    });
  }

  for (const digits of [4000, 20000]) {
    test(`a command-line number of ${digits} digits is refused in a short message`, () => {
      const problems = problemsOf(() => resolve("classic", [`goko=${"9".repeat(digits)}`]));
      assert.equal(problems.length, 1);
      assert.ok(problems[0].startsWith("rule 'goko': '9999"), problems[0]);
      assert.ok(problems[0].length < 200);
    });
  }

  for (const [sign, digits] of [
    [1n, 5000],
    [-1n, 5000],
    [1n, 100],
  ]) {
    test(`a huge integer (${sign < 0n ? "-" : ""}10**${digits - 1}) is refused in a short message`, () => {
      const problems = problemsOf(() => RuleSet.fromMapping({ goko: sign * 10n ** BigInt(digits - 1) }));
      assert.equal(problems.length, 1);
      assert.ok(problems[0].startsWith("rule 'goko': "));
      assert.ok(problems[0].includes("from 0 to 1000"));
      assert.ok(problems[0].length < 200);
    });
  }

  for (const [text, key] of [
    ['{"deal_in_pairs": "true"}', "deal_in_pairs"],
    ['{"goko": "12"}', "goko"],
    ['{"goko": 12.0}', "goko"],
    ['{"goko": true}', "goko"],
    ['{"viewing_cancelled_by": "rainman"}', "viewing_cancelled_by"],
    ['{"viewing": true}', "viewing"],
  ]) {
    test(`JSON values keep their own types: ${text}`, () => {
      const problems = problemsOf(() => RuleSet.fromMapping(pyjson.loads(text)));
      assert.equal(problems.length, 1);
      assert.ok(problems[0].startsWith(`rule '${key}': `), problems[0]);
    });
  }
});

// -- bounds on every integer field -----------------------------------------------------------

describe("bounds", () => {
  test("every integer field has bounds, and only they", () => {
    const bounded = KEYS.filter((key) => FIELDS.get(key).bounds !== null);
    assert.deepEqual(bounded.sort(), Object.keys(BOUNDS).sort());
  });

  for (const [key, [low, high]] of Object.entries(BOUNDS)) {
    test(`${key} takes ${low} to ${high} and nothing beyond`, () => {
      const spec = FIELDS.get(key);
      assert.deepEqual(spec.bounds, [low, high]);
      assert.equal(spec.allowed, allowedOf(key));
      assert.equal(spec.check(low), low);
      assert.equal(spec.check(high), high);
      for (const outside of [low - 1, high + 1, 2 ** 31, 2n ** 63n]) {
        const error = caught(() => spec.check(outside), RangeError);
        assert.equal(error.message, `rule '${key}': ${outside} is not allowed; allowed: ${allowedOf(key)}`);
      }
      assert.ok(caught(() => RuleSet.fromMapping({ [key]: high + 1 }), RulesError).message.includes(`'${key}': ${high + 1}`));
      assert.ok(
        caught(() => resolve("classic", [`${key}=${high + 1}`]), RulesError).message.includes(`'${key}': ${high + 1} is not allowed`),
      );
    });
  }

  test("a points field says zero switches it off", () => {
    assert.equal(FIELDS.get("goko").allowed, "an integer from 0 to 1000 (0 switches it off)");
    assert.equal(FIELDS.get("deal_in_pairs").allowed, "true or false");
    assert.equal(FIELDS.get("viewing_cancelled_by").allowed, "a list of: rainman, lightning, willow, paulownia (empty for none)");
  });

  test("the largest points everywhere still make a rule set", () => {
    const ruleSet = RuleSet.fromMapping({
      ...Object.fromEntries(POINTS_KEYS.map((key) => [key, 1000])),
      tane_min: 1,
      tan_min: 1,
      kasu_min: 1,
      rounds: 120,
      target_score: 100000,
      tsukifuda_month: "any",
      inoshikacho_extra: true,
      ribbon_set_extra: true,
      akatan_aotan_replaces: false,
    });
    assert.ok(largestMatchTotal(ruleSet) <= MAX_SCORE);
    assert.equal(MAX_SCORE, 2n ** 53n - 1n);
  });

  test("the largest totals of the presets are rules.py's", () => {
    assert.equal(largestPileTotal(CLASSIC), 182n);
    assert.equal(largestMatchTotal(CLASSIC), 143130624n);
    assert.equal(largestMatchTotal(PRESETS.get("koikoi-japan")), 9174n);
    assert.equal(largestMatchTotal(PRESETS.get("traditional")), 20736n);
  });

  for (const changes of [
    { hand_size: 23, field_size: 2 },
    { hand_size: 20, field_size: 8, goko: 1000, rounds: 120 },
  ]) {
    test(`rules whose scores could pass 2**53 are refused: ${JSON.stringify(changes)}`, () => {
      const problems = problemsOf(() => RuleSet.fromMapping(changes));
      assert.equal(problems.length, 1);
      for (const key of ["multiplier", "max_koikoi", "hand_size", "rounds"]) assert.ok(problems[0].includes(`'${key}'`), key);
      assert.ok(problems[0].includes("2**53"));
      assert.equal(RuleSet.fromMapping({ ...changes, max_koikoi: 3 }).hand_size, changes.hand_size);
      assert.equal(RuleSet.fromMapping({ ...changes, multiplier: "any-called" }).max_koikoi, 0);
    });
  }

  test("the refusal of 23-card hands is rules.py's message", () => {
    assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ hand_size: 23, field_size: 2 })), [
      "rules 'multiplier', 'max_koikoi', 'hand_size', 'rounds' and the points: a match total could reach" +
        " 153685337284018176 (about 2**57), past the 2**53 that scores are kept within; allow fewer koi-koi" +
        " calls (max_koikoi), deal smaller hands, play fewer rounds, lower the points or choose another multiplier",
    ]);
  });
});

// -- cross-field checks --------------------------------------------------------------------

describe("rules that cannot be", () => {
  for (const [hand, field, ok] of [
    [8, 8, true],
    [20, 8, true],
    [10, 28, true],
    [20, 9, false],
    [24, 1, false],
    [10, 29, false],
  ]) {
    test(`${hand}-card hands and a ${field}-card field ${ok ? "fit" : "do not fit"} the deck`, () => {
      const data = { hand_size: hand, field_size: field };
      if (ok) {
        const ruleSet = RuleSet.fromMapping(data);
        assert.deepEqual([ruleSet.hand_size, ruleSet.field_size], [hand, field]);
      } else {
        assert.deepEqual(problemsOf(() => RuleSet.fromMapping(data)), [
          `rules 'hand_size' and 'field_size': 2 x ${hand} + ${field} = ${2 * hand + field} cards dealt, more than the deck's 48`,
        ]);
      }
    });
  }

  test("the deal check applies to the preset base", () => {
    assert.equal(RuleSet.fromMapping({ preset: "ten-card", field_size: 28 }).field_size, 28);
    assert.match(caught(() => resolve("ten-card", ["field_size=29"]), RulesError).message, /field_size/);
  });

  for (const fieldSize of [37, 40, 46]) {
    test(`a field of ${fieldSize} always holds a whole month: no rule set with redeal_four_of_month`, () => {
      const never = { hand_size: 1, field_size: fieldSize, redeal_four_of_month: true };
      assert.deepEqual(problemsOf(() => RuleSet.fromMapping(never)), [
        `rules 'field_size' and 'redeal_four_of_month': a field of ${fieldSize} cards always meets a redeal` +
          " condition (at most 36 cards meet none), so every deal would be redealt",
      ]);
      assert.match(caught(() => resolve("traditional", ["hand_size=1", `field_size=${fieldSize}`]), RulesError).message, /redeal_four_of_month/);
      assert.equal(RuleSet.fromMapping({ ...never, redeal_four_of_month: false }).field_size, fieldSize);
    });
  }

  test("the largest field that can avoid a whole month is refused for its rarity", () => {
    assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ hand_size: 6, field_size: 36, redeal_four_of_month: true })), [
      "rules 'hand_size', 'field_size', 'redeal_four_of_month': only about 0.02% of deals of 6-card hands" +
        " and a 36-card field meet none of these redeal conditions (at least 5% must), so most deals would" +
        " be redealt; deal fewer cards or drop a redeal rule",
    ]);
    assert.equal(RuleSet.fromMapping({ hand_size: 6, field_size: 31, redeal_four_of_month: true }).field_size, 31);
    assert.match(
      caught(() => RuleSet.fromMapping({ hand_size: 6, field_size: 32, redeal_four_of_month: true }), RulesError).message,
      /only about 3\.06% of deals/,
    );
  });

  test("the share of deals that stand is rules.py's deal_chance, to the last bit", () => {
    assert.equal(rules.dealChance(CLASSIC), 1.0);
    assert.equal(rules.dealChance(PRESETS.get("nintendo")), 0.8477833429296621);
    assert.equal(rules.dealChance(PRESETS.get("single-deal")), 0.9939831136796405);
    assert.equal(rules.dealChance(PRESETS.get("koikoi-japan")), 0.9871053776360753);
    assert.equal(MIN_DEAL_CHANCE, 0.05);
    assert.equal(rules.fullestField(PRESETS.get("nintendo")), 15);
    assert.equal(rules.fullestField(CLASSIC), 48);
    assert.equal(rules.fullestField(PRESETS.get("traditional")), 36);
  });

  test("percentages are Python's format(x, '.2%'), ties to even", () => {
    for (const [x, two, none] of [
      [0.125, "12.50%", "12%"],
      [0.0002, "0.02%", "0%"],
      [0.05, "5.00%", "5%"],
      [0.0306, "3.06%", "3%"],
      [1 / 3, "33.33%", "33%"],
      [0.00125, "0.12%", "0%"],
    ]) {
      assert.equal(rules.percentText(x, 2), two, String(x));
      assert.equal(rules.percentText(x, 0), none, String(x));
    }
  });

  for (const [redeal, points] of [
    ["redeal_hand_four_of_month", "teshi"],
    ["redeal_hand_four_pairs", "kuttsuki"],
  ]) {
    test(`${redeal} and ${points} contradict each other`, () => {
      assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ [redeal]: true, [points]: 3 })), [
        `rules '${redeal}' and '${points}': a hand that holds ${points} is redealt, so ${points} never scores;` +
          ` set ${points} = 0 or ${redeal} = false`,
      ]);
      assert.equal(RuleSet.fromMapping({ [redeal]: true })[points], 0);
    });
  }
});

// -- unknown keys, presets and problems reported at once -------------------------------------

describe("unknown keys and problems at once", () => {
  for (const [typo, nearest] of [
    ["gokoo", "goko"],
    ["viewing_canceled_by", "viewing_cancelled_by"],
    ["hand-size", "hand_size"],
    ["ameshiko", "ame_shiko"],
    ["tsukifuda_months", "tsukifuda_month"],
  ]) {
    test(`the unknown key ${typo} suggests ${nearest}`, () => {
      const message = `unknown rule '${typo}'; did you mean '${nearest}'? (see 'koikoi rules show' for every key)`;
      assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ [typo]: 1 })), [message]);
      assert.deepEqual(problemsOf(() => resolve("classic", [`${typo}=1`])), [message]);
    });
  }

  test("every problem is reported at once", () => {
    const problems = problemsOf(() =>
      RuleSet.fromMapping({ preset: "fancy", goko: -1, viewing: "sometimes", gokoo: 3, deal_in_pairs: "true", tsukimi: 4 }),
    );
    assert.equal(problems.length, 5);
    for (const needle of ["fancy", "'goko'", "sometimes", "gokoo", "deal_in_pairs"]) {
      assert.ok(problems.some((problem) => problem.includes(needle)), needle);
    }
    assert.ok(!problems.some((problem) => problem.includes("tsukimi")));
    assert.equal(caught(() => RuleSet.fromMapping({ preset: "fancy", goko: -1 }), RulesError).message, problems.slice(0, 2).join("; "));
  });

  test("every problem of key=value text is reported at once", () => {
    assert.equal(problemsOf(() => resolve("ten-card", ["goko=x", "viewing=y", "nonsense=1", "tane=2"])).length, 3);
  });

  test("an unknown preset lists the presets", () => {
    assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ preset: "modern" })), [
      "rule 'preset': 'modern' is not allowed; allowed: classic, ten-card, single-deal, traditional, nintendo, koikoi-japan",
    ]);
    assert.deepEqual(problemsOf(() => RuleSet.fromMapping({ preset: 3 })), [
      "rule 'preset': 3 is not allowed; allowed: classic, ten-card, single-deal, traditional, nintendo, koikoi-japan",
    ]);
  });

  test("the preset cannot be overridden", () => {
    assert.deepEqual(problemsOf(() => CLASSIC.withOverrides({ preset: "x" })), ["'preset' chooses the base and cannot be overridden here"]);
  });

  test("rules that are not a table are an error", () => {
    assert.deepEqual(problemsOf(() => RuleSet.fromMapping(["goko", 12])), ["rules must be a table of key = value, not ['goko', 12]"]);
  });

  test("a mapping with more keys than a rule set is refused at once", () => {
    const data = {};
    for (let n = 0; n < 200000; n++) data[`key${n}`] = n;
    const started = performance.now();
    const problems = problemsOf(() => RuleSet.fromMapping({ preset: "classic", ...data }));
    // At once: not a problem for each key (the bound leaves room for a busy machine).
    assert.ok(performance.now() - started < 5000);
    assert.deepEqual(problems, ["rules with 200000 keys: a rule set has only 58 (see 'koikoi rules show' for every key)"]);
    assert.match(caught(() => CLASSIC.withOverrides(data), RulesError).message, /200000 keys/);
  });

  test("a mapping as large as a rule set is still checked key by key", () => {
    const data = Object.fromEntries(KEYS.slice(0, -1).map((key) => [key, 1]));
    data.gokoo = 1;
    assert.equal(Object.keys(data).length, KEYS.length);
    assert.ok(problemsOf(() => RuleSet.fromMapping(data)).some((problem) => problem.includes("'gokoo'")));
  });

  test("only the first three unknown keys get a suggestion", () => {
    const typos = Array.from({ length: 10 }, (_, n) => `goko${"o".repeat(n + 1)}`);
    const problems = problemsOf(() => RuleSet.fromMapping(Object.fromEntries(typos.map((typo) => [typo, 1]))));
    assert.equal(problems.length, typos.length);
    assert.deepEqual(
      problems.map((problem) => problem.includes("did you mean")),
      [true, true, true, false, false, false, false, false, false, false],
    );
    typos.forEach((typo, i) => assert.ok(problems[i].includes(`'${typo}'`)));
  });
});

// -- presets as the base, equality and round trips ----------------------------------------

const SAMPLE_RULES = [
  ...PRESETS.values(),
  RuleSet.fromMapping({ preset: "traditional", goko: 12, viewing_cancelled_by: ["willow"] }),
  RuleSet.fromMapping({ preset: "ten-card", hand_size: 8, multiplier: "none" }),
  RuleSet.fromMapping({ preset: "single-deal", viewing_cancelled_by: CANCELLERS, tsukifuda: 4 }),
];

describe("presets, equality and file forms", () => {
  for (const preset of NAMES) {
    test(`${preset}: the name alone gives the preset, and overrides start from it`, () => {
      const alone = RuleSet.fromMapping({ preset });
      assert.ok(alone.equals(PRESETS.get(preset)));
      assert.equal(alone.preset, preset);
      const changed = RuleSet.fromMapping({ preset, goko: 12 });
      assert.equal(changed.goko, 12);
      assert.equal(changed.preset, preset);
      for (const [key, value] of Object.entries(expected(preset))) {
        if (key !== "goko") assert.deepEqual(plain(changed[key]), value, key);
      }
      assert.ok(resolve(preset, ["goko=12"]).equals(changed));
    });
  }

  test("without a preset the base is classic", () => {
    const ruleSet = RuleSet.fromMapping({ hand_size: 10 });
    assert.equal(ruleSet.preset, "classic");
    assert.equal(ruleSet.tane, 1);
    assert.ok(ruleSet.equals(CLASSIC.withOverrides({ hand_size: 10 })));
  });

  test("the preset name is not part of equality", () => {
    const byHand = RuleSet.fromMapping({ preset: "classic", ...PRESET_DIFFS["ten-card"] });
    assert.ok(byHand.equals(PRESETS.get("ten-card")));
    assert.equal(byHand.preset, "classic");
    assert.equal(byHand.fingerprint, PRESETS.get("ten-card").fingerprint);
    assert.ok(!PRESETS.get("ten-card").equals(CLASSIC));
    assert.notEqual(PRESETS.get("ten-card").fingerprint, CLASSIC.fingerprint);
  });

  test("withOverrides changes only the named fields, from values or from text", () => {
    const base = PRESETS.get("traditional");
    const changed = base.withOverrides({ sanko: 4, viewing_cancelled_by: ["rainman"] });
    assert.equal(changed.sanko, 4);
    assert.deepEqual(plain(changed.viewing_cancelled_by), ["rainman"]);
    assert.equal(changed.preset, "traditional");
    assert.ok(changed.withOverrides({ sanko: 5, viewing_cancelled_by: [] }).equals(base));
    assert.ok(base.withOverrides({ sanko: "4", viewing_cancelled_by: "rainman" }, { fromText: true }).equals(changed));
    assert.ok(base.withOverrides(new Map([["sanko", 4], ["viewing_cancelled_by", ["rainman"]]])).equals(changed));
  });

  for (const [text, want] of [
    ["", []],
    ["rainman", ["rainman"]],
    ["rainman,lightning", ["rainman", "lightning"]],
    ["willow,paulownia,rainman,lightning", ["rainman", "lightning", "willow", "paulownia"]],
    [" willow , paulownia ", ["willow", "paulownia"]],
  ]) {
    test(`the list text ${JSON.stringify(text)} is ${JSON.stringify(want)}`, () => {
      const base = RuleSet.fromMapping({ viewing_cancelled_by: ["rainman"] });
      assert.deepEqual(plain(base.withOverrides({ viewing_cancelled_by: text }, { fromText: true }).viewing_cancelled_by), want);
      assert.deepEqual(plain(resolve(null, [`viewing_cancelled_by=${text}`]).viewing_cancelled_by), want);
    });
  }

  test("deal, flow and match fields load and validate, from values and from text", () => {
    const values = {
      hand_size: 7,
      field_size: 6,
      deal_in_pairs: true,
      first_dealer: "seat-0",
      next_dealer: "winner",
      draw_dealer: "keep",
      redeal_four_of_month: true,
      redeal_four_pairs: true,
      forced_capture: true,
      teshi: 4,
      kuttsuki: 3,
      both_hand_yaku: "both",
      decision: "new-yaku",
      max_koikoi: 1,
      koikoi_after_opponent: false,
      exhausted: "dealer",
      exhausted_points: 2,
      rounds: 6,
      target_score: 30,
    };
    const ruleSet = RuleSet.fromMapping(values);
    for (const [key, value] of Object.entries(values)) assert.equal(ruleSet[key], value, key);
    assert.ok(resolve(null, Object.entries(values).map(([key, value]) => `${key}=${value}`)).equals(ruleSet));
  });

  for (const full of [false, true]) {
    test(`rule sets round-trip through their ${full ? "full" : "short"} mapping and JSON`, () => {
      for (const ruleSet of SAMPLE_RULES) {
        const mapping = ruleSet.toMapping({ full });
        assert.equal(mapping.preset, ruleSet.preset);
        const back = RuleSet.fromMapping(mapping);
        assert.ok(back.equals(ruleSet));
        assert.equal(back.preset, ruleSet.preset);
        const fromJson = RuleSet.fromMapping(JSON.parse(JSON.stringify(mapping)));
        assert.ok(fromJson.equals(ruleSet));
        assert.equal(fromJson.preset, ruleSet.preset);
        const fromPyJson = RuleSet.fromMapping(pyjson.loads(JSON.stringify(mapping)));
        assert.ok(fromPyJson.equals(ruleSet));
      }
    });
  }

  test("the short file form names only the changes", () => {
    assert.deepEqual(CLASSIC.toMapping(), { preset: "classic" });
    const house = RuleSet.fromMapping({ preset: "ten-card", goko: 12, tane: 1 });
    assert.deepEqual(house.toMapping(), { preset: "ten-card", goko: 12, tane: 1 });
    assert.deepEqual(Object.keys(house.toMapping({ full: true })), ["preset", ...KEYS]);
  });

  test("a file form handed out is the caller's to change", () => {
    const house = RuleSet.fromMapping({ preset: "classic", viewing_cancelled_by: ["rainman"] });
    const first = house.toMapping({ full: true });
    first.goko = 99;
    first.viewing_cancelled_by.push("willow");
    house.toMapping().viewing_cancelled_by.length = 0;
    assert.equal(house.toMapping({ full: true }).goko, CLASSIC.goko);
    assert.deepEqual(house.toMapping({ full: true }).viewing_cancelled_by, ["rainman"]);
    assert.deepEqual(house.toMapping(), { preset: "classic", viewing_cancelled_by: ["rainman"] });
    assert.deepEqual(plain(house.viewing_cancelled_by), ["rainman"]);
  });
});

// -- properties, on seeded random draws ----------------------------------------------------

/** Random valid overrides of §6 keys (test_rules.py's overrides strategy). */
function drawOverrides(rng) {
  const int = (low, high) => low + rng.randbelow(high - low + 1);
  const pick = (items) => items[rng.randbelow(items.length)];
  const makers = {};
  for (const key of POINTS_KEYS) makers[key] = () => int(0, 40);
  for (const key of COUNT_KEYS) makers[key] = () => int(1, 12);
  makers.max_koikoi = () => int(0, 24);
  makers.target_score = () => int(0, 200);
  makers.rounds = () => int(1, 24);
  for (const key of BOOL_KEYS) makers[key] = () => rng.randbelow(2) === 1;
  for (const [key, values] of Object.entries(CHOICE_KEYS)) makers[key] = () => pick(values);
  makers.viewing_cancelled_by = () => CANCELLERS.filter(() => rng.randbelow(2));
  makers.viewing_after_koikoi = () => int(0, 40);
  makers.starting_points = () => int(0, 200);
  const changes = {};
  for (const key of Object.keys(makers).sort()) if (rng.randbelow(4) === 0) changes[key] = makers[key]();
  if (rng.randbelow(2)) {
    const hand = int(1, 12);
    changes.hand_size = hand;
    changes.field_size = int(1, Math.min(24, 48 - 2 * hand));
  }
  return consistent(changes);
}

/** Changes made free of the combinations every rule set refuses (test_rules.py's consistent). */
function consistent(changes) {
  const out = { ...changes };
  for (const [redeal, points] of [
    ["redeal_hand_four_of_month", "teshi"],
    ["redeal_hand_four_pairs", "kuttsuki"],
  ]) {
    if (out[redeal]) out[points] = 0;
    else out[redeal] = false;
  }
  if ((out.field_size ?? 8) > 12) out.redeal_three_of_month = false;
  return out;
}

describe("properties", () => {
  test("any valid overrides round-trip through the mapping, JSON and key=value text (60 draws)", () => {
    const rng = new random.PyRandom(6);
    for (let n = 0; n < 60; n++) {
      const preset = NAMES[rng.randbelow(NAMES.length)];
      const changes = drawOverrides(rng);
      const ruleSet = RuleSet.fromMapping({ preset, ...changes });
      for (const [key, value] of Object.entries(changes)) assert.deepEqual(plain(ruleSet[key]), value, key);
      for (const full of [false, true]) {
        const mapping = ruleSet.toMapping({ full });
        for (const back of [RuleSet.fromMapping(mapping), RuleSet.fromMapping(JSON.parse(JSON.stringify(mapping)))]) {
          assert.ok(back.equals(ruleSet));
          assert.equal(back.preset, preset);
        }
      }
      assert.ok(resolve(preset, Object.entries(changes).map(([key, value]) => `${key}=${textOf(value)}`)).equals(ruleSet));
    }
  });

  test("no pile scores more than largestPileTotal (200 draws)", () => {
    const rng = new random.PyRandom(7);
    for (let n = 0; n < 200; n++) {
      const changes = {};
      for (const key of POINTS_KEYS) if (rng.randbelow(3) === 0) changes[key] = rng.randbelow(1001);
      for (const key of COUNT_KEYS) if (rng.randbelow(3) === 0) changes[key] = 1 + rng.randbelow(12);
      for (const key of BOOL_KEYS) if (rng.randbelow(3) === 0) changes[key] = rng.randbelow(2) === 1;
      for (const [key, values] of Object.entries(CHOICE_KEYS)) if (rng.randbelow(3) === 0) changes[key] = values[rng.randbelow(values.length)];
      if (rng.randbelow(3) === 0) changes.viewing_after_koikoi = rng.randbelow(1001);
      const ruleSet = RuleSet.fromMapping(consistent(changes));
      const pile = SLUGS.filter(() => rng.randbelow(2) === 1); // any subset of the deck
      const month = rng.randbelow(13);
      const called = rng.randbelow(2) === 1;
      const total = yaku.sumValues(score(pile, ruleSet, {}, { month, called }));
      assert.ok(BigInt(total) <= largestPileTotal(ruleSet), `${total} > ${largestPileTotal(ruleSet)}`);
    }
  });
});
