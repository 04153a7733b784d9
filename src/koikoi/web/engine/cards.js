// @ts-check
// The 48 Hanafuda cards and sets of them (cards.py).
//
// Card i is (month - 1) * 4 + index, the index in the order of docs/rules.md §1; the
// cards themselves (slugs, months, kinds) are tables.js's, written from cards.py. A set
// of cards is a CardSet: Python's 48-bit int split in two 24-bit halves, lo (cards 0-23,
// months 1-6) and hi (cards 24-47, months 7-12). JavaScript's bit operators work on 32
// bits, and a whole month always lies in one half, so matching a card is one & on one
// half. BigInt would hold the 48 bits in one value but is many times slower in the hot
// path. hi * 2**24 + lo is the Python int of the same set (see toNumber).

import { closeMatches, pyRepr } from "./pytext.js";
import {
  CARDS,
  CARD_COUNT,
  CHERRY_CURTAIN,
  CHRYSANTHEMUM_SAKE,
  CLOVER_BOAR,
  FLOWERS,
  KIND_VALUES,
  LIGHTNING,
  MAPLE_DEER,
  MONTH_COUNT,
  NAMED_SETS,
  PAULOWNIA_PHOENIX,
  PEONY_BUTTERFLIES,
  PINE_CRANE,
  RAINMAN,
  SAKE_CUP,
  SUSUKI_MOON,
  WILLOW_LIGHTNING,
  WILLOW_RAINMAN,
} from "./tables.js";

export {
  CARDS,
  CARD_COUNT,
  CHERRY_CURTAIN,
  CHRYSANTHEMUM_SAKE,
  CLOVER_BOAR,
  FLOWERS,
  KIND_VALUES,
  LIGHTNING,
  MAPLE_DEER,
  MONTH_COUNT,
  PAULOWNIA_PHOENIX,
  PEONY_BUTTERFLIES,
  PINE_CRANE,
  RAINMAN,
  SAKE_CUP,
  SUSUKI_MOON,
  WILLOW_LIGHTNING,
  WILLOW_RAINMAN,
};

/** @typedef {import("./tables.js").Kind} Kind */
/** @typedef {import("./tables.js").Card} Card */

export const HALF_BITS = 24;
export const HALF_MASK = 0xffffff;
const HALF_SCALE = 16777216; // 2 ** 24

/** Every card's slug, by id. */
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

/**
 * The number of set bits of a 32-bit int.
 * @param {number} x
 * @returns {number}
 */
