// The deck of docs/rules.md §1 in the browser's engine (engine/cards.js), as
// tests/test_cards.py holds the Python engine to it: 48 cards, their ids, slugs, kinds
// and months, the named card sets, CardSet and its operations, and unknown slugs named
// with the nearest real one suggested.
//
//   node --test tests/js/
//
// The engine is src/koikoi/web/engine/, or the folder KOIKOI_JS_ENGINE names.

import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ENGINE = path.resolve(process.env.KOIKOI_JS_ENGINE || path.join(HERE, "../../src/koikoi/web/engine"));
const cards = await import(pathToFileURL(path.join(ENGINE, "cards.js")).href);
const { CardSet, SLUGS, UnknownCardError, cardFromSlug, cardsFromSlugs } = cards;

const [B, A, R, P] = ["bright", "animal", "ribbon", "plain"];

// docs/rules.md §1, month by month, in the canonical index order: [slug, kind].
const DECK = [
  [1, "pine", [["pine-crane", B], ["pine-poetry", R], ["pine-plain-1", P], ["pine-plain-2", P]]],
  [2, "plum", [["plum-warbler", A], ["plum-poetry", R], ["plum-plain-1", P], ["plum-plain-2", P]]],
  [3, "cherry", [["cherry-curtain", B], ["cherry-poetry", R], ["cherry-plain-1", P], ["cherry-plain-2", P]]],
  [4, "wisteria", [["wisteria-cuckoo", A], ["wisteria-ribbon", R], ["wisteria-plain-1", P], ["wisteria-plain-2", P]]],
  [5, "iris", [["iris-bridge", A], ["iris-ribbon", R], ["iris-plain-1", P], ["iris-plain-2", P]]],
  [6, "peony", [["peony-butterflies", A], ["peony-blue", R], ["peony-plain-1", P], ["peony-plain-2", P]]],
  [7, "clover", [["clover-boar", A], ["clover-ribbon", R], ["clover-plain-1", P], ["clover-plain-2", P]]],
  [8, "susuki", [["susuki-moon", B], ["susuki-geese", A], ["susuki-plain-1", P], ["susuki-plain-2", P]]],
  [
    9,
    "chrysanthemum",
    [["chrysanthemum-sake", A], ["chrysanthemum-blue", R], ["chrysanthemum-plain-1", P], ["chrysanthemum-plain-2", P]],
  ],
  [10, "maple", [["maple-deer", A], ["maple-blue", R], ["maple-plain-1", P], ["maple-plain-2", P]]],
  [11, "willow", [["willow-rainman", B], ["willow-swallow", A], ["willow-ribbon", R], ["willow-lightning", P]]],
  [12, "paulownia", [["paulownia-phoenix", B], ["paulownia-plain-1", P], ["paulownia-plain-2", P], ["paulownia-plain-3", P]]],
];

// [id, month, flower, slug, kind] of every card, from the table alone.
const TABLE = DECK.flatMap(([month, flower, monthCards]) =>
  monthCards.map(([slug, kind], index) => [(month - 1) * 4 + index, month, flower, slug, kind]),
);
const ID_OF = new Map(TABLE.map(([id, , , slug]) => [slug, id]));

/** A set built from the §1 table alone (not through the slug lookup under test). */
function setOf(names) {
  let lo = 0;
  let hi = 0;
  for (const name of names) {
    const id = ID_OF.get(name);
    if (id < 24) lo |= 1 << id;
    else hi |= 1 << (id - 24);
  }
  return new CardSet(lo, hi);
}

/** The Python int of a set of ids, exactly (as BigInt). */
function pythonInt(ids) {
  return ids.reduce((n, id) => n | (1n << BigInt(id)), 0n);
}

/** A seeded generator of 32-bit numbers (mulberry32), for sets drawn at random. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** ``count`` random sets of card ids (each card in with probability one half, or fewer). */
function randomIdSets(count, seed) {
  const next = generator(seed);
  const sets = [[], Array.from({ length: 48 }, (_, i) => i)];
  while (sets.length < count) {
    const density = next() % 4; // 0: sparse ... 3: dense
    sets.push(Array.from({ length: 48 }, (_, i) => i).filter(() => next() % 4 < density + 1 && next() % 2 === 0));
  }
  return sets;
}

