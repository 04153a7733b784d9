// @ts-check
// A match: rounds with a dealer, running totals and an end (docs/rules.md §5, §6; match.py).
//
// Driven one action at a time, like a round: apply() forwards to the current round and,
// when it ends, books its points and deals the next. All randomness comes from the
// match's seed through one PyRandom, in the order match.py draws it, so a seed and the
// actions replay the same match on both engines.

import { MONTH_OF } from "./cards.js";
import { PyRandom } from "./random.js";
import { Phase, Round, shuffledDeck } from "./round.js";
import { DrawDealer, FirstDealer, NextDealer } from "./rules.js";
import { roundGains } from "./points.js";

export { roundGains };

/** @typedef {import("./rules.js").RuleSet} RuleSet */
/** @typedef {import("./random.js").Seed} Seed */
/** @typedef {import("./round.js").Action} Action */
/** @typedef {import("./round.js").Observation} Observation */
/** @typedef {import("./round.js").RoundResult} RoundResult */
/**
 * The match around a round, as both players see it (match.py's MatchView).
 * @typedef {object} MatchView
 * @property {number} roundNumber the current round, 1-based
 * @property {number} rounds the rounds the match has at most
 * @property {readonly number[]} totals each seat's total so far
 * @property {number} targetScore a total that ends the match (0: none)
 * @property {number} roundsLeft the rounds still to deal after this one
 */

/**
 * Round r (1-based) is played in month ((r - 1) mod 12) + 1.
 * @param {number} roundNumber
 * @returns {number}
 */
export function monthOfRound(roundNumber) {
  return ((roundNumber - 1) % 12) + 1;
}

/**
 * first_dealer = card-draw: each seat draws a card, the earlier month deals.
 * @param {PyRandom} rng
 * @returns {number} the dealer
 */
export function drawForDealer(rng) {
  // Seat 0 draws first; on the same month both draw again from a fresh deck.
  for (;;) {
    const deck = shuffledDeck(rng);
    const first = MONTH_OF[deck[0]];
    const second = MONTH_OF[deck[1]];
    if (first !== second) return first < second ? 0 : 1;
  }
}

/**
 * Whether a match stands over at ``totals`` with ``roundsLeft`` rounds still to deal:
 * none left, a seat at the target score (0: none), or zero-sum, a seat left with no
 * points (match.py's match_ends).
 * @param {readonly number[]} totals
 * @param {number} roundsLeft
 * @param {number} targetScore
 * @param {boolean} zeroSum
 * @returns {boolean}
 */
export function matchEnds(totals, roundsLeft, targetScore, zeroSum) {
  return (
    roundsLeft <= 0 ||
    Boolean(targetScore && Math.max(totals[0], totals[1]) >= targetScore) ||
    (zeroSum && Math.min(totals[0], totals[1]) <= 0)
  );
}

/**
 * Each seat's match total after a round ending with ``points``, and whether the match
 * ends with that round, as Match books it: [totals, over] (match.py's totals_after,
 * what a player can work out from its view of the match).
 * @param {MatchView} match
 * @param {readonly number[]} points
 * @param {boolean} zeroSum
 * @returns {[[number, number], boolean]}
 */
export function totalsAfter(match, points, zeroSum) {
  const gains = roundGains(points, zeroSum);
  /** @type {[number, number]} */
  const totals = [match.totals[0] + gains[0], match.totals[1] + gains[1]];
  return [totals, matchEnds(totals, match.roundsLeft, match.targetScore, zeroSum)];
}

/**
 * Rounds between seats 0 and 1 until ``rounds`` are played or ``target_score`` is met.
 * With ``starting_points`` both seats start with those points and each round's points
 * move from the other seat (zero-sum); the match ends early when a seat has none left.
 * A given deal (Match.single) is one round, and none of these apply.
 */
export class Match {
  /**
   * A match dealt from a seed (a number or a BigInt >= 0); Match.single makes one of a
   * given deal.
   * @param {RuleSet} rules
   * @param {Seed} seed
   */
  constructor(rules, seed) {
    const rng = new PyRandom(seed);
    this.rules = rules;
    /** The seed it was dealt from (null: a given deal). @type {Seed | null} */
    this.seed = seed;
    /** Where its deals come from (null: a given deal, which deals nothing more). @type {PyRandom | null} */
    this.rng = rng;
    /** @type {RoundResult[]} */
    this.results = [];
    /** Each seat's total. @type {[number, number]} */
    this.totals = [rules.starting_points, rules.starting_points];
    /** Every action taken, in order. @type {Action[]} */
    this.actions = [];
    let dealer;
    if (rules.first_dealer === FirstDealer.SEAT_0) dealer = 0;
    else if (rules.first_dealer === FirstDealer.CARD_DRAW) dealer = drawForDealer(rng);
    else dealer = rng.randbelow(2);
    /** The current round (the last one once the match is over). */
    this.round = this.dealRound(dealer);
    this.bookIfOver();
  }

