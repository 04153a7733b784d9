// Yaku scoring of the browser engine (yaku.js): docs/rules.md §3 and every scoring field
// of §6 under each §4 preset, the cases of tests/test_yaku.py with the same expected
// values. Yaku come out in the order Python's dict holds them (records print them), so
// every comparison checks the order of the keys too.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";

import {
  CLASSIC,
  PRESETS,
  RuleSet,
  SLUGS,
  assert,
  cards,
  handYakuOf,
  monthCards,
  progressOf,
  random,
  rulesOf,
  score,
  scorePile,
  yaku,
} from "./helpers.mjs";

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/examples");

const { YAKU_KEYS, multiplier, koikoiBonus, multipliers, scorerFor, sumValues } = yaku;

// -- cards by name (docs/rules.md §1) ------------------------------------------------------

const CRANE = "pine-crane";
const CURTAIN = "cherry-curtain";
const MOON = "susuki-moon";
const RAINMAN = "willow-rainman";
const PHOENIX = "paulownia-phoenix";
const BRIGHTS = [CRANE, CURTAIN, MOON, RAINMAN, PHOENIX];
const FOUR_NO_RAIN = [CRANE, CURTAIN, MOON, PHOENIX];
const FOUR_WITH_RAIN = [CRANE, CURTAIN, MOON, RAINMAN];
const THREE_NO_RAIN = [CRANE, CURTAIN, MOON];
const THREE_WITH_RAIN = [CRANE, CURTAIN, RAINMAN];

const SAKE = "chrysanthemum-sake";
const LIGHTNING = "willow-lightning";
const INO = ["clover-boar", "maple-deer", "peony-butterflies"];
const OTHER_ANIMALS = ["plum-warbler", "wisteria-cuckoo", "iris-bridge", "susuki-geese", "willow-swallow"];

const POETRY = ["pine-poetry", "plum-poetry", "cherry-poetry"];
const BLUE = ["peony-blue", "chrysanthemum-blue", "maple-blue"];
const GRASS = ["wisteria-ribbon", "iris-ribbon", "clover-ribbon"];
const WILLOW_RIBBON = "willow-ribbon";
const LOOSE_RIBBONS = [...GRASS, WILLOW_RIBBON, "pine-poetry"];

const PLAINS = [
  ...cards.FLOWERS.filter((flower) => flower !== "willow").flatMap((flower) => [`${flower}-plain-1`, `${flower}-plain-2`]),
  "paulownia-plain-3",
];
const WILLOW = ["willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning"];
const PAULOWNIA = ["paulownia-phoenix", "paulownia-plain-1", "paulownia-plain-2", "paulownia-plain-3"];

const SEVEN_ANIMALS = [...OTHER_ANIMALS, SAKE, "maple-deer"];
const SEVEN_RIBBONS = [...LOOSE_RIBBONS, "plum-poetry", "peony-blue"];
const SIX = [...POETRY, ...BLUE];
const INO_FIVE = [...INO, ...OTHER_ANIMALS.slice(0, 2)];
const AKATAN_FIVE = [...POETRY, ...GRASS.slice(0, 2)];
const SAKE_ANIMALS = [SAKE, ...OTHER_ANIMALS.slice(0, 4)];
const SAKE_PLAINS = [SAKE, ...PLAINS.slice(0, 9)];
const SAKE_BOTH = [SAKE, ...OTHER_ANIMALS.slice(0, 4), ...PLAINS.slice(0, 9)];

/** Equal yaku, keys in Python's order (docs/rules.md §3's: YAKU_KEYS). */
function same(actual, expected, note = undefined) {
  assert.deepEqual(actual, expected, note);
  const keys = Object.keys(actual);
  assert.deepEqual(
    keys,
    YAKU_KEYS.filter((key) => keys.includes(key)),
    `keys out of order: ${keys}`,
  );
}

/** One table of cases: [cards, changes, expected yaku] under classic. */
function table(name, cases, base = CLASSIC) {
  test(`${name}: ${cases.length} cases`, () => {
    for (const [pile, changes, expected] of cases) same(score(pile, base, changes), expected, `${pile} ${JSON.stringify(changes)}`);
  });
}

test("the card groups are the rules' cards", () => {
  assert.equal(PLAINS.length, 23);
  assert.equal(new Set([...PLAINS, LIGHTNING]).size, 24);
  for (const slug of [...PLAINS, ...OTHER_ANIMALS, ...INO, ...POETRY, ...BLUE, ...GRASS]) assert.ok(SLUGS.includes(slug), slug);
  assert.deepEqual(monthCards(11), WILLOW);
  assert.deepEqual(monthCards(12), PAULOWNIA);
  assert.deepEqual(YAKU_KEYS, [
    "goko", "shiko", "ame-shiko", "sanko", "inoshikacho", "tane", "akatan", "aotan", "akatan-aotan",
    "kusatan", "tsukifuda", "tan", "kasu", "tsukimi", "hanami", "teshi", "kuttsuki",
  ]);
});

// -- bright yaku ------------------------------------------------------------------------------

describe("bright yaku", () => {
  table("the bright ladder", [
    [BRIGHTS, {}, { goko: 10 }],
    [FOUR_NO_RAIN, {}, { shiko: 8 }],
    [FOUR_WITH_RAIN, {}, { "ame-shiko": 7 }],
    [THREE_NO_RAIN, {}, { sanko: 5 }],
    [[CRANE, MOON, PHOENIX], {}, { sanko: 5 }],
    [THREE_WITH_RAIN, {}, {}],
    [[CRANE, RAINMAN, PHOENIX], {}, {}],
    [[CRANE, CURTAIN], {}, {}],
    [[RAINMAN], {}, {}],
    [BRIGHTS, { goko: 12 }, { goko: 12 }],
    [FOUR_NO_RAIN, { shiko: 9 }, { shiko: 9 }],
    [FOUR_WITH_RAIN, { ame_shiko: 6 }, { "ame-shiko": 6 }],
    [THREE_NO_RAIN, { sanko: 3 }, { sanko: 3 }],
    [BRIGHTS, { goko: 0 }, { shiko: 8 }],
    [BRIGHTS, { goko: 0, shiko: 0 }, { "ame-shiko": 7 }],
    [BRIGHTS, { goko: 0, shiko: 0, ame_shiko: 0 }, { sanko: 5 }],
    [BRIGHTS, { goko: 0, shiko: 0, ame_shiko: 0, sanko: 0 }, {}],
    [FOUR_WITH_RAIN, { ame_shiko: 0 }, { sanko: 5 }],
    [FOUR_WITH_RAIN, { ame_shiko: 0, sanko: 0 }, {}],
    [FOUR_NO_RAIN, { shiko: 0 }, { sanko: 5 }],
    [FOUR_NO_RAIN, { shiko: 0, sanko: 0 }, {}],
    [THREE_NO_RAIN, { sanko: 0 }, {}],
    [THREE_WITH_RAIN, { ame_shiko: 0 }, {}],
    [FOUR_NO_RAIN, { goko: 0, sanko: 0 }, { shiko: 8 }],
    [BRIGHTS, { shiko: 0, ame_shiko: 0, sanko: 0 }, { goko: 10 }],
  ]);

  table("brights_exclusive = false: every bright yaku that applies", [
    [BRIGHTS, { brights_exclusive: false }, { goko: 10, shiko: 8, "ame-shiko": 7, sanko: 5 }],
    [FOUR_WITH_RAIN, { brights_exclusive: false }, { "ame-shiko": 7, sanko: 5 }],
    [FOUR_NO_RAIN, { brights_exclusive: false }, { shiko: 8, sanko: 5 }],
    [THREE_WITH_RAIN, { brights_exclusive: false }, {}],
    [BRIGHTS, { brights_exclusive: false, shiko: 0 }, { goko: 10, "ame-shiko": 7, sanko: 5 }],
    [
      [...BRIGHTS, SAKE, ...POETRY, ...GRASS, ...INO],
      { brights_exclusive: false, kusatan: 3 },
      { goko: 10, shiko: 8, "ame-shiko": 7, sanko: 5, inoshikacho: 5, akatan: 5, kusatan: 3, tan: 2, tsukimi: 5, hanami: 5 },
    ],
  ]);

  test("bright yaku are exclusive and stack with others", () => {
    same(score([...BRIGHTS, SAKE]), { goko: 10, tsukimi: 5, hanami: 5 });
  });
});