describe("the deck", () => {
  test("has 48 cards with ids in canonical order and distinct slugs", () => {
    assert.equal(cards.CARDS.length, 48);
    assert.equal(SLUGS.length, 48);
    assert.deepEqual(
      cards.CARDS.map((card) => card.id),
      Array.from({ length: 48 }, (_, i) => i),
    );
    assert.equal(new Set(SLUGS).size, 48);
    assert.equal(cards.CARD_COUNT, 48);
    assert.equal(cards.MONTH_COUNT, 12);
  });

  for (const [id, month, flower, slug, kind] of TABLE) {
    test(`card ${id} is ${slug} of the rules' table`, () => {
      const card = cards.CARDS[id];
      assert.equal(card.id, id);
      assert.equal(id, (month - 1) * 4 + (id % 4));
      assert.equal(card.month, month);
      assert.equal(cards.MONTH_OF[id], month);
      assert.equal(card.flower, flower);
      assert.equal(cards.FLOWERS[month - 1], flower);
      assert.equal(card.slug, slug);
      assert.equal(SLUGS[id], slug);
      assert.equal(card.kind, kind);
      assert.ok(CardSet.card(id).equals(setOf([slug])));
      assert.deepEqual(CardSet.card(id).ids(), [id]);
      assert.equal(cardFromSlug(slug), id);
    });
  }

  test("the tables cannot be changed", () => {
    assert.ok(Object.isFrozen(cards.CARDS));
    assert.ok(Object.isFrozen(cards.CARDS[0]));
    assert.ok(Object.isFrozen(SLUGS));
    assert.throws(() => {
      cards.CARDS[0].slug = "pine-crow";
    }, TypeError);
  });
});

describe("kinds", () => {
  const KINDS = [
    ["bright", 5, cards.BRIGHTS, 20],
    ["animal", 9, cards.ANIMALS, 10],
    ["ribbon", 10, cards.RIBBONS, 5],
    ["plain", 24, cards.PLAINS, 1],
  ];

  for (const [kind, count, mask, points] of KINDS) {
    test(`${count} cards are ${kind}s, each worth ${points}`, () => {
      assert.equal(cards.CARDS.filter((card) => card.kind === kind).length, count);
      assert.equal(mask.count(), count);
      assert.ok(mask.equals(setOf(TABLE.filter((row) => row[4] === kind).map((row) => row[3]))));
      assert.equal(cards.KIND_MASKS[kind], mask);
      assert.equal(cards.KIND_VALUES[kind], points);
      for (const id of mask.ids()) assert.equal(cards.CARD_VALUES[id], points);
    });
  }

  test("the kinds partition the deck", () => {
    const masks = KINDS.map(([, , mask]) => mask);
    assert.ok(masks.reduce((all, mask) => all.union(mask), new CardSet()).equals(cards.ALL_CARDS));
    masks.forEach((first, i) => {
      for (const second of masks.slice(i + 1)) assert.ok(!first.intersects(second));
    });
  });
});

describe("months", () => {
  for (const [month, flower, monthCards] of DECK) {
    test(`month ${month} holds the four ${flower} cards`, () => {
      const mask = cards.MONTH_MASKS[month];
      assert.ok(mask.equals(setOf(monthCards.map(([slug]) => slug))));
      assert.deepEqual(
        mask.slugs(),
        monthCards.map(([slug]) => slug),
      );
      assert.ok(mask.slugs().every((slug) => slug.startsWith(`${flower}-`)));
      for (const id of mask.ids()) assert.ok(cards.CARDS[id].month === month && mask.sameMonth(id).equals(mask));
    });
  }

  test("index zero is the empty set, and the months partition the deck", () => {
    assert.equal(cards.MONTH_MASKS.length, 13);
    assert.ok(cards.MONTH_MASKS[0].isEmpty());
    const union = new CardSet();
    for (let month = 1; month <= 12; month++) {
      assert.ok(!cards.MONTH_MASKS[month].intersects(union));
      union.addAll(cards.MONTH_MASKS[month]);
    }
    assert.ok(union.equals(cards.ALL_CARDS));
  });

  test("a month lies in one half: months 1-6 in lo, 7-12 in hi", () => {
    for (let month = 1; month <= 12; month++) {
      const mask = cards.MONTH_MASKS[month];
      assert.equal(month <= 6 ? mask.hi : mask.lo, 0);
    }
  });
});

