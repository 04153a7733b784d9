// What the computer players share (players.js, players-expert.js): card sets as
// [lo, hi] pairs (cards.js), the yaku a pile can still grow toward (heuristic.py's
// yaku_sets and open_yaku), and a stop at the end of a match (heuristic.py's
// stop_points and stop_loses_match).

import {
  ANIMALS,
  BLUE_RIBBONS,
  BRIGHTS,
  CHERRY_CURTAIN,
  GRASS_RIBBONS,
  HALF_OF,
  INOSHIKACHO,
  MONTH_BITS_OF,
  PLAINS,
  POETRY_RIBBONS,
  RIBBONS,
  SAKE_CUP,
  SUSUKI_MOON,
  popcount,
  setOf,
} from "./cards.js";
import { totalsAfter } from "./match.js";
import { AKATAN, AOTAN, HANAMI, INOSHIKACHO_KEY, KASU, KUSATAN, SANKO, TAN, TANE, TSUKIMI, scorerFor, sumValues } from "./yaku.js";

/** The field cards of ``card``'s month, as bits of the card's half. */
export function fieldMatches(field, card) {
  return (HALF_OF[card] ? field[1] : field[0]) & MONTH_BITS_OF[card];
}

/** (a & b).bit_count() */
export function countBoth(a, b) {
  return popcount(a[0] & b[0]) + popcount(a[1] & b[1]);
}

/** ``set`` with ``bits`` of one half added. */
export function withBits(set, half, bits) {
  return half ? [set[0], set[1] | bits] : [set[0] | bits, set[1]];
}

/** The total of the yaku a pile makes (hand yaku not included). */
export function pileTotal(scorer, pile, month, called) {
  return sumValues(scorer.score(pile[0], pile[1], month, called));
}

const YAKU_SETS = new WeakMap();
const TSUKIMI_CARDS = setOf([SUSUKI_MOON, SAKE_CUP]);
const HANAMI_CARDS = setOf([CHERRY_CURTAIN, SAKE_CUP]);

/** [cards, how many are needed, points, the yaku] of each yaku a pile can grow toward. */
export function yakuSets(rules) {
  let sets = YAKU_SETS.get(rules);
  if (sets === undefined) {
    sets = [
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
    ].filter((entry) => entry[2]);
    YAKU_SETS.set(rules, sets);
  }
  return sets;
}

/** The yaku a seat can still make: those the opponent's pile has not made impossible. */
export function openYaku(opponent, rules) {
  return yakuSets(rules).filter(
    ([cards, needed]) => popcount(cards[0] & ~opponent[0]) + popcount(cards[1] & ~opponent[1]) >= needed,
  );
}

/** The round's points if the seat at a decision stops now: its yaku total with
 * double_at, the koi-koi multiplier and any bonus; nothing for the other seat. */
export function stopPoints(obs) {
  const seat = obs.seat;
  const score = scorerFor(obs.rules).final(sumValues(obs.yaku[seat]), obs.calls[seat], obs.calls[1 - seat]);
  return seat === 0 ? [score, 0] : [0, score];
}

/** Whether stopping at this decision ends the match with the seat behind: a certain
 * loss, while a koi-koi can be no worse (a draw is not a loss). Never outside a match. */
export function stopLosesMatch(obs) {
  if (obs.match === null) return false;
  const seat = obs.seat;
  const [totals, over] = totalsAfter(obs.match, stopPoints(obs), obs.rules.starting_points > 0);
  return over && totals[seat] < totals[1 - seat];
}