// -- animals, ribbons, plains ---------------------------------------------------------------

describe("inoshikacho, tane, tan and kasu", () => {
  table("inoshikacho", [
    [INO, {}, { inoshikacho: 5 }],
    [INO.slice(0, 2), {}, {}],
    [[INO[0], INO[2], "plum-warbler"], {}, {}],
    [INO, { inoshikacho: 0 }, {}],
    [INO, { inoshikacho: 7 }, { inoshikacho: 7 }],
    [[...INO, ...OTHER_ANIMALS.slice(0, 2)], {}, { inoshikacho: 5, tane: 1 }],
    [[...INO, ...OTHER_ANIMALS.slice(0, 2)], { inoshikacho_extra: true }, { inoshikacho: 7, tane: 1 }],
    [INO, { inoshikacho_extra: true }, { inoshikacho: 5 }],
    [[...INO, "pine-crane", POETRY[0]], { inoshikacho_extra: true }, { inoshikacho: 5 }],
    [[...INO, SAKE], { inoshikacho_extra: true }, { inoshikacho: 6 }],
    [[...INO, SAKE], { inoshikacho_extra: true, sake_cup: "animal" }, { inoshikacho: 6 }],
    [[...INO, SAKE], { inoshikacho_extra: true, sake_cup: "both" }, { inoshikacho: 6 }],
    [[...INO, SAKE], { inoshikacho_extra: true, sake_cup: "plain" }, { inoshikacho: 5 }],
    [[...INO, SAKE], { inoshikacho_extra: false, sake_cup: "both" }, { inoshikacho: 5 }],
  ]);

  table("tane", [
    [OTHER_ANIMALS, {}, { tane: 1 }],
    [OTHER_ANIMALS.slice(0, 4), {}, {}],
    [SEVEN_ANIMALS, {}, { tane: 3 }],
    [OTHER_ANIMALS, { tane: 0 }, {}],
    [SEVEN_ANIMALS, { tane: 0 }, {}],
    [OTHER_ANIMALS, { tane: 4 }, { tane: 4 }],
    [SEVEN_ANIMALS, { tane: 4 }, { tane: 6 }],
    [OTHER_ANIMALS.slice(0, 3), { tane_min: 3 }, { tane: 1 }],
    [OTHER_ANIMALS.slice(0, 2), { tane_min: 3 }, {}],
    [OTHER_ANIMALS, { tane_min: 3 }, { tane: 3 }],
    [OTHER_ANIMALS, { tane_min: 6 }, {}],
    [SEVEN_ANIMALS, { tane_extra: 2 }, { tane: 5 }],
    [SEVEN_ANIMALS, { tane_extra: 0 }, { tane: 1 }],
    [OTHER_ANIMALS, { tane_extra: 3 }, { tane: 1 }],
    // Fewer than three animals: tane_min 1 and 2 still score (the scorer's early exit).
    [OTHER_ANIMALS.slice(0, 1), { tane_min: 1 }, { tane: 1 }],
    [OTHER_ANIMALS.slice(0, 2), { tane_min: 2 }, { tane: 1 }],
  ]);

  table("tan", [
    [LOOSE_RIBBONS, {}, { tan: 1 }],
    [LOOSE_RIBBONS.slice(0, 4), {}, {}],
    [SEVEN_RIBBONS, {}, { tan: 3 }],
    [LOOSE_RIBBONS, { tan: 0 }, {}],
    [SEVEN_RIBBONS, { tan: 3 }, { tan: 5 }],
    [LOOSE_RIBBONS.slice(0, 4), { tan_min: 4 }, { tan: 1 }],
    [LOOSE_RIBBONS, { tan_min: 2 }, { tan: 4 }],
    [SEVEN_RIBBONS, { tan_min: 8 }, {}],
    [SEVEN_RIBBONS, { tan_extra: 2 }, { tan: 5 }],
    [SEVEN_RIBBONS, { tan_extra: 0 }, { tan: 1 }],
    [LOOSE_RIBBONS.slice(0, 1), { tan_min: 1 }, { tan: 1 }],
  ]);

  table("kasu", [
    [PLAINS.slice(0, 10), {}, { kasu: 1 }],
    [PLAINS.slice(0, 9), {}, {}],
    [PLAINS.slice(0, 12), {}, { kasu: 3 }],
    [PLAINS, {}, { kasu: 14 }],
    [[...PLAINS, LIGHTNING], {}, { kasu: 15 }],
    [PLAINS.slice(0, 10), { kasu: 0 }, {}],
    [PLAINS.slice(0, 12), { kasu: 2 }, { kasu: 4 }],
    [PLAINS.slice(0, 5), { kasu_min: 5 }, { kasu: 1 }],
    [PLAINS.slice(0, 4), { kasu_min: 5 }, {}],
    [PLAINS.slice(0, 12), { kasu_min: 11 }, { kasu: 2 }],
    [PLAINS.slice(0, 12), { kasu_extra: 3 }, { kasu: 7 }],
    [PLAINS.slice(0, 12), { kasu_extra: 0 }, { kasu: 1 }],
  ]);
});

describe("ribbon sets", () => {
  table("akatan, aotan and kusatan", [
    [POETRY, {}, { akatan: 5 }],
    [POETRY.slice(0, 2), {}, {}],
    [POETRY, { akatan: 0 }, {}],
    [POETRY, { akatan: 2 }, { akatan: 2 }],
    [BLUE, {}, { aotan: 5 }],
    [BLUE.slice(0, 2), {}, {}],
    [BLUE, { aotan: 0 }, {}],
    [BLUE, { aotan: 4 }, { aotan: 4 }],
    [[...POETRY.slice(0, 2), GRASS[0]], {}, {}],
    [[...POETRY, ...GRASS.slice(0, 2)], {}, { akatan: 5, tan: 1 }],
    [[...POETRY, ...GRASS.slice(0, 2)], { ribbon_set_extra: true }, { akatan: 7, tan: 1 }],
    [[...BLUE, GRASS[0]], { ribbon_set_extra: true }, { aotan: 6 }],
    [POETRY, { ribbon_set_extra: true }, { akatan: 5 }],
    [GRASS, {}, {}],
    [GRASS, { kusatan: 5 }, { kusatan: 5 }],
    [GRASS.slice(0, 2), { kusatan: 5 }, {}],
    [[...GRASS, WILLOW_RIBBON], { kusatan: 5 }, { kusatan: 5 }],
    [[...GRASS, ...POETRY.slice(0, 2)], { kusatan: 5, ribbon_set_extra: true }, { kusatan: 7, tan: 1 }],
    [[...GRASS, ...POETRY], { kusatan: 4, ribbon_set_extra: true }, { akatan: 8, kusatan: 7, tan: 2 }],
  ]);

  table("akatan-aotan", [
    [SIX, {}, { akatan: 5, aotan: 5, tan: 2 }],
    [SIX, { akatan_aotan: 10 }, { "akatan-aotan": 10, tan: 2 }],
    [SIX, { akatan_aotan: 10, akatan_aotan_replaces: false }, { akatan: 5, aotan: 5, "akatan-aotan": 10, tan: 2 }],
    [[...POETRY, ...BLUE.slice(0, 2)], { akatan_aotan: 10 }, { akatan: 5, tan: 1 }],
    [SIX, { akatan_aotan: 10, akatan: 0, aotan: 0 }, { "akatan-aotan": 10, tan: 2 }],
    [SIX, { akatan_aotan: 10, akatan: 0, aotan: 0, akatan_aotan_replaces: false }, { "akatan-aotan": 10, tan: 2 }],
    [SIX, { akatan_aotan: 10, akatan: 0, akatan_aotan_replaces: false }, { aotan: 5, "akatan-aotan": 10, tan: 2 }],
    [SIX, { akatan_aotan_replaces: false }, { akatan: 5, aotan: 5, tan: 2 }],
    [SIX, { akatan_aotan: 10, ribbon_set_extra: true }, { "akatan-aotan": 10, tan: 2 }],
    [[...SIX, GRASS[0]], { akatan_aotan: 10, ribbon_set_extra: true }, { "akatan-aotan": 11, tan: 3 }],
    [
      [...SIX, GRASS[0]],
      { akatan_aotan: 10, akatan_aotan_replaces: false, ribbon_set_extra: true },
      { akatan: 9, aotan: 9, "akatan-aotan": 10, tan: 3 },
    ],
    [[...SIX, GRASS[0]], { akatan_aotan: 10 }, { "akatan-aotan": 10, tan: 3 }],
  ]);
});