describe("named cards and sets", () => {
  const NAMED = [
    ["BRIGHTS", ["pine-crane", "cherry-curtain", "susuki-moon", "willow-rainman", "paulownia-phoenix"]],
    ["POETRY_RIBBONS", ["pine-poetry", "plum-poetry", "cherry-poetry"]],
    ["BLUE_RIBBONS", ["peony-blue", "chrysanthemum-blue", "maple-blue"]],
    ["GRASS_RIBBONS", ["wisteria-ribbon", "iris-ribbon", "clover-ribbon"]],
    ["INOSHIKACHO", ["clover-boar", "maple-deer", "peony-butterflies"]],
  ];
  for (const [name, slugs] of NAMED) {
    test(`${name} is ${slugs.join(", ")}`, () => {
      assert.ok(cards[name].equals(setOf(slugs)));
      assert.ok(Object.isFrozen(cards[name]));
    });
  }

  const SINGLE = [
    ["PINE_CRANE", "pine-crane"],
    ["CHERRY_CURTAIN", "cherry-curtain"],
    ["SUSUKI_MOON", "susuki-moon"],
    ["WILLOW_RAINMAN", "willow-rainman"],
    ["RAINMAN", "willow-rainman"],
    ["PAULOWNIA_PHOENIX", "paulownia-phoenix"],
    ["CHRYSANTHEMUM_SAKE", "chrysanthemum-sake"],
    ["SAKE_CUP", "chrysanthemum-sake"],
    ["CLOVER_BOAR", "clover-boar"],
    ["MAPLE_DEER", "maple-deer"],
    ["PEONY_BUTTERFLIES", "peony-butterflies"],
    ["WILLOW_LIGHTNING", "willow-lightning"],
    ["LIGHTNING", "willow-lightning"],
  ];
  for (const [name, slug] of SINGLE) {
    test(`${name} is ${slug}`, () => {
      assert.equal(cards[name], ID_OF.get(slug));
    });
  }

  test("the named sets have the kinds of the rules", () => {
    for (const ribbons of [cards.POETRY_RIBBONS, cards.BLUE_RIBBONS, cards.GRASS_RIBBONS]) {
      assert.ok(cards.RIBBONS.hasAll(ribbons));
    }
    assert.ok(cards.ANIMALS.hasAll(cards.INOSHIKACHO));
    assert.ok(cards.ANIMALS.has(cards.SAKE_CUP));
    assert.ok(cards.PLAINS.has(cards.LIGHTNING));
    const six = cards.POETRY_RIBBONS.union(cards.BLUE_RIBBONS).union(cards.GRASS_RIBBONS);
    assert.ok(six.union(setOf(["willow-ribbon"])).equals(cards.RIBBONS));
  });

  test("the named sets are frozen: changing one throws", () => {
    assert.throws(() => cards.BRIGHTS.add(1), TypeError);
    assert.throws(() => cards.MONTH_MASKS[3].remove(8), TypeError);
    assert.throws(() => cards.NO_CARDS.addAll(cards.ALL_CARDS), TypeError);
    assert.equal(cards.BRIGHTS.count(), 5);
    // The operations that make a new set still work on them.
    assert.equal(cards.BRIGHTS.with(1).count(), 6);
  });
});

