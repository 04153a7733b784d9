// The 48 Hanafuda cards and sets of them (cards.py).
//
// Card i is (month - 1) * 4 + index, the index in the order of docs/rules.md §1. A set of
// cards is Python's 48-bit int split in two 24-bit halves, lo (cards 0-23, months 1-6)
// and hi (cards 24-47, months 7-12): JavaScript's bit operators work on 32 bits, and a
// whole month always lies in one half, so matching a card is one & on one half.
// BigInt would hold the 48 bits in one value but is many times slower in the hot path.
// hi * 2**24 + lo is the Python int of the same set (see toNumber).

import { closeMatches, pyRepr } from "./pytext.js";

export const CARD_COUNT = 48;
export const MONTH_COUNT = 12;
export const HALF_BITS = 24;
export const HALF_MASK = 0xffffff;
const HALF_SCALE = 16777216; // 2 ** 24

export const KIND_VALUES = Object.freeze({ bright: 20, animal: 10, ribbon: 5, plain: 1 });

export const FLOWERS = Object.freeze([
  "pine", "plum", "cherry", "wisteria", "iris", "peony",
  "clover", "susuki", "chrysanthemum", "maple", "willow", "paulownia",
]);

const B = "bright";
const A = "animal";
const R = "ribbon";
const P = "plain";
// [name suffix, kind] for the four cards of each month, in canonical order.
const MONTH_CARDS = [
  [["crane", B], ["poetry", R], ["plain-1", P], ["plain-2", P]],
  [["warbler", A], ["poetry", R], ["plain-1", P], ["plain-2", P]],
  [["curtain", B], ["poetry", R], ["plain-1", P], ["plain-2", P]],
  [["cuckoo", A], ["ribbon", R], ["plain-1", P], ["plain-2", P]],
  [["bridge", A], ["ribbon", R], ["plain-1", P], ["plain-2", P]],
  [["butterflies", A], ["blue", R], ["plain-1", P], ["plain-2", P]],
  [["boar", A], ["ribbon", R], ["plain-1", P], ["plain-2", P]],
  [["moon", B], ["geese", A], ["plain-1", P], ["plain-2", P]],
  [["sake", A], ["blue", R], ["plain-1", P], ["plain-2", P]],
  [["deer", A], ["blue", R], ["plain-1", P], ["plain-2", P]],
  [["rainman", B], ["swallow", A], ["ribbon", R], ["lightning", P]],
  [["phoenix", B], ["plain-1", P], ["plain-2", P], ["plain-3", P]],
];

/** What is printed on each card: id, month, flower, kind, slug. */
export const CARDS = Object.freeze(
  MONTH_CARDS.flatMap((cards, m) =>
    cards.map(([suffix, kind], index) =>
      Object.freeze({ id: m * 4 + index, month: m + 1, flower: FLOWERS[m], kind, slug: `${FLOWERS[m]}-${suffix}` }),
    ),
  ),
);
export const SLUGS = Object.freeze(CARDS.map((card) => card.slug));
const ID_BY_SLUG = new Map(SLUGS.map((slug, id) => [slug, id]));

/** CARD_VALUES[id]: the traditional value (20, 10, 5 or 1). */
export const CARD_VALUES = Object.freeze(CARDS.map((card) => KIND_VALUES[card.kind]));
/** MONTH_OF[id]: the card's month, 1 to 12. */
export const MONTH_OF = Object.freeze(CARDS.map((card) => card.month));
/** HALF_OF[id]: 0 when the card is in lo, 1 in hi. */
export const HALF_OF = Object.freeze(CARDS.map((card) => (card.id < HALF_BITS ? 0 : 1)));
/** BIT_OF[id]: the card's bit within its half. */
export const BIT_OF = Object.freeze(CARDS.map((card) => 1 << card.id % HALF_BITS));
/** MONTH_BITS_OF[id]: the four cards of that card's month, within the card's half. */
export const MONTH_BITS_OF = Object.freeze(CARDS.map((card) => 0b1111 << ((card.month - 1) % 6) * 4));

/** A set from card ids, as [lo, hi]. */
export function setOf(cardIds) {
  const set = [0, 0];
  for (const id of cardIds) set[HALF_OF[id]] |= BIT_OF[id];
  return set;
}