// -- viewing yaku -------------------------------------------------------------------------------

const CANCELLED_CARDS = {
  rainman: [RAINMAN],
  lightning: [LIGHTNING],
  willow: WILLOW,
  paulownia: PAULOWNIA,
};

describe("viewing yaku", () => {
  table("tsukimi, hanami and viewing", [
    [[MOON, SAKE], {}, { tsukimi: 5 }],
    [[CURTAIN, SAKE], {}, { hanami: 5 }],
    [[MOON, CURTAIN, SAKE], {}, { tsukimi: 5, hanami: 5 }],
    [[MOON, CURTAIN], {}, {}],
    [[MOON, SAKE], { tsukimi: 0 }, {}],
    [[MOON, SAKE], { tsukimi: 3 }, { tsukimi: 3 }],
    [[CURTAIN, SAKE], { hanami: 0 }, {}],
    [[CURTAIN, SAKE], { hanami: 2 }, { hanami: 2 }],
    [[MOON, CURTAIN, SAKE], { tsukimi: 0 }, { hanami: 5 }],
    [[MOON, CURTAIN, SAKE], { viewing: "off" }, {}],
    [[MOON, SAKE, ...INO], { viewing: "off" }, { inoshikacho: 5 }],
    [[MOON, SAKE], { viewing: "with-other-yaku" }, {}],
    [[MOON, CURTAIN, SAKE], { viewing: "with-other-yaku" }, {}],
    [[MOON, SAKE, ...INO], { viewing: "with-other-yaku" }, { inoshikacho: 5, tsukimi: 5 }],
    [[MOON, CURTAIN, SAKE, CRANE], { viewing: "with-other-yaku" }, { sanko: 5, tsukimi: 5, hanami: 5 }],
    [[MOON, SAKE, ...OTHER_ANIMALS.slice(0, 4)], { viewing: "with-other-yaku" }, { tane: 1, tsukimi: 5 }],
    [[MOON, SAKE, ...INO], { viewing: "with-other-yaku", inoshikacho: 0 }, {}],
    [[MOON, SAKE, ...INO], { viewing: "always" }, { inoshikacho: 5, tsukimi: 5 }],
  ]);

  for (const canceller of Object.keys(CANCELLED_CARDS)) {
    test(`viewing_cancelled_by = [${canceller}] cancels with exactly its cards`, () => {
      for (const card of [...WILLOW, ...PAULOWNIA]) {
        const cancelled = CANCELLED_CARDS[canceller].includes(card);
        const others = Object.keys(CANCELLED_CARDS).filter((name) => !CANCELLED_CARDS[name].includes(card));
        for (const [viewingCards, key] of [
          [[MOON, SAKE], "tsukimi"],
          [[CURTAIN, SAKE], "hanami"],
        ]) {
          const pile = [...viewingCards, card];
          assert.equal(score(pile)[key], 5, `${card} ${key}`);
          assert.equal(!(key in score(pile, CLASSIC, { viewing_cancelled_by: [canceller] })), cancelled, `${card} ${key}`);
          assert.equal(score(pile, CLASSIC, { viewing_cancelled_by: others })[key], 5, `${card} ${key}`);
        }
      }
    });
  }

  test("viewing cancellation leaves the other yaku", () => {
    const pile = [CRANE, CURTAIN, MOON, RAINMAN, SAKE];
    same(score(pile), { "ame-shiko": 7, tsukimi: 5, hanami: 5 });
    same(score(pile, CLASSIC, { viewing_cancelled_by: ["rainman"] }), { "ame-shiko": 7 });
    same(score(pile, CLASSIC, { viewing_cancelled_by: ["willow"] }), { "ame-shiko": 7 });
    same(score(pile, CLASSIC, { viewing_cancelled_by: ["paulownia"] }), score(pile));
  });

  test("viewing_in_season: hanami only in month 3, tsukimi only in month 8", () => {
    const pile = [MOON, SAKE, CURTAIN];
    same(score(pile, CLASSIC, { viewing_in_season: true }, { month: 0 }), {});
    same(score(pile, CLASSIC, { viewing_in_season: true }, { month: 3 }), { hanami: 5 });
    same(score(pile, CLASSIC, { viewing_in_season: true }, { month: 8 }), { tsukimi: 5 });
    same(score(pile, CLASSIC, { viewing_in_season: true }, { month: 11 }), {});
    same(score(pile, CLASSIC, {}, { month: 11 }), { tsukimi: 5, hanami: 5 });
  });

  test("viewing_after_koikoi: the viewing yaku's points once their holder has called", () => {
    const japan = PRESETS.get("koikoi-japan");
    same(score([MOON, SAKE], japan), { tsukimi: 1 });
    same(score([MOON, SAKE], japan, {}, { called: true }), { tsukimi: 3 });
    same(score([MOON, SAKE, CURTAIN], japan, {}, { called: true }), { tsukimi: 3, hanami: 3 });
    same(score([MOON, SAKE, CURTAIN], CLASSIC, { viewing_after_koikoi: 3 }, { called: true }), { tsukimi: 3, hanami: 3 });
    // One that is switched off stays off.
    same(score([MOON, SAKE, CURTAIN], CLASSIC, { viewing_after_koikoi: 3, tsukimi: 0 }, { called: true }), { hanami: 3 });
    // 0: unchanged by a call.
    same(score([MOON, SAKE], CLASSIC, {}, { called: true }), { tsukimi: 5 });
  });
});

// -- tsukifuda, the sake cup and the lightning ------------------------------------------------