describe("slugs and sets", () => {
  test("convert both ways, in canonical order", () => {
    const pile = cardsFromSlugs(["maple-deer", "pine-crane", "willow-lightning"]);
    assert.ok(pile instanceof CardSet);
    assert.ok(pile.equals(setOf(["pine-crane", "maple-deer", "willow-lightning"])));
    assert.deepEqual(pile.slugs(), ["pine-crane", "maple-deer", "willow-lightning"]);
    assert.deepEqual(pile.ids(), [0, 36, 43]);
    assert.ok(cardsFromSlugs([]).isEmpty());
    assert.deepEqual(new CardSet().slugs(), []);
    assert.deepEqual(new CardSet().ids(), []);
    assert.equal(String(pile), "CardSet(pine-crane, maple-deer, willow-lightning)");
  });

  test("any set round-trips through ids, slugs and its Python int", () => {
    for (const ids of randomIdSets(500, 1)) {
      const set = CardSet.of(ids);
      const sorted = [...ids].sort((a, b) => a - b);
      assert.deepEqual(set.ids(), sorted);
      assert.equal(set.count(), ids.length);
      assert.equal(set.isEmpty(), ids.length === 0);
      assert.deepEqual(
        set.slugs(),
        sorted.map((id) => SLUGS[id]),
      );
      assert.ok(cardsFromSlugs(set.slugs()).equals(set));
      assert.ok(cardsFromSlugs([...set.slugs()].reverse()).equals(set));
      assert.equal(BigInt(set.toNumber()), pythonInt(ids));
      assert.ok(CardSet.fromNumber(Number(pythonInt(ids))).equals(set));
    }
  });

  test("the whole deck is the Python int 2**48 - 1", () => {
    assert.equal(cards.ALL_CARDS.toNumber(), 2 ** 48 - 1);
    assert.ok(CardSet.fromNumber(2 ** 48 - 1).equals(cards.ALL_CARDS));
    assert.equal(cards.ALL_CARDS.count(), 48);
    assert.ok(cards.ALL_CARDS.complement().isEmpty());
  });
});

describe("CardSet operations", () => {
  const sets = randomIdSets(200, 7).map((ids) => [ids, CardSet.of(ids)]);

  test("has, count, isEmpty and equals agree with the ids", () => {
    for (const [ids, set] of sets) {
      for (let id = 0; id < 48; id++) assert.equal(set.has(id), ids.includes(id));
      assert.equal(set.count(), new Set(ids).size);
      assert.ok(set.equals(CardSet.of([...ids].reverse())));
      assert.ok(set.equals(set.copy()));
    }
    assert.ok(!CardSet.of([1]).equals(CardSet.of([25])));
  });

  test("union, intersect, minus and complement are the set operations", () => {
    for (let i = 0; i + 1 < sets.length; i++) {
      const [a, x] = sets[i];
      const [b, y] = sets[i + 1];
      const idsOf = (predicate) => Array.from({ length: 48 }, (_, id) => id).filter(predicate);
      assert.deepEqual(x.union(y).ids(), idsOf((id) => a.includes(id) || b.includes(id)));
      assert.deepEqual(x.intersect(y).ids(), idsOf((id) => a.includes(id) && b.includes(id)));
      assert.deepEqual(x.minus(y).ids(), idsOf((id) => a.includes(id) && !b.includes(id)));
      assert.deepEqual(x.complement().ids(), idsOf((id) => !a.includes(id)));
      assert.equal(x.intersects(y), x.intersect(y).count() > 0);
      assert.equal(x.hasAll(y), y.minus(x).isEmpty());
      assert.ok(x.hasAll(x.intersect(y)));
      // Python's & | ~ on ints say the same.
      assert.equal(BigInt(x.union(y).toNumber()), pythonInt(a) | pythonInt(b));
      assert.equal(BigInt(x.intersect(y).toNumber()), pythonInt(a) & pythonInt(b));
    }
  });

  test("operations named for their result leave both sets as they were", () => {
    const x = CardSet.of([0, 9, 30]);
    const y = CardSet.of([9, 44]);
    for (const made of [x.union(y), x.intersect(y), x.minus(y), x.complement(), x.with(5), x.without(9), x.copy(), x.sameMonth(8)]) {
      assert.ok(made instanceof CardSet);
      assert.notEqual(made, x);
    }
    assert.deepEqual(x.ids(), [0, 9, 30]);
    assert.deepEqual(y.ids(), [9, 44]);
    assert.deepEqual(x.with(5).ids(), [0, 5, 9, 30]);
    assert.deepEqual(x.with(9).ids(), [0, 9, 30]);
    assert.deepEqual(x.without(30).ids(), [0, 9]);
    assert.deepEqual(x.without(31).ids(), [0, 9, 30]);
  });

  test("add, remove and addAll change the set in place and return it", () => {
    const set = new CardSet();
    assert.equal(set.add(3), set);
    assert.equal(set.add(40).add(3), set);
    assert.deepEqual(set.ids(), [3, 40]);
    assert.equal(set.remove(3), set);
    assert.equal(set.remove(17), set);
    assert.deepEqual(set.ids(), [40]);
    assert.equal(set.addAll(CardSet.of([1, 47])), set);
    assert.deepEqual(set.ids(), [1, 40, 47]);
    const copy = set.copy();
    copy.add(2);
    assert.deepEqual(set.ids(), [1, 40, 47]);
  });

  test("sameMonth and monthCounts look at months", () => {
    const set = cardsFromSlugs(["pine-crane", "pine-plain-1", "maple-deer", "willow-rainman", "willow-swallow", "willow-lightning"]);
    assert.deepEqual(set.sameMonth(cardFromSlug("pine-poetry")).slugs(), ["pine-crane", "pine-plain-1"]);
    assert.deepEqual(set.sameMonth(cardFromSlug("willow-ribbon")).slugs(), ["willow-rainman", "willow-swallow", "willow-lightning"]);
    assert.ok(set.sameMonth(cardFromSlug("plum-warbler")).isEmpty());
    assert.deepEqual(set.monthCounts(), [2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0]);
    assert.deepEqual(cards.ALL_CARDS.monthCounts(), Array(12).fill(4));
    for (const [ids, random] of sets) {
      const counts = Array(12).fill(0);
      for (const id of ids) counts[cards.MONTH_OF[id] - 1]++;
      assert.deepEqual(random.monthCounts(), counts);
    }
  });

  test("of, card and fromNumber build sets", () => {
    assert.ok(CardSet.of([]).isEmpty());
    assert.ok(CardSet.of(new Set([47, 0])).equals(new CardSet(1, 1 << 23)));
    assert.ok(CardSet.card(24).equals(new CardSet(0, 1)));
    assert.ok(CardSet.card(23).equals(new CardSet(1 << 23, 0)));
    assert.ok(CardSet.fromNumber(2 ** 24).equals(CardSet.card(24)));
    assert.equal(new CardSet(0, 1).toNumber(), 2 ** 24);
  });
});