export function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * A set of cards (cards.py's CardSet, an int there): ``lo`` holds cards 0-23 (bit i is
 * card i), ``hi`` cards 24-47 (bit i is card 24 + i).
 *
 * Methods named for a result (union, intersect, minus, with, without, copy) make a new
 * set; add, remove and addAll change this one. A set that is handed on (an observation's,
 * a round's hand) is the receiver's own: the engine never changes a set it gave away,
 * and the named sets below are frozen.
 */
export class CardSet {
  /**
   * @param {number} [lo] cards 0-23, bit i for card i
   * @param {number} [hi] cards 24-47, bit i for card 24 + i
   */
  constructor(lo = 0, hi = 0) {
    /** Cards 0-23 (months 1-6). */
    this.lo = lo;
    /** Cards 24-47 (months 7-12). */
    this.hi = hi;
  }

  /**
   * The set of these card ids.
   * @param {Iterable<number>} cardIds
   * @returns {CardSet}
   */
  static of(cardIds) {
    let lo = 0;
    let hi = 0;
    for (const id of cardIds) {
      if (HALF_OF[id]) hi |= BIT_OF[id];
      else lo |= BIT_OF[id];
    }
    return new CardSet(lo, hi);
  }

  /**
   * The set of one card.
   * @param {number} id
   * @returns {CardSet}
   */
  static card(id) {
    return HALF_OF[id] ? new CardSet(0, BIT_OF[id]) : new CardSet(BIT_OF[id], 0);
  }

  /**
   * A set from its Python int (an integer from 0 to 2**48 - 1).
   * @param {number} n
   * @returns {CardSet}
   */
  static fromNumber(n) {
    return new CardSet(n % HALF_SCALE, Math.floor(n / HALF_SCALE));
  }

  /** The Python int of this set (exact: 48 bits fit a double). */
  toNumber() {
    return this.hi * HALF_SCALE + this.lo;
  }

  /**
   * Whether the card is in the set.
   * @param {number} id
   */
  has(id) {
    return ((HALF_OF[id] ? this.hi : this.lo) & BIT_OF[id]) !== 0;
  }

  /** How many cards the set holds. */
  count() {
    return popcount(this.lo) + popcount(this.hi);
  }

  isEmpty() {
    return (this.lo | this.hi) === 0;
  }

  /** @param {CardSet} other */
  equals(other) {
    return this.lo === other.lo && this.hi === other.hi;
  }

  /**
   * Whether the two sets share a card.
   * @param {CardSet} other
   */
  intersects(other) {
    return ((this.lo & other.lo) | (this.hi & other.hi)) !== 0;
  }

  /**
   * Whether every card of ``other`` is in this set.
   * @param {CardSet} other
   */
  hasAll(other) {
    return (this.lo & other.lo) === other.lo && (this.hi & other.hi) === other.hi;
  }

  /**
   * The cards in either set.
   * @param {CardSet} other
   * @returns {CardSet}
   */
  union(other) {
    return new CardSet(this.lo | other.lo, this.hi | other.hi);
  }

  /**
   * The cards in both sets.
   * @param {CardSet} other
   * @returns {CardSet}
   */
  intersect(other) {
    return new CardSet(this.lo & other.lo, this.hi & other.hi);
  }

  /**
   * The cards of this set that are not in ``other``.
   * @param {CardSet} other
   * @returns {CardSet}
   */
  minus(other) {
    return new CardSet(this.lo & ~other.lo, this.hi & ~other.hi);
  }

  /**
   * The cards of the deck that are not in this set.
   * @returns {CardSet}
   */
  complement() {
    return new CardSet(~this.lo & HALF_MASK, ~this.hi & HALF_MASK);
  }

  /**
   * This set and the card.
   * @param {number} id
   * @returns {CardSet}
   */
  with(id) {
    return HALF_OF[id] ? new CardSet(this.lo, this.hi | BIT_OF[id]) : new CardSet(this.lo | BIT_OF[id], this.hi);
  }

  /**
   * This set without the card.
   * @param {number} id
   * @returns {CardSet}
   */
  without(id) {
    return HALF_OF[id] ? new CardSet(this.lo, this.hi & ~BIT_OF[id]) : new CardSet(this.lo & ~BIT_OF[id], this.hi);
  }

  /**
   * The cards of this set in the card's month.
   * @param {number} id
   * @returns {CardSet}
   */
  sameMonth(id) {
    return HALF_OF[id] ? new CardSet(0, this.hi & MONTH_BITS_OF[id]) : new CardSet(this.lo & MONTH_BITS_OF[id], 0);
  }

  /** @returns {CardSet} */
  copy() {
    return new CardSet(this.lo, this.hi);
  }

  /**
   * Put the card in this set (in place).
   * @param {number} id
   * @returns {this}
   */
  add(id) {
    if (HALF_OF[id]) this.hi |= BIT_OF[id];
    else this.lo |= BIT_OF[id];
    return this;
  }

  /**
   * Take the card out of this set (in place).
   * @param {number} id
   * @returns {this}
   */
  remove(id) {
    if (HALF_OF[id]) this.hi &= ~BIT_OF[id];
    else this.lo &= ~BIT_OF[id];
    return this;
  }

  /**
   * Put every card of ``other`` in this set (in place).
   * @param {CardSet} other
   * @returns {this}
   */
  addAll(other) {
    this.lo |= other.lo;
    this.hi |= other.hi;
    return this;
  }

  /**
   * The card ids, lowest first.
   * @returns {number[]}
   */
  ids() {
    const out = [];
    let lo = this.lo;
    let hi = this.hi;
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

  /**
   * The slugs, in canonical order.
   * @returns {string[]}
   */
  slugs() {
    return this.ids().map((id) => SLUGS[id]);
  }

  /**
   * How many cards of each month (January first) the set holds (cards.py's month_counts).
   * @returns {number[]}
   */
  monthCounts() {
    const counts = [];
    for (let m = 0; m < 6; m++) counts.push(popcount((this.lo >>> (m * 4)) & 15));
    for (let m = 0; m < 6; m++) counts.push(popcount((this.hi >>> (m * 4)) & 15));
    return counts;
  }

  toString() {
    return `CardSet(${this.slugs().join(", ")})`;
  }
}

/**
 * A frozen set of these card ids, for the named sets.
 * @param {Iterable<number>} cardIds
 * @returns {Readonly<CardSet>}
 */
function named(cardIds) {
  return Object.freeze(CardSet.of(cardIds));
}

/** The empty set (frozen). */
export const NO_CARDS = Object.freeze(new CardSet(0, 0));
/** The whole deck (frozen). */
export const ALL_CARDS = Object.freeze(new CardSet(HALF_MASK, HALF_MASK));

/** MONTH_MASKS[m]: the four cards of month m (index 0 is the empty set). */
export const MONTH_MASKS = Object.freeze([
  NO_CARDS,
  ...FLOWERS.map((_, m) => named([m * 4, m * 4 + 1, m * 4 + 2, m * 4 + 3])),
]);

/**
 * @param {Kind} kind
 * @returns {Readonly<CardSet>}
 */
function maskOfKind(kind) {
  return named(CARDS.filter((card) => card.kind === kind).map((card) => card.id));
}

export const BRIGHTS = maskOfKind("bright");
export const ANIMALS = maskOfKind("animal");
export const RIBBONS = maskOfKind("ribbon");
export const PLAINS = maskOfKind("plain");
/** The cards of each kind. */
export const KIND_MASKS = Object.freeze({ bright: BRIGHTS, animal: ANIMALS, ribbon: RIBBONS, plain: PLAINS });

/** Boar, deer and butterflies. */
export const INOSHIKACHO = named(NAMED_SETS.INOSHIKACHO);
/** The red poem ribbons of pine, plum and cherry (akatan). */
export const POETRY_RIBBONS = named(NAMED_SETS.POETRY_RIBBONS);
/** The blue ribbons of peony, chrysanthemum and maple (aotan). */
export const BLUE_RIBBONS = named(NAMED_SETS.BLUE_RIBBONS);
/** The plain red ribbons of wisteria, iris and clover (kusatan). */
export const GRASS_RIBBONS = named(NAMED_SETS.GRASS_RIBBONS);

/** A card slug or id that names no card. */
export class UnknownCardError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "UnknownCardError";
  }
}

/**
 * The id of the card with this slug; a typo gets the nearest real slug suggested.
 * @param {unknown} slug
 * @returns {number}
 */
export function cardFromSlug(slug) {
  const id = typeof slug === "string" ? ID_BY_SLUG.get(slug) : undefined;
  if (id === undefined) throw new UnknownCardError(unknownSlugMessage(slug));
  return id;
}

/** @param {unknown} slug */
function unknownSlugMessage(slug) {
  const message = `unknown card ${pyRepr(slug)}`;
  if (typeof slug === "string") {
    const close = closeMatches(slug.toLowerCase(), SLUGS, 1, 0.5);
    if (close.length) return `${message}; did you mean ${pyRepr(close[0])}?`;
  }
  return `${message}; card slugs look like 'pine-crane' or 'maple-plain-2'`;
}

/**
 * The set of the named cards; a slug named twice is an error.
 * @param {Iterable<unknown>} names
 * @returns {CardSet}
 */
export function cardsFromSlugs(names) {
  const set = new CardSet(0, 0);
  for (const slug of names) {
    const id = cardFromSlug(slug);
    if (set.has(id)) throw new UnknownCardError(`card ${pyRepr(slug)} is named twice`);
    set.add(id);
  }
  return set;
}
