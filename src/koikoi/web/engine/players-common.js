// @ts-check
// What the computer players share (players.js, players-expert.js): the yaku a pile can
// still grow toward (heuristic.py's yaku_sets and open_yaku), and a stop at the end of a
// match (heuristic.py's stop_points and stop_loses_match).

import {
  ANIMALS,
  BLUE_RIBBONS,
  BRIGHTS,
  CHERRY_CURTAIN,
  CardSet,
  GRASS_RIBBONS,
  INOSHIKACHO,
  PLAINS,
  POETRY_RIBBONS,
  RIBBONS,
  SAKE_CUP,
  SUSUKI_MOON,
} from "./cards.js";
import { totalsAfter } from "./match.js";
import { AKATAN, AOTAN, HANAMI, INOSHIKACHO_KEY, KASU, KUSATAN, SANKO, TAN, TANE, TSUKIMI, scorerFor, sumValues } from "./yaku.js";

/** @typedef {import("./rules.js").RuleSet} RuleSet */
/** @typedef {import("./round.js").Observation} Observation */
/** @typedef {import("./yaku.js").Scorer} Scorer */
/**
 * A yaku a pile can grow toward: its cards, how many of them it needs, its points, its key.
 * @typedef {readonly [Readonly<CardSet>, number, number, string]} YakuSet
 */

/**
 * The field cards of ``card``'s month.
 * @param {CardSet} field
 * @param {number} card
 * @returns {CardSet}
 */
export function fieldMatches(field, card) {
  return field.sameMonth(card);
}

/**
 * (a & b).bit_count()
 * @param {CardSet} a
 * @param {CardSet} b
 * @returns {number}
 */
export function countBoth(a, b) {
  return a.intersect(b).count();
}

/**
 * The total of the yaku a pile makes (hand yaku not included).
 * @param {Scorer} scorer
 * @param {CardSet} pile
 * @param {number} month
 * @param {boolean} called
 * @returns {number}
 */
export function pileTotal(scorer, pile, month, called) {
  return sumValues(scorer.score(pile, month, called));
}

/** @type {WeakMap<RuleSet, YakuSet[]>} */
const YAKU_SETS = new WeakMap();
const TSUKIMI_CARDS = Object.freeze(CardSet.of([SUSUKI_MOON, SAKE_CUP]));
const HANAMI_CARDS = Object.freeze(CardSet.of([CHERRY_CURTAIN, SAKE_CUP]));

/**
 * [cards, how many are needed, points, the yaku] of each yaku a pile can grow toward.
 * @param {RuleSet} rules
 * @returns {YakuSet[]}
 */
export function yakuSets(rules) {
  let sets = YAKU_SETS.get(rules);
  if (sets === undefined) {
    /** @type {YakuSet[]} */
    const all = [
      [BRIGHTS, 3, rules.sanko || rules.shiko, SANKO],
      [INOSHIKACHO, 3, rules.inoshikacho, INOSHIKACHO_KEY],
      [POETRY_RIBBONS, 3, rules.akatan, AKATAN],
      [BLUE_RIBBONS, 3, rules.aotan, AOTAN],
      [GRASS_RIBBONS, 3, rules.kusatan, KUSATAN],
      [TSUKIMI_CARDS, 2, rules.tsukimi, TSUKIMI],
      [HANAMI_CARDS, 2, rules.hanami, HANAMI],
      [ANIMALS, rules.tane_min, rules.tane, TANE],
      [RIBBONS, rules.tan_min, rules.tan, TAN],
      [PLAINS, rules.kasu_min, rules.kasu, KASU],
    ];
    sets = all.filter((entry) => entry[2]);
    YAKU_SETS.set(rules, sets);
  }
  return sets;
}

/**
 * The yaku a seat can still make: those the opponent's pile has not made impossible.
 * @param {CardSet} opponent the opponent's pile
 * @param {RuleSet} rules
 * @returns {YakuSet[]}
 */
export function openYaku(opponent, rules) {
  return yakuSets(rules).filter(([cards, needed]) => cards.minus(opponent).count() >= needed);
}

/**
 * The round's points if the seat at a decision stops now: its yaku total with
 * double_at, the koi-koi multiplier and any bonus; nothing for the other seat.
 * @param {Observation} obs
 * @returns {[number, number]}
 */
export function stopPoints(obs) {
  const seat = obs.seat;
  const score = scorerFor(obs.rules).final(sumValues(obs.yaku[seat]), obs.calls[seat], obs.calls[1 - seat]);
  return seat === 0 ? [score, 0] : [0, score];
}

/**
 * Whether stopping at this decision ends the match with the seat behind: a certain
 * loss, while a koi-koi can be no worse (a draw is not a loss). Never outside a match.
 * @param {Observation} obs
 * @returns {boolean}
 */
export function stopLosesMatch(obs) {
  if (obs.match === null) return false;
  const seat = obs.seat;
  const [totals, over] = totalsAfter(obs.match, stopPoints(obs), obs.rules.starting_points > 0);
  return over && totals[seat] < totals[1 - seat];
}