describe("tsukifuda", () => {
  for (let month = 1; month <= 12; month++) {
    test(`tsukifuda = round scores month ${month} only in a round of month ${month}`, () => {
      const pile = monthCards(month);
      const on = { tsukifuda: 4, tsukifuda_month: "round" };
      assert.ok(!("tsukifuda" in score(pile, CLASSIC, {}, { month })));
      assert.equal(score(pile, CLASSIC, on, { month }).tsukifuda, 4);
      assert.ok(!("tsukifuda" in score(pile, CLASSIC, on, { month: 0 })));
      assert.ok(!("tsukifuda" in score(pile, CLASSIC, on, { month: (month % 12) + 1 })));
      assert.ok(!("tsukifuda" in score(pile.slice(0, 3), CLASSIC, on, { month })));
      assert.equal(score(pile, CLASSIC, { tsukifuda: 7 }, { month }).tsukifuda, 7);
    });
  }

  test("tsukifuda = round counts one month only", () => {
    const pile = [...monthCards(1), ...monthCards(2)];
    same(score(pile, CLASSIC, { tsukifuda: 4 }, { month: 2 }), { tsukifuda: 4 });
    same(score(pile, CLASSIC, { tsukifuda: 4 }, { month: 0 }), {});
    same(score(pile, CLASSIC, { tsukifuda: 4 }, { month: 3 }), {});
  });

  for (const [months, points] of [
    [[], 0],
    [[1], 4],
    [[1, 2], 8],
    [[4, 7, 11], 12],
    [[5], 4],
  ]) {
    test(`tsukifuda = any scores ${points} for the whole months ${months}`, () => {
      const pile = [...months.flatMap(monthCards), "peony-blue"];
      for (const month of [0, 3, 12]) {
        assert.equal(score(pile, CLASSIC, { tsukifuda: 4, tsukifuda_month: "any" }, { month }).tsukifuda ?? 0, points);
      }
    });
  }

  test("tsukifuda counts the lightning even when it is no plain", () => {
    same(score(WILLOW, CLASSIC, { tsukifuda: 4, lightning_is_kasu: false }, { month: 11 }), { tsukifuda: 4 });
    same(score(WILLOW, CLASSIC, { tsukifuda: 4, tsukifuda_month: "any", lightning_is_kasu: false }), { tsukifuda: 4 });
  });
});

describe("the sake cup, the lightning and best_per_category", () => {
  test("sake_cup: animal, plain or both", () => {
    for (const [pile, sakeCup, expected] of [
      [SAKE_ANIMALS, "animal", { tane: 1 }],
      [SAKE_ANIMALS, "plain", {}],
      [SAKE_ANIMALS, "both", { tane: 1 }],
      [SAKE_PLAINS, "animal", {}],
      [SAKE_PLAINS, "plain", { kasu: 1 }],
      [SAKE_PLAINS, "both", { kasu: 1 }],
      [SAKE_BOTH, "animal", { tane: 1 }],
      [SAKE_BOTH, "plain", { kasu: 1 }],
      [SAKE_BOTH, "both", { tane: 1, kasu: 1 }],
      [[MOON, CURTAIN, SAKE], "plain", { tsukimi: 5, hanami: 5 }],
      [[MOON, CURTAIN, SAKE], "both", { tsukimi: 5, hanami: 5 }],
    ]) {
      same(score(pile, CLASSIC, { sake_cup: sakeCup }), expected, `${sakeCup} ${pile}`);
    }
  });

  test("lightning_is_kasu", () => {
    for (const [pile, isKasu, expected] of [
      [[LIGHTNING, ...PLAINS.slice(0, 9)], true, { kasu: 1 }],
      [[LIGHTNING, ...PLAINS.slice(0, 9)], false, {}],
      [[LIGHTNING, ...PLAINS.slice(0, 10)], true, { kasu: 2 }],
      [[LIGHTNING, ...PLAINS.slice(0, 10)], false, { kasu: 1 }],
      [PLAINS.slice(0, 10), false, { kasu: 1 }],
    ]) {
      same(score(pile, CLASSIC, { lightning_is_kasu: isKasu }), expected);
    }
  });

  test("best_per_category drops tane or tan beside a set of their kind", () => {
    for (const [pile, best, changes, expected] of [
      [INO_FIVE, "none", {}, { inoshikacho: 5, tane: 1 }],
      [INO_FIVE, "animals", {}, { inoshikacho: 5 }],
      [INO_FIVE, "ribbons", {}, { inoshikacho: 5, tane: 1 }],
      [INO_FIVE, "both", {}, { inoshikacho: 5 }],
      [OTHER_ANIMALS, "animals", {}, { tane: 1 }],
      [INO_FIVE, "animals", { inoshikacho: 0 }, { tane: 1 }],
      [AKATAN_FIVE, "none", {}, { akatan: 5, tan: 1 }],
      [AKATAN_FIVE, "ribbons", {}, { akatan: 5 }],
      [AKATAN_FIVE, "animals", {}, { akatan: 5, tan: 1 }],
      [AKATAN_FIVE, "both", {}, { akatan: 5 }],
      [[...BLUE, ...GRASS.slice(0, 2)], "ribbons", {}, { aotan: 5 }],
      [LOOSE_RIBBONS, "ribbons", {}, { tan: 1 }],
      [AKATAN_FIVE, "ribbons", { akatan: 0 }, { tan: 1 }],
      [[...GRASS, ...POETRY.slice(0, 2)], "ribbons", { kusatan: 5 }, { kusatan: 5 }],
      [[...SIX, GRASS[0]], "ribbons", { akatan_aotan: 10 }, { "akatan-aotan": 10 }],
      [[...SIX, GRASS[0]], "ribbons", { akatan_aotan: 10, akatan: 0, aotan: 0, akatan_aotan_replaces: false }, { "akatan-aotan": 10 }],
      [[...INO_FIVE, ...AKATAN_FIVE], "both", {}, { inoshikacho: 5, akatan: 5 }],
    ]) {
      same(score(pile, CLASSIC, { best_per_category: best, ...changes }), expected, `${best} ${pile}`);
    }
  });
});

// -- the final score: double_at and the multiplier --------------------------------------------

const MULTIPLIERS = [
  ["none", 0, 0, 1],
  ["none", 3, 2, 1],
  ["per-call", 0, 0, 1],
  ["per-call", 1, 0, 2],
  ["per-call", 0, 1, 2],
  ["per-call", 1, 2, 8],
  ["per-call", 2, 2, 16],
  ["any-called", 0, 0, 1],
  ["any-called", 1, 0, 2],
  ["any-called", 0, 1, 2],
  ["any-called", 2, 3, 2],
  ["opponent-called", 0, 0, 1],
  ["opponent-called", 3, 0, 1],
  ["opponent-called", 0, 1, 2],
  ["opponent-called", 0, 3, 2],
  ["opponent-called", 2, 2, 2],
  ["per-opponent-call", 0, 0, 1],
  ["per-opponent-call", 3, 0, 1],
  ["per-opponent-call", 0, 1, 2],
  ["per-opponent-call", 0, 3, 8],
  ["per-opponent-call", 2, 2, 4],
];