/** MONTH_MASKS[m]: the four cards of month m as [lo, hi] (index 0 is the empty set). */
export const MONTH_MASKS = Object.freeze([
  Object.freeze([0, 0]),
  ...FLOWERS.map((_, m) => Object.freeze(setOf([m * 4, m * 4 + 1, m * 4 + 2, m * 4 + 3]))),
]);

function maskOfKind(kind) {
  return Object.freeze(setOf(CARDS.filter((card) => card.kind === kind).map((card) => card.id)));
}

export const BRIGHTS = maskOfKind(B);
export const ANIMALS = maskOfKind(A);
export const RIBBONS = maskOfKind(R);
export const PLAINS = maskOfKind(P);
export const KIND_MASKS = Object.freeze({ bright: BRIGHTS, animal: ANIMALS, ribbon: RIBBONS, plain: PLAINS });

export const PINE_CRANE = 0;
export const CHERRY_CURTAIN = 8;
export const PEONY_BUTTERFLIES = 20;
export const CLOVER_BOAR = 24;
export const SUSUKI_MOON = 28;
export const CHRYSANTHEMUM_SAKE = 32;
export const MAPLE_DEER = 36;
export const WILLOW_RAINMAN = 40;
export const WILLOW_LIGHTNING = 43;
export const PAULOWNIA_PHOENIX = 44;
export const SAKE_CUP = CHRYSANTHEMUM_SAKE;
export const RAINMAN = WILLOW_RAINMAN;
export const LIGHTNING = WILLOW_LIGHTNING;

export const INOSHIKACHO = Object.freeze(setOf([CLOVER_BOAR, MAPLE_DEER, PEONY_BUTTERFLIES]));
/** The red poem ribbons of pine, plum and cherry (akatan). */
export const POETRY_RIBBONS = Object.freeze(setOf([1, 5, 9]));
/** The blue ribbons of peony, chrysanthemum and maple (aotan). */
export const BLUE_RIBBONS = Object.freeze(setOf([21, 33, 37]));
/** The plain red ribbons of wisteria, iris and clover (kusatan). */
export const GRASS_RIBBONS = Object.freeze(setOf([13, 17, 25]));

/** The number of set bits of a 32-bit int. */
export function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** The cards of a set, lowest id first. */
export function ids(lo, hi) {
  const out = [];
  while (lo) {
    const bit = lo & -lo;
    out.push(31 - Math.clz32(bit));
    lo ^= bit;
  }
  while (hi) {
    const bit = hi & -hi;
    out.push(HALF_BITS + 31 - Math.clz32(bit));
    hi ^= bit;
  }
  return out;
}

/** The slugs of a set, in canonical order. */
export function slugs(lo, hi) {
  return ids(lo, hi).map((id) => SLUGS[id]);
}

/** The Python int of a set (exact: 48 bits fit a double). */
export function toNumber(lo, hi) {
  return hi * HALF_SCALE + lo;
}

/** A set from its Python int, as [lo, hi]. */
export function fromNumber(n) {
  return [n % HALF_SCALE, Math.floor(n / HALF_SCALE)];
}

/** A card slug or id that names no card. */
export class UnknownCardError extends Error {
  constructor(message) {
    super(message);
    this.name = "UnknownCardError";
  }
}

/** The id of the card with this slug; a typo gets the nearest real slug suggested. */
export function cardFromSlug(slug) {
  const id = typeof slug === "string" ? ID_BY_SLUG.get(slug) : undefined;
  if (id === undefined) throw new UnknownCardError(unknownSlugMessage(slug));
  return id;
}

function unknownSlugMessage(slug) {
  const message = `unknown card ${pyRepr(slug)}`;
  if (typeof slug === "string") {
    const close = closeMatches(slug.toLowerCase(), SLUGS, 1, 0.5);
    if (close.length) return `${message}; did you mean ${pyRepr(close[0])}?`;
  }
  return `${message}; card slugs look like 'pine-crane' or 'maple-plain-2'`;
}

/** The set of the named cards as [lo, hi]; a slug named twice is an error. */
export function cardsFromSlugs(names) {
  const set = [0, 0];
  for (const slug of names) {
    const id = cardFromSlug(slug);
    const half = HALF_OF[id];
    if (set[half] & BIT_OF[id]) throw new UnknownCardError(`card ${pyRepr(slug)} is named twice`);
    set[half] |= BIT_OF[id];
  }
  return set;
}