  /**
   * A match of one round that has just been dealt (recorded as a given deal).
   * @param {Round} round
   * @returns {Match}
   */
  static single(round) {
    const game = /** @type {Match} */ (Object.create(Match.prototype));
    game.rules = round.rules;
    game.seed = null;
    game.rng = null;
    game.results = [];
    game.totals = [0, 0];
    game.actions = [];
    game.round = round;
    game.bookIfOver();
    return game;
  }

  // -- state ---------------------------------------------------------------------------

  /**
   * The given deal in record form; null for a seeded match.
   * @returns {ReturnType<Round["dealJson"]> | null}
   */
  get deal() {
    return this.rng !== null ? null : this.round.dealJson();
  }

  /** The current round, 1-based (the last one once the match is over). */
  get roundNumber() {
    return this.results.length + (this.round.isOver ? 0 : 1);
  }

  /** What each seat's total started from (starting_points; 0 for a given deal). */
  get startingPoints() {
    return this.rng !== null ? this.rules.starting_points : 0;
  }

  /**
   * What a finished round adds to each seat's total: its points, or with
   * starting_points (zero-sum) its points less what the other seat scored.
   */
  /** @param {RoundResult} result */
  gains(result) {
    return roundGains(result.points, Boolean(this.startingPoints));
  }

  get isOver() {
    return this.round.phase === Phase.OVER && !this.continues();
  }

  /**
   * The seat with the higher total once the match is over; null for a tie.
   * @returns {number | null}
   */
  get winner() {
    if (!this.isOver || this.totals[0] === this.totals[1]) return null;
    return this.totals[0] > this.totals[1] ? 0 : 1;
  }

  /**
   * The match around the current round, as both players see it.
   * @returns {MatchView}
   */
  view() {
    const given = this.rng === null;
    const roundNumber = this.roundNumber;
    const rounds = given ? 1 : this.rules.rounds;
    return {
      roundNumber,
      rounds,
      totals: [this.totals[0], this.totals[1]],
      targetScore: given ? 0 : this.rules.target_score,
      roundsLeft: rounds - roundNumber,
    };
  }

  /**
   * What ``seat`` sees of the current round, the match around it included.
   * @param {number} seat
   * @returns {Observation}
   */
  observation(seat) {
    return this.round.observation(seat, this.view());
  }

  /** @returns {Action[]} */
  legalActions() {
    return this.isOver ? [] : this.round.legalActions();
  }

  get turn() {
    return this.round.turn;
  }

  // -- moves ---------------------------------------------------------------------------

  /**
   * Apply an action of the current round; when it ends, book it and deal on.
   * @param {Action} action
   */
  apply(action) {
    const game = this.round;
    game.apply(action);
    this.actions.push(action);
    if (game.phase === Phase.OVER) this.bookIfOver();
  }

  continues() {
    if (this.rng === null) return false;
    const rules = this.rules;
    return !matchEnds(this.totals, rules.rounds - this.results.length, rules.target_score, Boolean(rules.starting_points));
  }

  bookIfOver() {
    // Rounds can end without an action (hand yaku), so keep dealing until one is live.
    while (this.round.isOver) {
      const result = /** @type {RoundResult} */ (this.round.result);
      this.results.push(result);
      const won = this.gains(result);
      this.totals[0] += won[0];
      this.totals[1] += won[1];
      if (!this.continues()) return;
      this.round = this.dealRound(this.nextDealer(result));
    }
  }

  /**
   * @param {RoundResult} result
   * @returns {number}
   */
  nextDealer(result) {
    const dealer = this.round.dealer;
    if (result.winner === null) return this.rules.draw_dealer === DrawDealer.KEEP ? dealer : 1 - dealer;
    if (this.rules.next_dealer === NextDealer.WINNER) return result.winner;
    return 1 - dealer;
  }

  /** @param {number} dealer */
  dealRound(dealer) {
    const month = monthOfRound(this.results.length + 1);
    return Round.deal(this.rules, /** @type {PyRandom} */ (this.rng), dealer, month);
  }
}