describe("the final score", () => {
  test(`the multiplier: ${MULTIPLIERS.length} cases, on sanko's 5 points`, () => {
    for (const [kind, own, opponent, factor] of MULTIPLIERS) {
      const note = `${kind} ${own} ${opponent}`;
      assert.equal(multiplier(kind, own, opponent), factor, note);
      const ruleSet = rulesOf(CLASSIC, { multiplier: kind });
      assert.deepEqual(scorePile(THREE_NO_RAIN, ruleSet, { ownCalls: own, opponentCalls: opponent }), { yaku: { sanko: 5 }, total: 5, final: 5 * factor }, note);
      assert.equal(scorerFor(ruleSet).final(5, own, opponent), 5 * factor, note);
    }
  });

  test("multiplier = additive: +1 a call up to three, then x(calls - 2) instead", () => {
    const japan = scorerFor(PRESETS.get("koikoi-japan"));
    const finals = [0, 1, 2, 3, 4, 5, 6].map((own) => japan.final(5, own, 0));
    assert.deepEqual(finals, [5, 6, 7, 8, 10, 15, 20]);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((own) => japan.final(5, own, 2)), finals); // the opponent's calls count for nothing
    assert.equal(multiplier("additive", 4, 0), 2);
    assert.equal(multiplier("additive", 3, 5), 1);
    assert.equal(koikoiBonus("additive", 3), 3);
    assert.equal(koikoiBonus("additive", 4), 0);
    assert.equal(koikoiBonus("per-call", 2), 0);
    assert.deepEqual(multipliers("per-call", [1, 2]), [8, 8]);
    assert.deepEqual(multipliers("opponent-called", [1, 0]), [1, 2]);
  });

  test("double_at doubles a total at least that high", () => {
    for (const [pile, doubleAt, total, final] of [
      [FOUR_WITH_RAIN, 8, 7, 7],
      [FOUR_NO_RAIN, 8, 8, 16],
      [BRIGHTS, 8, 10, 20],
      [FOUR_WITH_RAIN, 7, 7, 14],
      [THREE_NO_RAIN, 7, 5, 5],
      [FOUR_NO_RAIN, 0, 8, 8],
      [BRIGHTS, 0, 10, 10],
      [[], 1, 0, 0],
    ]) {
      const result = scorePile(pile, rulesOf(CLASSIC, { double_at: doubleAt }));
      assert.deepEqual([result.total, result.final], [total, final], `${pile} ${doubleAt}`);
    }
  });

  test("double_at and the multiplier both apply", () => {
    const ruleSet = rulesOf(CLASSIC, { double_at: 8 });
    assert.equal(scorePile(FOUR_NO_RAIN, ruleSet, { ownCalls: 1 }).final, 32);
    assert.equal(scorePile(FOUR_WITH_RAIN, ruleSet, { ownCalls: 1 }).final, 14);
    const traditional = PRESETS.get("traditional");
    assert.equal(scorePile(FOUR_NO_RAIN, traditional).final, 16);
    assert.equal(scorePile(FOUR_NO_RAIN, traditional, { opponentCalls: 1 }).final, 32);
    assert.equal(scorePile(FOUR_NO_RAIN, traditional, { ownCalls: 2 }).final, 16);
  });

  test("the final score is nothing without yaku", () => {
    assert.deepEqual(scorePile(["pine-plain-1"], CLASSIC, { ownCalls: 3, opponentCalls: 1 }), { yaku: {}, total: 0, final: 0 });
  });

  test("final is double_at, then the multiplier, then the bonus, for any totals and calls (300 draws)", () => {
    const rng = new random.PyRandom(11);
    const kinds = ["none", "per-call", "any-called", "opponent-called", "per-opponent-call", "additive"];
    for (let n = 0; n < 300; n++) {
      const kind = kinds[rng.randbelow(kinds.length)];
      const doubleAt = rng.randbelow(21);
      const ruleSet = rulesOf(CLASSIC, { multiplier: kind, double_at: doubleAt });
      const total = rng.randbelow(61);
      const own = rng.randbelow(6);
      const opponent = rng.randbelow(6);
      const doubled = doubleAt && total >= doubleAt ? 2 * total : total;
      const factor = {
        none: 1,
        "per-call": 2 ** (own + opponent),
        "any-called": own || opponent ? 2 : 1,
        "opponent-called": opponent ? 2 : 1,
        "per-opponent-call": 2 ** opponent,
        additive: own >= 4 ? own - 2 : 1,
      }[kind];
      const bonus = kind === "additive" && own <= 3 ? own : 0;
      assert.equal(scorerFor(ruleSet).final(total, own, opponent), doubled * factor + bonus, `${kind} ${doubleAt} ${total} ${own} ${opponent}`);
    }
  });
});

// -- hand yaku ----------------------------------------------------------------------------------

const FOUR_OF_PINE = [...monthCards(1), "plum-warbler", "cherry-curtain", "wisteria-cuckoo", "iris-bridge"];
const FOUR_PAIRS = [1, 2, 3, 4].flatMap((month) => monthCards(month).slice(0, 2));
const FOUR_PLUS_TWO_PAIRS = [...monthCards(1), ...monthCards(2).slice(0, 2), ...monthCards(3).slice(0, 2)];
const THREE_PAIRS = [1, 2, 3].flatMap((month) => monthCards(month).slice(0, 2)).concat(["iris-bridge", "maple-deer"]);
const THREE_AND_PAIRS = [...monthCards(1).slice(0, 3), ...monthCards(2).slice(0, 2), ...monthCards(3).slice(0, 2), "iris-bridge"];
const FIVE_PAIRS = [...FOUR_PAIRS, ...monthCards(5).slice(0, 2)];
const FOUR_PAIRS_TEN = [...FOUR_PAIRS, "maple-deer", "paulownia-phoenix"];

describe("hand yaku", () => {
  test("teshi and kuttsuki of dealt hands: 20 cases", () => {
    for (const [hand, base, changes, expected] of [
      [FOUR_OF_PINE, "traditional", {}, { teshi: 6 }],
      [FOUR_PAIRS, "traditional", {}, { kuttsuki: 6 }],
      [FOUR_PLUS_TWO_PAIRS, "traditional", {}, { teshi: 6 }],
      [FOUR_PLUS_TWO_PAIRS, "single-deal", {}, { teshi: 6 }],
      [THREE_PAIRS, "traditional", {}, {}],
      [THREE_AND_PAIRS, "traditional", {}, {}],
      [FOUR_OF_PINE, "classic", {}, {}],
      [FOUR_PAIRS, "classic", {}, {}],
      [FOUR_OF_PINE, "ten-card", {}, {}],
      [FOUR_OF_PINE, "classic", { teshi: 4 }, { teshi: 4 }],
      [FOUR_PAIRS, "classic", { kuttsuki: 3 }, { kuttsuki: 3 }],
      [FOUR_OF_PINE, "traditional", { teshi: 9 }, { teshi: 9 }],
      [FOUR_OF_PINE, "traditional", { teshi: 0 }, {}],
      [FOUR_PAIRS, "traditional", { kuttsuki: 0 }, {}],
      [FOUR_PAIRS, "traditional", { teshi: 0 }, { kuttsuki: 6 }],
      [FOUR_PLUS_TWO_PAIRS, "traditional", { kuttsuki: 0 }, { teshi: 6 }],
      [FOUR_PLUS_TWO_PAIRS, "traditional", { teshi: 0 }, {}],
      [FIVE_PAIRS, "ten-card", { kuttsuki: 6 }, { kuttsuki: 6 }],
      [FOUR_PAIRS_TEN, "ten-card", { kuttsuki: 6 }, { kuttsuki: 6 }],
      [[...FOUR_OF_PINE, "maple-deer", "paulownia-phoenix"], "ten-card", { teshi: 6 }, { teshi: 6 }],
    ]) {
      assert.deepEqual(handYakuOf(hand, rulesOf(base, changes)), expected, `${base} ${JSON.stringify(changes)} ${hand}`);
    }
  });

  for (const preset of PRESETS.keys()) {
    test(`${preset}: scoring captured cards never involves hand yaku`, () => {
      for (const pile of [FOUR_OF_PINE, FOUR_PAIRS, FOUR_PLUS_TWO_PAIRS]) {
        const result = score(pile, preset);
        assert.ok(!("teshi" in result));
        assert.ok(!("kuttsuki" in result));
      }
    });
  }
});

// -- the presets, as the §4 table scores them -------------------------------------------------