describe("unknown cards", () => {
  const TYPOS = [
    ["pine-cran", "pine-crane"],
    ["susuki-mon", "susuki-moon"],
    ["willow-rainmen", "willow-rainman"],
    ["maple-deers", "maple-deer"],
    ["Pine-Crane", "pine-crane"],
  ];
  for (const [typo, nearest] of TYPOS) {
    test(`${typo} is named and ${nearest} suggested`, () => {
      assert.throws(
        () => cardFromSlug(typo),
        (error) => {
          assert.ok(error instanceof UnknownCardError);
          assert.equal(error.name, "UnknownCardError");
          assert.equal(error.message, `unknown card '${typo}'; did you mean '${nearest}'?`);
          return true;
        },
      );
      assert.throws(() => cardsFromSlugs(["pine-crane", typo]), { name: "UnknownCardError", message: new RegExp(typo) });
    });
  }

  test("a slug like no card gets the form of a slug instead", () => {
    assert.throws(() => cardFromSlug("xyzzy"), {
      name: "UnknownCardError",
      message: "unknown card 'xyzzy'; card slugs look like 'pine-crane' or 'maple-plain-2'",
    });
    assert.throws(() => cardFromSlug(7), { message: "unknown card 7; card slugs look like 'pine-crane' or 'maple-plain-2'" });
    assert.throws(() => cardFromSlug(null), { message: /^unknown card None;/ });
  });

  test("an unknown card error is an Error", () => {
    assert.throws(() => cardFromSlug("xyzzy"), Error);
  });

  test("a card named twice is an error naming it", () => {
    assert.throws(() => cardsFromSlugs(["maple-deer", "pine-crane", "maple-deer"]), {
      name: "UnknownCardError",
      message: "card 'maple-deer' is named twice",
    });
  });
});