const PRESET_SCORES = [
  ["classic", BRIGHTS, { goko: 10 }],
  ["classic", FOUR_NO_RAIN, { shiko: 8 }],
  ["classic", FOUR_WITH_RAIN, { "ame-shiko": 7 }],
  ["classic", THREE_NO_RAIN, { sanko: 5 }],
  ["classic", INO, { inoshikacho: 5 }],
  ["classic", INO_FIVE, { inoshikacho: 5, tane: 1 }],
  ["classic", SEVEN_ANIMALS, { tane: 3 }],
  ["classic", SEVEN_RIBBONS, { tan: 3 }],
  ["classic", AKATAN_FIVE, { akatan: 5, tan: 1 }],
  ["classic", BLUE, { aotan: 5 }],
  ["classic", SIX, { akatan: 5, aotan: 5, tan: 2 }],
  ["classic", GRASS, {}],
  ["classic", PLAINS.slice(0, 11), { kasu: 2 }],
  ["classic", [MOON, CURTAIN, SAKE], { tsukimi: 5, hanami: 5 }],
  ["classic", SAKE_ANIMALS, { tane: 1 }],
  ["classic", SAKE_PLAINS, {}],
  ["classic", monthCards(1), {}],
  ["ten-card", BRIGHTS, { goko: 10 }],
  ["ten-card", FOUR_WITH_RAIN, { "ame-shiko": 7 }],
  ["ten-card", OTHER_ANIMALS, { tane: 5 }],
  ["ten-card", SEVEN_ANIMALS, { tane: 7 }],
  ["ten-card", LOOSE_RIBBONS, { tan: 5 }],
  ["ten-card", SEVEN_RIBBONS, { tan: 7 }],
  ["ten-card", POETRY, { akatan: 3 }],
  ["ten-card", BLUE, { aotan: 3 }],
  ["ten-card", SIX, { akatan: 3, aotan: 3, tan: 6 }],
  ["ten-card", INO_FIVE, { inoshikacho: 5, tane: 5 }],
  ["ten-card", PLAINS.slice(0, 10), { kasu: 1 }],
  ["ten-card", [MOON, SAKE], { tsukimi: 5 }],
  ["single-deal", BRIGHTS, { goko: 15 }],
  ["single-deal", FOUR_NO_RAIN, { shiko: 10 }],
  ["single-deal", FOUR_WITH_RAIN, { "ame-shiko": 8 }],
  ["single-deal", THREE_NO_RAIN, { sanko: 6 }],
  ["single-deal", THREE_WITH_RAIN, {}],
  ["single-deal", POETRY, { akatan: 6 }],
  ["single-deal", BLUE, { aotan: 6 }],
  ["single-deal", INO, { inoshikacho: 5 }],
  ["single-deal", [MOON, CURTAIN, SAKE], {}],
  ["single-deal", SAKE_ANIMALS, { tane: 1 }],
  ["single-deal", SAKE_PLAINS, { kasu: 1 }],
  ["single-deal", SAKE_BOTH, { tane: 1, kasu: 1 }],
  ["single-deal", LOOSE_RIBBONS, { tan: 1 }],
  ["traditional", BRIGHTS, { goko: 10 }],
  ["traditional", FOUR_WITH_RAIN, { "ame-shiko": 7 }],
  ["traditional", THREE_NO_RAIN, { sanko: 5 }],
  ["traditional", INO, { inoshikacho: 5 }],
  ["traditional", INO_FIVE, { inoshikacho: 7, tane: 1 }],
  ["traditional", [...INO, SAKE], { inoshikacho: 6 }],
  ["traditional", POETRY, { akatan: 5 }],
  ["traditional", AKATAN_FIVE, { akatan: 7, tan: 1 }],
  ["traditional", [...BLUE, WILLOW_RIBBON], { aotan: 6 }],
  ["traditional", SIX, { "akatan-aotan": 10, tan: 2 }],
  ["traditional", [...SIX, ...GRASS], { "akatan-aotan": 13, tan: 5 }],
  ["traditional", GRASS, {}],
  ["traditional", [MOON, CURTAIN, SAKE], { tsukimi: 5, hanami: 5 }],
  ["traditional", PLAINS.slice(0, 10), { kasu: 1 }],
];

describe("the presets", () => {
  for (const preset of ["classic", "ten-card", "single-deal", "traditional"]) {
    const cases = PRESET_SCORES.filter(([name]) => name === preset);
    test(`${preset} scores as the §4 table says: ${cases.length} piles`, () => {
      for (const [, pile, expected] of cases) {
        const result = scorePile(pile, PRESETS.get(preset));
        same(result.yaku, expected, `${pile}`);
        assert.equal(result.total, sumValues(expected));
      }
    });
  }

  test("the presets' final scores", () => {
    for (const [preset, pile, own, opponent, final] of [
      ["classic", THREE_NO_RAIN, 0, 0, 5],
      ["classic", THREE_NO_RAIN, 1, 0, 10],
      ["classic", THREE_NO_RAIN, 1, 1, 20],
      ["classic", FOUR_NO_RAIN, 0, 2, 32],
      ["ten-card", THREE_NO_RAIN, 2, 1, 40],
      ["single-deal", BRIGHTS, 0, 0, 15],
      ["single-deal", BRIGHTS, 3, 3, 15],
      ["traditional", FOUR_WITH_RAIN, 0, 0, 7],
      ["traditional", FOUR_WITH_RAIN, 2, 0, 7],
      ["traditional", FOUR_WITH_RAIN, 0, 2, 14],
      ["traditional", FOUR_NO_RAIN, 0, 0, 16],
      ["traditional", FOUR_NO_RAIN, 0, 1, 32],
      ["traditional", FOUR_NO_RAIN, 1, 0, 16],
    ]) {
      assert.equal(scorePile(pile, PRESETS.get(preset), { ownCalls: own, opponentCalls: opponent }).final, final, `${preset} ${pile} ${own} ${opponent}`);
    }
  });

  const BATCH = [
    [[CRANE, CURTAIN, MOON], {}, 0, 0, { yaku: { sanko: 5 }, total: 5, final: 5 }],
    [[CRANE, CURTAIN, MOON, RAINMAN], { preset: "single-deal" }, 0, 0, { yaku: { "ame-shiko": 8 }, total: 8, final: 8 }],
    [[MOON, SAKE], { preset: "classic", viewing_cancelled_by: ["rainman"] }, 0, 0, { yaku: { tsukimi: 5 }, total: 5, final: 5 }],
    [[...POETRY, "wisteria-ribbon", "iris-ribbon"], { preset: "traditional" }, 0, 1, { yaku: { akatan: 7, tan: 1 }, total: 8, final: 32 }],
    [[...INO, "plum-warbler", "iris-bridge"], { preset: "ten-card" }, 1, 1, { yaku: { inoshikacho: 5, tane: 5 }, total: 10, final: 40 }],
  ];

  test("the worked examples of score-batch, copied in", () => {
    for (const [pile, mapping, own, opponent, expected] of BATCH) {
      assert.deepEqual(scorePile(pile, RuleSet.fromMapping(mapping), { ownCalls: own, opponentCalls: opponent }), expected);
    }
  });

  // docs/examples: koikoi score --batch (classic where a line has no rules) and the same
  // with --rules traditional. Lines that are refused must be refused with the same message.
  for (const [name, fallback] of [
    ["score-batch", "classic"],
    ["score-batch-traditional", "traditional"],
  ]) {
    test(`the worked examples of docs/examples/${name}`, () => {
      const lines = (file) => readFileSync(path.join(EXAMPLES, file), "utf8").split("\n").filter(Boolean);
      const inputs = lines(`${name}.in.jsonl`);
      const outputs = lines(`${name}.out.jsonl`).map((line) => JSON.parse(line));
      assert.equal(inputs.length, outputs.length);
      let scored = 0;
      inputs.forEach((text, i) => {
        let input;
        try {
          input = JSON.parse(text);
        } catch {
          assert.ok("error" in outputs[i], text); // not JSON: the command's own message
          return;
        }
        const run = () =>
          scorePile(input.cards, "rules" in input ? RuleSet.fromMapping(input.rules) : PRESETS.get(fallback), {
            ownCalls: input.own_calls ?? 0,
            opponentCalls: input.opponent_calls ?? 0,
            month: input.month ?? 0,
          });
        if ("error" in outputs[i]) {
          assert.throws(run, (error) => error.message === outputs[i].error, text);
          return;
        }
        const result = run();
        assert.deepEqual(result, outputs[i], text);
        assert.equal(JSON.stringify(result.yaku), JSON.stringify(outputs[i].yaku), `${text}: the same key order`);
        scored++;
      });
      assert.ok(scored >= 4, `${scored}`);
    });
  }
});

// -- properties, on seeded random draws --------------------------------------------------------

const SCORING_CHOICES = {
  ...Object.fromEntries(
    ["goko", "shiko", "ame_shiko", "sanko", "inoshikacho", "tane", "tan", "kasu", "akatan", "aotan", "akatan_aotan", "kusatan", "tsukimi", "hanami", "tsukifuda"].map(
      (key) => [key, (rng) => rng.randbelow(16)],
    ),
  ),
  ...Object.fromEntries(["tane_extra", "tan_extra", "kasu_extra"].map((key) => [key, (rng) => rng.randbelow(4)])),
  ...Object.fromEntries(["tane_min", "tan_min", "kasu_min"].map((key) => [key, (rng) => 1 + rng.randbelow(12)])),
  ...Object.fromEntries(
    ["inoshikacho_extra", "ribbon_set_extra", "akatan_aotan_replaces", "lightning_is_kasu", "brights_exclusive"].map((key) => [
      key,
      (rng) => rng.randbelow(2) === 1,
    ]),
  ),
  double_at: (rng) => rng.randbelow(21),
  viewing: (rng) => ["always", "off", "with-other-yaku"][rng.randbelow(3)],
  viewing_cancelled_by: (rng) => ["rainman", "lightning", "willow", "paulownia"].filter(() => rng.randbelow(2)),
  tsukifuda_month: (rng) => ["round", "any"][rng.randbelow(2)],
  sake_cup: (rng) => ["animal", "plain", "both"][rng.randbelow(3)],
  best_per_category: (rng) => ["none", "animals", "ribbons", "both"][rng.randbelow(4)],
};

/** Any preset with any scoring fields of §6 changed (test_yaku.py's scoring_rules). */
function drawRules(rng) {
  const names = [...PRESETS.keys()].sort();
  const base = PRESETS.get(names[rng.randbelow(names.length)]);
  const changes = {};
  for (const key of Object.keys(SCORING_CHOICES).sort()) if (rng.randbelow(3) === 0) changes[key] = SCORING_CHOICES[key](rng);
  return rulesOf(base, changes);
}

const INTERESTING = [...new Set([...BRIGHTS, ...INO, ...OTHER_ANIMALS, SAKE, ...POETRY, ...BLUE, ...GRASS, WILLOW_RIBBON, LIGHTNING, ...PLAINS.slice(0, 12), ...PAULOWNIA])];

function drawPile(rng) {
  const pool = rng.randbelow(2) ? SLUGS : INTERESTING;
  const keep = rng.randbelow(4); // sparse to dense piles
  return pool.filter(() => rng.randbelow(4) <= keep);
}

const ALL_ANIMALS = [...INO, ...OTHER_ANIMALS, SAKE];
const ALL_RIBBONS = [...POETRY, ...BLUE, ...GRASS, WILLOW_RIBBON];

/** docs/rules.md §3 and §6: the first enabled bright yaku that applies scores alone. */
function expectedBright(pile, r) {
  const count = pile.filter((card) => BRIGHTS.includes(card)).length;
  const rain = pile.includes(RAINMAN) ? 1 : 0;
  const ladder = [
    ["goko", r.goko, count === 5],
    ["shiko", r.shiko, count - rain >= 4],
    ["ame-shiko", r.ame_shiko, rain && count >= 4],
    ["sanko", r.sanko, count - rain >= 3],
  ];
  const out = {};
  for (const [key, points, applies] of ladder) {
    if (points && applies) {
      out[key] = points;
      if (r.brights_exclusive) break;
    }
  }
  return out;
}

/** Every yaku of §3 with the scoring fields of §6, from slugs (test_yaku.py's expected_yaku). */
function expectedYaku(pile, r, month) {
  const has = (card) => pile.includes(card);
  const all = (group) => group.every(has);
  const out = expectedBright(pile, r);
  const best = r.best_per_category;
  let animals = ALL_ANIMALS.filter(has);
  if (r.sake_cup === "plain") animals = animals.filter((card) => card !== SAKE);
  const inoshikacho = r.inoshikacho > 0 && all(INO);
  if (inoshikacho) out.inoshikacho = r.inoshikacho + (r.inoshikacho_extra ? animals.length - 3 : 0);
  if (r.tane && animals.length >= r.tane_min && !(inoshikacho && (best === "animals" || best === "both"))) {
    out.tane = r.tane + r.tane_extra * (animals.length - r.tane_min);
  }
  const ribbons = ALL_RIBBONS.filter(has).length;
  const extra = r.ribbon_set_extra ? ribbons - 3 : 0;
  const poetry = all(POETRY);
  const blue = all(BLUE);
  const six = r.akatan_aotan > 0 && poetry && blue;
  let sets = 0;
  if (six && r.akatan_aotan_replaces) {
    out["akatan-aotan"] = r.akatan_aotan + (r.ribbon_set_extra ? ribbons - 6 : 0);
    sets++;
  } else {
    if (poetry && r.akatan) {
      out.akatan = r.akatan + extra;
      sets++;
    }
    if (blue && r.aotan) {
      out.aotan = r.aotan + extra;
      sets++;
    }
    if (six) {
      out["akatan-aotan"] = r.akatan_aotan;
      sets++;
    }
  }
  if (all(GRASS) && r.kusatan) {
    out.kusatan = r.kusatan + extra;
    sets++;
  }
  const complete = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((m) => all(monthCards(m)));
  if (r.tsukifuda) {
    if (r.tsukifuda_month === "any") {
      if (complete.length) out.tsukifuda = r.tsukifuda * complete.length;
    } else if (complete.includes(month)) out.tsukifuda = r.tsukifuda;
  }
  if (r.tan && ribbons >= r.tan_min && !(sets && (best === "ribbons" || best === "both"))) {
    out.tan = r.tan + r.tan_extra * (ribbons - r.tan_min);
  }
  let plains = PLAINS.filter(has).length;
  if (r.lightning_is_kasu && has(LIGHTNING)) plains++;
  if (r.sake_cup !== "animal" && has(SAKE)) plains++;
  if (r.kasu && plains >= r.kasu_min) out.kasu = r.kasu + r.kasu_extra * (plains - r.kasu_min);
  const cancelling = r.viewing_cancelled_by.flatMap((name) => CANCELLED_CARDS[name]);
  const counts = { always: true, off: false, "with-other-yaku": Object.keys(out).length > 0 }[r.viewing];
  if (counts && !cancelling.some(has) && has(SAKE)) {
    if (r.tsukimi && has(MOON)) out.tsukimi = r.tsukimi;
    if (r.hanami && has(CURTAIN)) out.hanami = r.hanami;
  }
  return out;
}

describe("properties", () => {
  test("the scorer matches the rules written out card by card (600 draws)", () => {
    const rng = new random.PyRandom(2024);
    for (let n = 0; n < 600; n++) {
      const ruleSet = drawRules(rng);
      const pile = drawPile(rng);
      const month = rng.randbelow(13);
      same(score(pile, ruleSet, {}, { month }), expectedYaku(pile, ruleSet, month), `${JSON.stringify(ruleSet.toMapping())} ${pile} ${month}`);
    }
  });

  test("yaku with zero points never appear, and the total is their sum (300 draws)", () => {
    const rng = new random.PyRandom(5);
    const fields = { goko: "goko", shiko: "shiko", "ame-shiko": "ame_shiko", sanko: "sanko", inoshikacho: "inoshikacho", tane: "tane", tan: "tan", kasu: "kasu", akatan: "akatan", aotan: "aotan", "akatan-aotan": "akatan_aotan", kusatan: "kusatan", tsukimi: "tsukimi", hanami: "hanami", tsukifuda: "tsukifuda" };
    for (let n = 0; n < 300; n++) {
      const ruleSet = drawRules(rng);
      const result = scorePile(drawPile(rng), ruleSet, { month: rng.randbelow(13) });
      for (const [key, points] of Object.entries(result.yaku)) {
        assert.ok(points > 0, key);
        assert.ok(key in fields, key);
        assert.notEqual(ruleSet[fields[key]], 0, key);
      }
      assert.equal(result.total, sumValues(result.yaku));
    }
  });

  test("adding a card never lowers the total under the presets (400 draws)", () => {
    const rng = new random.PyRandom(8);
    const names = [...PRESETS.keys()].filter((name) => ["classic", "ten-card", "single-deal", "traditional"].includes(name));
    for (let n = 0; n < 400; n++) {
      const ruleSet = PRESETS.get(names[rng.randbelow(names.length)]);
      const pile = drawPile(rng);
      const extra = SLUGS[rng.randbelow(48)];
      const month = rng.randbelow(13);
      const before = scorePile(pile, ruleSet, { month });
      const after = scorePile([...new Set([...pile, extra])], ruleSet, { month });
      assert.ok(after.total >= before.total, `${pile} + ${extra}`);
      assert.ok(after.final >= before.final);
    }
  });

  test("house rules' suppression can lower a total", () => {
    for (const [pile, extra, changes] of [
      [[MOON, SAKE], RAINMAN, { viewing_cancelled_by: ["rainman"] }],
      [SEVEN_RIBBONS, "cherry-poetry", { best_per_category: "ribbons", akatan: 1 }],
      [[...INO.slice(0, 2), ...OTHER_ANIMALS], INO[2], { best_per_category: "animals", inoshikacho: 1 }],
      [[...POETRY, ...BLUE.slice(0, 2)], BLUE[2], { akatan_aotan: 3 }],
    ]) {
      const ruleSet = rulesOf(CLASSIC, changes);
      assert.ok(scorePile([...pile, extra], ruleSet).total < scorePile(pile, ruleSet).total, JSON.stringify(changes));
    }
  });
});

// -- progress toward yaku (what the table shows beside each pile) -----------------------------

describe("progress toward yaku", () => {
  test("progress names the nearest yaku and what they lack", () => {
    assert.deepEqual(progressOf([CRANE, CURTAIN, "pine-poetry", "plum-poetry"]), [
      { yaku: "sanko", missing: 1, points: 5, kind: "bright", cards: null },
      { yaku: "akatan", missing: 1, points: 5, kind: "ribbon", cards: ["cherry-poetry"] },
      { yaku: "hanami", missing: 1, points: 5, kind: "animal", cards: [SAKE] },
    ]);
    const four = progressOf([...BLUE.slice(0, 2), ...GRASS.slice(0, 2)]);
    assert.ok(four.some((entry) => JSON.stringify(entry) === JSON.stringify({ yaku: "tan", missing: 1, points: 1, kind: "ribbon", cards: null })));
    assert.deepEqual(progressOf([MOON])[0], { yaku: "tsukimi", missing: 1, points: 5, kind: "animal", cards: [SAKE] });
  });

  test("progress leaves out what the opponent made impossible", () => {
    assert.ok(!progressOf(POETRY.slice(0, 2), [POETRY[2]]).some((entry) => entry.yaku === "akatan"));
    const brights = progressOf([CRANE, CURTAIN], [MOON, PHOENIX]).map((entry) => entry.yaku);
    for (const key of ["goko", "shiko", "ame-shiko", "sanko"]) assert.ok(!brights.includes(key), key);
  });

  test("progress follows the rules in play", () => {
    const names = (found) => found.map((entry) => entry.yaku);
    assert.ok(!names(progressOf([MOON], [], RuleSet.fromMapping({ tsukimi: 0 }))).includes("tsukimi"));
    const cancelled = names(progressOf([MOON, RAINMAN], [], RuleSet.fromMapping({ viewing_cancelled_by: ["rainman"] })));
    assert.ok(!cancelled.includes("tsukimi") && !cancelled.includes("hanami"));
    assert.ok(names(progressOf([MOON, RAINMAN])).includes("tsukimi"));
    const tane = progressOf(OTHER_ANIMALS.slice(0, 4), [], RuleSet.fromMapping({ sake_cup: "plain" }))[0];
    assert.deepEqual([tane.yaku, tane.missing, tane.kind], ["tane", 1, "animal"]);
    const pines = ["pine-crane", "pine-poetry", "pine-plain-1"];
    const tsukifuda = RuleSet.fromMapping({ tsukifuda: 4 });
    assert.equal(progressOf(pines, [], tsukifuda, 1)[0].yaku, "tsukifuda");
    assert.ok(!names(progressOf(pines, [], tsukifuda, 2)).includes("tsukifuda"));
    const anywhere = names(progressOf(pines, [], RuleSet.fromMapping({ tsukifuda: 4, tsukifuda_month: "any" })));
    assert.equal(anywhere.filter((key) => key === "tsukifuda").length, 1);
  });

  test("progress names akatan-aotan where it replaces the second set", () => {
    const replacing = RuleSet.fromMapping({ akatan_aotan: 10, akatan_aotan_replaces: true });
    for (const [own, second] of [
      [POETRY, "aotan"],
      [BLUE, "akatan"],
    ]) {
      const goals = progressOf(own, [], replacing, 0, 20).map((entry) => entry.yaku);
      assert.ok(!goals.includes(second));
      assert.ok(goals.includes("akatan-aotan"));
      assert.ok(progressOf(own, [], CLASSIC, 0, 20).map((entry) => entry.yaku).includes(second));
    }
  });

  // A pile that holds shiko cannot make ame-shiko: with the rain man it holds all five
  // brights and scores goko alone (both engines once offered ame-shiko here).
  test("progress offers no bright yaku that its cards would pass over", () => {
    const own = [CRANE, CURTAIN, MOON, PHOENIX];
    same(score(own), { shiko: 8 });
    same(score([...own, RAINMAN]), { goko: 10 });
    const goals = progressOf(own, [], CLASSIC, 0, 20).map((entry) => entry.yaku);
    assert.ok(goals.includes("goko"));
    assert.ok(!goals.includes("ame-shiko"), `offered: ${goals}`);
  });

  test("progress is reachable and nearest first (300 draws)", () => {
    const rng = new random.PyRandom(13);
    const names = [...PRESETS.keys()].sort();
    for (let n = 0; n < 300; n++) {
      const shuffled = [...SLUGS];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = rng.randbelow(i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
      }
      const taken = shuffled.slice(0, rng.randbelow(31));
      const split = rng.randbelow(taken.length + 1);
      const own = taken.slice(0, split);
      const theirs = taken.slice(split);
      const ruleSet = PRESETS.get(names[rng.randbelow(names.length)]);
      const month = rng.randbelow(13);
      const found = progressOf(own, theirs, ruleSet, month);
      assert.ok(found.length <= 3);
      const missing = found.map((entry) => entry.missing);
      assert.deepEqual(missing, [...missing].sort((a, b) => a - b));
      const made = score(own, ruleSet, {}, { month });
      for (const entry of found) {
        assert.ok(!(entry.yaku in made));
        assert.ok(entry.missing >= 1);
        if (entry.cards !== null) {
          assert.ok(!entry.cards.some((card) => own.includes(card) || theirs.includes(card)));
          assert.equal(entry.cards.length, entry.missing);
          const after = score([...own, ...entry.cards], ruleSet, {}, { month });
          // The cards named make the yaku, a bright one included (no higher level
          // passes over it).
          assert.ok(entry.yaku in after, entry.yaku);
        }
      }
    }
  });
});
