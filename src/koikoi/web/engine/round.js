// @ts-check
// One deal of Koi-Koi as an explicit state machine (docs/rules.md §2, round.py).
//
// A Round moves through phases: a hand card is played (PLAY), a field card is chosen
// when two match it (HAND_CHOICE), the stock is drawn automatically and a field card is
// chosen when two match the drawn card (DRAW_CHOICE), and the player decides stop or
// koi-koi when a yaku triggers it (DECISION), until OVER. Actions are the same small
// integers as Python's: 0..47 plays a card, 48..95 captures a field card, then koi-koi
// and stop. The hands, the field and the piles are the round's own CardSets (cards.js),
// changed in place, so that a move allocates nothing but its history entry; what it
// hands out (observations, hand(), pile()) are copies.

import {
  BIT_OF,
  CARD_COUNT,
  CardSet,
  HALF_BITS,
  HALF_OF,
  MONTH_BITS_OF,
  SLUGS,
  UnknownCardError,
  cardFromSlug,
  cardsFromSlugs,
  popcount,
} from "./cards.js";
import { PyRandom } from "./random.js";
import { BothHandYaku, Decision, Exhausted, RulesError } from "./rules.js";
import { handYaku, scorerFor, sumValues } from "./yaku.js";
import { isDict, dictItems, pyRepr } from "./pytext.js";

/** @typedef {import("./rules.js").RuleSet} RuleSet */
/** @typedef {import("./yaku.js").Yaku} Yaku */
/** @typedef {import("./yaku.js").Scorer} Scorer */
/** @typedef {import("./random.js").Seed} Seed */
/** @typedef {import("./match.js").MatchView} MatchView */

/**
 * An action: 0..47 plays that card, CAPTURE_BASE + card takes that field card, then
 * KOIKOI and STOP (Python's ints).
 * @typedef {number} Action
 */
/**
 * An action in record form (docs/rules.md §7).
 * @typedef {{play: string} | {capture: string} | {koikoi: true} | {stop: true}} ActionJson
 */
/** @typedef {"play" | "hand-choice" | "draw-choice" | "decision" | "over"} Phase */
/** Where a card that went down came from. @typedef {"play" | "draw"} Source */
/**
 * A card that went down: played from the mover's hand or drawn from the stock, and the
 * field cards it captured (none: it stayed on the field). Never changed once made.
 * @typedef {object} Move
 * @property {number} seat
 * @property {Source} source
 * @property {number} card
 * @property {CardSet} captured
 */
/**
 * What a seat may know of a round, and all it needs to decide (Round.observation, and
 * players-observation.js's observationFromJson from the engine protocol): never the
 * opponent's hand nor the stock order, only their sizes. Its sets are its own.
 * @typedef {object} Observation
 * @property {number} seat the seat that sees it (0 or 1)
 * @property {RuleSet} rules
 * @property {Phase} phase
 * @property {number} turn the seat to move
 * @property {number} dealer
 * @property {number} month the round's month (0: unknown)
 * @property {CardSet} hand
 * @property {number} opponentHandSize
 * @property {CardSet} field
 * @property {readonly [CardSet, CardSet]} captured each seat's pile
 * @property {number} stockSize
 * @property {number | null} pendingCard the card waiting for a choice between two field cards
 * @property {readonly Action[]} legalActions this seat's (none when it is not to move)
 * @property {readonly [number, number]} calls each seat's koi-koi calls
 * @property {readonly [Yaku, Yaku]} yaku each pile's yaku
 * @property {readonly [Yaku | null, Yaku | null]} decided the yaku each seat last called koi-koi on
 * @property {readonly Readonly<Move>[]} history
 * @property {RoundResult | null} result
 * @property {MatchView | null} match the match around the round (null: a single deal)
 */
/**
 * How a round ended (RoundResult.reason).
 * @typedef {"stop" | "final-turn" | "no-call-allowed" | "hand-yaku" | "exhausted"} Reason
 */

export const CAPTURE_BASE = CARD_COUNT;
export const KOIKOI = 2 * CARD_COUNT;
export const STOP = KOIKOI + 1;
export const ACTION_COUNT = STOP + 1;

/** A seeded deal gives up after this many redeals in a row: such rules never deal. */
export const MAX_REDEALS = 1000;

export const Phase = Object.freeze({
  PLAY: "play",
  HAND_CHOICE: "hand-choice",
  DRAW_CHOICE: "draw-choice",
  DECISION: "decision",
  OVER: "over",
});
const PLAY = Phase.PLAY;
const HAND_CHOICE = Phase.HAND_CHOICE;
const DRAW_CHOICE = Phase.DRAW_CHOICE;
const DECISION = Phase.DECISION;
const OVER = Phase.OVER;

/** @type {Source} */
export const PLAYED = "play";
/** @type {Source} */
export const DRAWN = "draw";

// How a round ended, as stored in result.reason.
/** @type {Reason} */
export const STOPPED = "stop";
/** @type {Reason} */
export const FINAL_TURN = "final-turn";
/** @type {Reason} */
export const NO_CALL_ALLOWED = "no-call-allowed";
/** @type {Reason} */
export const HAND_YAKU = "hand-yaku";
/** @type {Reason} */
export const EXHAUSTED = "exhausted";

/**
 * The action of playing a hand card (an id or a slug).
 * @param {number | string} card
 * @returns {Action}
 */
export function play(card) {
  return typeof card === "string" ? cardFromSlug(card) : card;
}

/**
 * The action of choosing a field card when two match.
 * @param {number | string} card
 * @returns {Action}
 */
export function capture(card) {
  return CAPTURE_BASE + (typeof card === "string" ? cardFromSlug(card) : card);
}

/**
 * An action in record form: {play: slug}, {capture: slug}, {koikoi: true}, {stop: true}.
 * @param {Action} action
 * @returns {ActionJson}
 */
export function actionToJson(action) {
  if (action >= 0 && action < CAPTURE_BASE) return { play: SLUGS[action] };
  if (action >= CAPTURE_BASE && action < KOIKOI) return { capture: SLUGS[action - CAPTURE_BASE] };
  if (action === KOIKOI) return { koikoi: true };
  if (action === STOP) return { stop: true };
  throw new RangeError(`not an action: ${pyRepr(action)}`);
}

/**
 * Parse a record action (a dict, as pyjson.js or JSON.parse reads it); a RangeError
 * says what is wrong with one that is not.
 * @param {unknown} data
 * @returns {Action}
 */
export function actionFromJson(data) {
  if (isDict(data)) {
    const items = dictItems(data);
    if (items.length === 1) {
      const [[key, value]] = items;
      if ((key === "play" || key === "capture") && typeof value === "string") {
        try {
          return key === "play" ? play(value) : capture(value);
        } catch (error) {
          if (error instanceof UnknownCardError) throw new RangeError(`action ${pyRepr(data)}: ${error.message}`);
          throw error;
        }
      }
      if ((key === "koikoi" || key === "stop") && value === true) return key === "koikoi" ? KOIKOI : STOP;
    }
  }
  throw new RangeError(
    `not an action: ${pyRepr(data)}; actions are {'play': slug}, {'capture': slug}, ` + "{'koikoi': true} or {'stop': true}",
  );
}

/**
 * A short readable name: "play pine-crane", "capture maple-deer", "koikoi".
 * @param {Action} action
 * @returns {string}
 */
export function actionName(action) {
  const [[key, value]] = Object.entries(actionToJson(action));
  return value === true ? key : `${key} ${value}`;
}

/** An action the round does not allow now; the round is left unchanged. */
export class IllegalActionError extends Error {
  /**
   * @param {unknown} action
   * @param {readonly Action[]} legal
   */
  constructor(action, legal) {
    const shown = Number.isInteger(action) && Number(action) >= 0 && Number(action) < ACTION_COUNT ? actionName(Number(action)) : pyRepr(action);
    const allowed = legal.map(actionName).join(", ") || "none (the round is over)";
    super(`illegal action ${shown}; legal now: ${allowed}`);
    this.name = "IllegalActionError";
    this.action = action;
    this.legal = [...legal];
  }
}

/** A given deal that cannot stand: wrong sizes, unknown or repeated cards, a redeal. */
export class DealError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "DealError";
  }
}

/** How a round ended: the winner (null: nobody), each player's points and yaku. */
export class RoundResult {
  /**
   * @param {number | null} winner
   * @param {readonly [number, number]} points
   * @param {readonly [Yaku, Yaku]} yaku
   * @param {readonly [number, number]} calls
   * @param {Reason} reason
   */
  constructor(winner, points, yaku, calls, reason) {
    this.winner = winner;
    this.points = points;
    this.yaku = yaku;
    this.calls = calls;
    this.reason = reason;
    Object.freeze(this);
  }

  /**
   * The docs/rules.md §7 form of one round in koikoi replay --json.
   * @returns {{winner: number | null, points: number[], yaku: Yaku[], calls: number[]}}
   */
  toJson() {
    return {
      winner: this.winner,
      points: [...this.points],
      yaku: [{ ...this.yaku[0] }, { ...this.yaku[1] }],
      calls: [...this.calls],
    };
  }
}

/**
 * The mover's legal actions, from what the mover sees (shared by rounds and
 * observations, as round.py's _legal_moves).
 * @param {Phase} phase
 * @param {RuleSet} rules
 * @param {CardSet} hand the mover's hand
 * @param {CardSet} field
 * @param {number} pending the card waiting for a choice (any number outside a choice)
 * @returns {Action[]}
 */
export function legalMoves(phase, rules, hand, field, pending) {
  if (phase === PLAY) {
    if (rules.forced_capture) {
      const matching = [];
      for (const card of hand.ids()) {
        if ((HALF_OF[card] ? field.hi : field.lo) & MONTH_BITS_OF[card]) matching.push(card);
      }
      if (matching.length) return matching;
    }
    return hand.ids();
  }
  if (phase === DECISION) return [KOIKOI, STOP];
  if (phase === OVER) return [];
  const half = HALF_OF[pending];
  const out = [];
  for (let bits = (half ? field.hi : field.lo) & MONTH_BITS_OF[pending]; bits; bits &= bits - 1) {
    out.push(CAPTURE_BASE + half * HALF_BITS + 31 - Math.clz32(bits & -bits));
  }
  return out;
}

/**
 * Whether a dealt field meets a field redeal condition of these rules.
 * @param {CardSet} field
 * @param {RuleSet} rules
 */
function fieldRedeals(field, rules) {
  if (!(rules.redeal_four_of_month || rules.redeal_three_of_month || rules.redeal_four_pairs)) return false;
  const counts = field.monthCounts();
  return (
    (rules.redeal_four_of_month && counts.includes(4)) ||
    (rules.redeal_three_of_month && Math.max(...counts) >= 3) ||
    (rules.redeal_four_pairs && counts.filter((c) => c === 2).length >= 4)
  );
}

/**
 * A dealt hand that holds teshi or kuttsuki where these rules redeal it instead.
 * @param {CardSet} hand
 * @param {RuleSet} rules
 */
function handRedeals(hand, rules) {
  if (!(rules.redeal_hand_four_of_month || rules.redeal_hand_four_pairs)) return false;
  const counts = hand.monthCounts();
  return (
    (rules.redeal_hand_four_of_month && counts.includes(4)) ||
    (rules.redeal_hand_four_pairs && counts.filter((c) => c === 2).length >= 4)
  );
}

/**
 * Whether ``yaku`` has a key that ``baseline`` has not.
 * @param {Yaku} yaku
 * @param {Yaku} baseline
 */
function hasKeysOutside(yaku, baseline) {
  for (const key in yaku) if (!(key in baseline)) return true;
  return false;
}

/**
 * One deal between seats 0 and 1; ``dealer`` plays first. Build one with Round.deal
 * (shuffled from a seed or a shared PyRandom), Round.fromDeal (given cards) or
 * Round.fromObservation (a seat's view plus a guess of the hidden cards).
 */
export class Round {
  /**
   * A round with nothing set: build one with Round.deal, Round.fromDeal or
   * Round.fromObservation, which check what they are given and set every field (in one
   * order, see dealt(): every round, copies too, has one shape for the JIT).
   */
  constructor() {
    // The fields, declared here (no value: the builders set them).
    /** @type {RuleSet} */
    this.rules;
    /** @type {Scorer} */
    this.scorer;
    /** The round's month (0: none, as in a given deal). @type {number} */
    this.month;
    /** @type {number} */
    this.dealer;
    /** Each seat's hand. @type {[CardSet, CardSet]} */
    this.hands;
    /** @type {CardSet} */
    this.field;
    /** The stock, top card first; the cards before stockPos are drawn. @type {number[]} */
    this.stock;
    /** @type {number} */
    this.stockPos;
    /** The size of the mover's pile as its turn began (a pile only grows). @type {number} */
    this.turnStartCount;
    /** Each seat's captured cards. @type {[CardSet, CardSet]} */
    this.captured;
    /** Each seat's koi-koi calls. @type {[number, number]} */
    this.calls;
    /** The seat to move. @type {number} */
    this.turn;
    /** @type {Phase} */
    this.phase;
    /** Every card that went down, in order. @type {Readonly<Move>[]} */
    this.history;
    /** Each seat's hand yaku. @type {[Yaku, Yaku]} */
    this.handYaku;
    /** @type {RoundResult | null} */
    this.result;
    /** The card waiting for a choice between two field cards (-1: none). @type {number} */
    this.pending;
    /** The yaku of the decision at hand. @type {Yaku | null} */
    this.pendingYaku;
    /** The yaku each seat last called koi-koi on. @type {[Yaku | null, Yaku | null]} */
    this.baseline;
    /** The cards as dealt: each hand, then the field. @type {readonly [CardSet, CardSet, CardSet]} */
    this.dealt;
  }

  /**
   * Shuffle and deal, redealing while the rules call for it.
   * @param {RuleSet} rules
   * @param {Seed | PyRandom} seed a seed, or the generator to deal from
   * @param {number} dealer
   * @param {number} [month]
   * @returns {Round}
   */
  static deal(rules, seed, dealer, month = 0) {
    const rng = seed instanceof PyRandom ? seed : new PyRandom(seed);
    for (let attempt = 0; attempt < MAX_REDEALS; attempt++) {
      const deck = shuffledDeck(rng);
      const [hands, field, stock] = dealFrom(deck, rules, dealer);
      if (fieldRedeals(field, rules)) continue;
      if (handRedeals(hands[0], rules) || handRedeals(hands[1], rules)) continue;
      /** @type {[Yaku, Yaku]} */
      const holders = [handYaku(hands[0], rules), handYaku(hands[1], rules)];
      if (isFull(holders[0]) && isFull(holders[1]) && rules.both_hand_yaku === BothHandYaku.REDEAL) continue;
      return Round.start(rules, dealer, hands, field, stock, month, holders);
    }
    throw new RulesError([`these rules redeal ${MAX_REDEALS} times in a row; they cannot deal`]);
  }

  /**
   * A round from given cards (slugs; the stock top card first). The deal must stand: a
   * DealError says why one does not.
   * @param {RuleSet} rules
   * @param {unknown} dealer
   * @param {readonly (readonly unknown[])[]} hands
   * @param {readonly unknown[]} field
   * @param {readonly unknown[]} stock
   * @param {number} [month]
   * @returns {Round}
   */
  static fromDeal(rules, dealer, hands, field, stock, month = 0) {
    if (dealer !== 0 && dealer !== 1) throw new DealError(`dealer must be 0 or 1, not ${pyRepr(dealer)}`);
    if (hands.length !== 2) throw new DealError(`a deal has two hands, not ${hands.length}`);
    /** @type {[CardSet, CardSet]} */
    let handSets;
    let fieldSet;
    let stockIds;
    try {
      handSets = [cardsFromSlugs(hands[0]), cardsFromSlugs(hands[1])];
      fieldSet = cardsFromSlugs(field);
      stockIds = stock.map(cardFromSlug);
    } catch (error) {
      if (error instanceof UnknownCardError) throw new DealError(error.message);
      throw error;
    }
    handSets.forEach((hand, seat) => {
      const n = hand.count();
      if (n !== rules.hand_size) throw new DealError(`hand ${seat} has ${n} cards; the rules deal ${rules.hand_size}`);
    });
    const fieldCount = fieldSet.count();
    if (fieldCount !== rules.field_size) {
      throw new DealError(`the field has ${fieldCount} cards; the rules deal ${rules.field_size}`);
    }
    const seen = new CardSet(0, 0);
    for (const part of [handSets[0], handSets[1], fieldSet, ...stockIds.map((c) => CardSet.card(c))]) {
      if (seen.intersects(part)) throw new DealError(`card(s) ${seen.intersect(part).slugs().join(", ")} dealt twice`);
      seen.addAll(part);
    }
    const missing = seen.complement();
    if (!missing.isEmpty()) {
      throw new DealError(`card(s) missing from the deal: ${missing.slugs().join(", ")}`);
    }
    if (fieldRedeals(fieldSet, rules)) {
      throw new DealError("the field meets a redeal condition of these rules; it would be redealt");
    }
    handSets.forEach((hand, seat) => {
      if (handRedeals(hand, rules)) {
        throw new DealError(`hand ${seat} meets a redeal condition of these rules; it would be redealt`);
      }
    });
    /** @type {[Yaku, Yaku]} */
    const holders = [handYaku(handSets[0], rules), handYaku(handSets[1], rules)];
    if (isFull(holders[0]) && isFull(holders[1]) && rules.both_hand_yaku === BothHandYaku.REDEAL) {
      throw new DealError("both hands hold a hand yaku; under these rules that deal is redealt");
    }
    return Round.start(rules, dealer, handSets, fieldSet, stockIds, month, holders);
  }

  /**
   * A dealt round whose deal stands, ended at once if a hand yaku ends it. The sets
   * become the round's.
   * @param {RuleSet} rules
   * @param {number} dealer
   * @param {[CardSet, CardSet]} hands
   * @param {CardSet} field
   * @param {number[]} stock top card first
   * @param {number} month
   * @param {[Yaku, Yaku]} holders each hand's hand yaku
   * @returns {Round}
   */
  static start(rules, dealer, hands, field, stock, month, holders) {
    const game = dealt(rules, dealer, month, hands, field, stock);
    const either = isFull(holders[0]) || isFull(holders[1]);
    const both = isFull(holders[0]) && isFull(holders[1]);
    if (either && !(both && rules.both_hand_yaku === BothHandYaku.IGNORE)) game.finishHandYaku(holders);
    return game;
  }

  /**
   * An independent copy, cheap enough for search (the stock order is shared).
   * @returns {Round}
   */
  copy() {
    const other = new Round();
    Object.assign(other, this);
    other.hands = [this.hands[0].copy(), this.hands[1].copy()];
    other.field = this.field.copy();
    other.captured = [this.captured[0].copy(), this.captured[1].copy()];
    other.calls = [this.calls[0], this.calls[1]];
    other.history = this.history.slice();
    return other;
  }

  // -- state ---------------------------------------------------------------------------

  get isOver() {
    return this.phase === OVER;
  }

  /**
   * The stock still face down, top card first (hidden from both players).
   * @returns {number[]}
   */
  get stockLeft() {
    return this.stock.slice(this.stockPos);
  }

  /**
   * The played or drawn card waiting for a choice between two field cards.
   * @returns {number | null}
   */
  get pendingCard() {
    return this.phase === HAND_CHOICE || this.phase === DRAW_CHOICE ? this.pending : null;
  }

  /**
   * A seat's hand (a copy).
   * @param {number} seat
   * @returns {CardSet}
   */
  hand(seat) {
    return this.hands[seat].copy();
  }

  /**
   * A seat's captured pile (a copy).
   * @param {number} seat
   * @returns {CardSet}
   */
  pile(seat) {
    return this.captured[seat].copy();
  }

  /**
   * The yaku of a seat's captured cards (hand yaku not included).
   * @param {number} seat
   * @returns {Yaku}
   */
  yaku(seat) {
    return this.scorer.score(this.captured[seat], this.month, this.calls[seat] > 0);
  }

  /**
   * The cards as dealt, in the given-deal form of a record (docs/rules.md §7).
   * @returns {{dealer: number, hands: string[][], field: string[], stock: string[]}}
   */
  dealJson() {
    const [hand0, hand1, field] = this.dealt;
    return {
      dealer: this.dealer,
      hands: [hand0.slugs(), hand1.slugs()],
      field: field.slugs(),
      stock: this.stock.map((card) => SLUGS[card]),
    };
  }

  /** @returns {Action[]} */
  legalActions() {
    return legalMoves(this.phase, this.rules, this.hands[this.turn], this.field, this.pending);
  }

  /**
   * What ``seat`` may know now, and all it needs to decide: never the opponent's hand
   * nor the stock order (only their sizes). Plain data, copied from the round.
   * @param {number} seat
   * @param {MatchView | null} [match]
   * @returns {Observation}
   */
  observation(seat, match = null) {
    const phase = this.phase;
    return {
      seat,
      rules: this.rules,
      phase,
      turn: this.turn,
      dealer: this.dealer,
      month: this.month,
      hand: this.hands[seat].copy(),
      opponentHandSize: this.hands[1 - seat].count(),
      field: this.field.copy(),
      captured: [this.captured[0].copy(), this.captured[1].copy()],
      stockSize: this.stock.length - this.stockPos,
      pendingCard: phase === HAND_CHOICE || phase === DRAW_CHOICE ? this.pending : null,
      legalActions: this.turn === seat && phase !== OVER ? this.legalActions() : [],
      calls: [this.calls[0], this.calls[1]],
      yaku: [this.yaku(0), this.yaku(1)],
      decided: [this.baseline[0], this.baseline[1]],
      history: this.history.slice(),
      result: this.result,
      match,
    };
  }

  /**
   * The round a seat sees, completed with a guess of the hidden cards: ``opponentHand``
   * and ``stock`` (top card first) must together be exactly the unseen cards (else a
   * RangeError).
   * @param {Observation} obs
   * @param {CardSet} opponentHand
   * @param {readonly number[]} stock
   * @returns {Round}
   */
  static fromObservation(obs, opponentHand, stock) {
    const seen = obs.hand.union(obs.field).addAll(obs.captured[0]).addAll(obs.captured[1]);
    if (obs.pendingCard !== null) seen.add(obs.pendingCard);
    const stockSet = CardSet.of(stock);
    const unseen = seen.complement();
    if (
      opponentHand.count() !== obs.opponentHandSize ||
      stock.length !== obs.stockSize ||
      stockSet.count() !== stock.length ||
      opponentHand.intersects(stockSet) ||
      !opponentHand.union(stockSet).equals(unseen)
    ) {
      throw new RangeError(
        `the guess must split the ${unseen.count()} unseen cards into a hand` +
          ` of ${obs.opponentHandSize} and a stock of ${obs.stockSize}`,
      );
    }
    /** @type {[CardSet, CardSet]} */
    const hands = obs.seat === 0 ? [obs.hand.copy(), opponentHand.copy()] : [opponentHand.copy(), obs.hand.copy()];
    const game = dealt(obs.rules, obs.dealer, obs.month, hands, obs.field.copy(), [...stock]);
    game.captured = [obs.captured[0].copy(), obs.captured[1].copy()];
    game.calls = [obs.calls[0], obs.calls[1]];
    game.turn = obs.turn;
    game.phase = obs.phase;
    game.history = obs.history.slice();
    game.result = obs.result;
    game.pending = obs.pendingCard === null ? -1 : obs.pendingCard;
    game.pendingYaku = obs.phase === DECISION ? obs.yaku[obs.turn] : null;
    game.baseline = [obs.decided[0], obs.decided[1]];
    // Mid-turn, the pending choice is sure to capture, so the pile as it stands serves
    // as the turn's starting point.
    game.turnStartCount = obs.captured[obs.turn].count();
    return game;
  }

  // -- moves ---------------------------------------------------------------------------

  /**
   * Apply a legal action; an illegal one throws IllegalActionError and changes nothing.
   * @param {Action} action
   */
  apply(action) {
    const phase = this.phase;
    const seat = this.turn;
    if (phase === PLAY) {
      if (!(Number.isInteger(action) && action >= 0 && action < CAPTURE_BASE)) throw this.illegal(action);
      const half = HALF_OF[action];
      const hand = this.hands[seat];
      const bit = BIT_OF[action];
      if (!((half ? hand.hi : hand.lo) & bit) || (this.rules.forced_capture && !this.mayPlay(seat, action))) throw this.illegal(action);
      if (half) hand.hi ^= bit;
      else hand.lo ^= bit;
      const matches = (half ? this.field.hi : this.field.lo) & MONTH_BITS_OF[action];
      if (matches && popcount(matches) === 2) {
        this.phase = HAND_CHOICE;
        this.pending = action;
        return;
      }
      this.lay(seat, action, matches, PLAYED);
      this.draw(seat);
    } else if (phase === HAND_CHOICE || phase === DRAW_CHOICE) {
      const chosen = Number.isInteger(action) ? action - CAPTURE_BASE : -1;
      const pending = this.pending;
      const half = HALF_OF[pending];
      // A month lies in one half, so the chosen card must be in the pending card's.
      if (!(chosen >= 0 && chosen < CARD_COUNT) || HALF_OF[chosen] !== half) throw this.illegal(action);
      if (!((half ? this.field.hi : this.field.lo) & MONTH_BITS_OF[pending] & BIT_OF[chosen])) throw this.illegal(action);
      this.lay(seat, pending, BIT_OF[chosen], phase === HAND_CHOICE ? PLAYED : DRAWN);
      if (phase === HAND_CHOICE) this.draw(seat);
      else this.endTurn(seat);
    } else if (phase === DECISION && action === KOIKOI) {
      this.calls[seat] += 1;
      // With viewing_after_koikoi the call itself may raise the viewing yaku: what the
      // next decision compares with is the pile as it now scores.
      const decided = this.rules.viewing_after_koikoi ? this.yaku(seat) : this.pendingYaku;
      // A new array rather than a change, so observations can share the old one.
      this.baseline = seat === 0 ? [decided, this.baseline[1]] : [this.baseline[0], decided];
      this.pendingYaku = null;
      this.nextTurn(seat);
    } else if (phase === DECISION && action === STOP) {
      this.finishStop(seat, /** @type {Yaku} */ (this.pendingYaku), STOPPED);
    } else {
      throw this.illegal(action);
    }
  }

  /** @param {unknown} action */
  illegal(action) {
    return new IllegalActionError(action, this.legalActions());
  }

  /**
   * forced_capture: a card that matches nothing only when no hand card matches.
   * @param {number} seat
   * @param {number} card
   */
  mayPlay(seat, card) {
    /** @param {number} c */
    const field = (c) => (HALF_OF[c] ? this.field.hi : this.field.lo) & MONTH_BITS_OF[c];
    if (field(card)) return true;
    return !this.hands[seat].ids().some((c) => field(c));
  }

  /**
   * A card goes down: it captures ``taken`` (field cards, as bits of the card's half),
   * or stays on the field.
   * @param {number} seat
   * @param {number} card
   * @param {number} taken
   * @param {Source} source
   */
  lay(seat, card, taken, source) {
    const half = HALF_OF[card];
    const bit = BIT_OF[card];
    const field = this.field;
    if (taken) {
      const pile = this.captured[seat];
      if (half) {
        field.hi ^= taken;
        pile.hi |= taken | bit;
      } else {
        field.lo ^= taken;
        pile.lo |= taken | bit;
      }
    } else if (half) {
      field.hi |= bit;
    } else {
      field.lo |= bit;
    }
    this.history.push({ seat, source, card, captured: half ? new CardSet(0, taken) : new CardSet(taken, 0) });
  }

  /** @param {number} seat */
  draw(seat) {
    const pos = this.stockPos;
    if (pos < this.stock.length) {
      const card = this.stock[pos];
      this.stockPos = pos + 1;
      const matches = (HALF_OF[card] ? this.field.hi : this.field.lo) & MONTH_BITS_OF[card];
      if (matches && popcount(matches) === 2) {
        this.phase = DRAW_CHOICE;
        this.pending = card;
        return;
      }
      this.lay(seat, card, matches, DRAWN);
    }
    this.endTurn(seat);
  }

  /** @param {number} seat */
  endTurn(seat) {
    const pile = this.captured[seat];
    // Yaku only change with captures, and a yaku held at the start of the turn has
    // already had its decision.
    if (pile.count() === this.turnStartCount) {
      this.nextTurn(seat);
      return;
    }
    const yaku = this.scorer.score(pile, this.month, this.calls[seat] > 0);
    if (isFull(yaku) && this.triggered(seat, yaku)) {
      const final = this.hands[seat].isEmpty() || this.stockPos === this.stock.length;
      if (final) this.finishStop(seat, yaku, FINAL_TURN);
      else if (!this.mayCall(seat)) this.finishStop(seat, yaku, NO_CALL_ALLOWED);
      else {
        this.phase = DECISION;
        this.pendingYaku = yaku;
      }
      return;
    }
    this.nextTurn(seat);
  }

  /**
   * Whether these yaku reopen the decision (all of them, until the seat first calls).
   * @param {number} seat
   * @param {Yaku} yaku
   */
  triggered(seat, yaku) {
    const baseline = this.baseline[seat];
    if (baseline === null) return true;
    if (this.rules.decision === Decision.NEW_YAKU) return hasKeysOutside(yaku, baseline);
    return sumValues(yaku) > sumValues(baseline);
  }

  /** @param {number} seat */
  mayCall(seat) {
    const rules = this.rules;
    if (rules.max_koikoi && this.calls[seat] >= rules.max_koikoi) return false;
    return rules.koikoi_after_opponent || !this.calls[1 - seat];
  }

  /** @param {number} seat */
  nextTurn(seat) {
    if ((this.hands[0].isEmpty() && this.hands[1].isEmpty()) || this.stockPos === this.stock.length) {
      this.finishExhausted();
    } else {
      const other = 1 - seat;
      this.turn = other;
      this.phase = PLAY;
      this.turnStartCount = this.captured[other].count();
    }
  }

  // -- endings -------------------------------------------------------------------------

  /**
   * @param {number | null} winner
   * @param {[number, number]} points
   * @param {Reason} reason
   * @param {[Yaku, Yaku] | null} [held] each seat's yaku (null: its pile's and hand's)
   */
  end(winner, points, reason, held = null) {
    this.phase = OVER;
    this.pendingYaku = null;
    if (held === null) held = [{ ...this.yaku(0), ...this.handYaku[0] }, { ...this.yaku(1), ...this.handYaku[1] }];
    this.result = new RoundResult(winner, points, held, [this.calls[0], this.calls[1]], reason);
  }

  /**
   * @param {number} seat
   * @param {Yaku} yaku
   * @param {Reason} reason
   */
  finishStop(seat, yaku, reason) {
    const score = this.scorer.final(sumValues(yaku), this.calls[seat], this.calls[1 - seat]);
    // A stop takes the round: the opponent's yaku (after a koi-koi) are forfeit.
    if (seat === 0) this.end(0, [score, 0], reason, [yaku, {}]);
    else this.end(1, [0, score], reason, [{}, yaku]);
  }

  finishExhausted() {
    const rules = this.rules;
    if (rules.exhausted === Exhausted.DEALER) {
      const points = rules.exhausted_points;
      this.end(this.dealer, this.dealer === 0 ? [points, 0] : [0, points], EXHAUSTED);
    } else {
      this.end(null, [0, 0], EXHAUSTED);
    }
  }

  /** @param {[Yaku, Yaku]} holders */
  finishHandYaku(holders) {
    this.handYaku = [holders[0], holders[1]];
    /** @type {[number, number]} */
    const totals = [sumValues(holders[0]), sumValues(holders[1])];
    let winner;
    if (isFull(holders[0]) && isFull(holders[1])) {
      if (this.rules.both_hand_yaku === BothHandYaku.BOTH) {
        this.end(null, totals, HAND_YAKU);
        return;
      }
      winner = this.dealer; // BothHandYaku.DEALER: the dealer scores theirs
    } else {
      winner = isFull(holders[0]) ? 0 : 1;
    }
    this.end(winner, winner === 0 ? [totals[0], 0] : [0, totals[1]], HAND_YAKU);
  }
}

/**
 * A dealt round before its first action: every field set, always in this order. The
 * sets become the round's.
 * @param {RuleSet} rules
 * @param {number} dealer
 * @param {number} month the round's month (0: none, as in a given deal)
 * @param {[CardSet, CardSet]} hands
 * @param {CardSet} field
 * @param {number[]} stock top card first
 * @returns {Round}
 */
function dealt(rules, dealer, month, hands, field, stock) {
  const game = new Round();
  game.rules = rules;
  game.scorer = scorerFor(rules);
  game.month = month;
  game.dealer = dealer;
  game.hands = hands;
  game.field = field;
  game.stock = stock;
  game.stockPos = 0;
  game.turnStartCount = 0;
  game.captured = [new CardSet(0, 0), new CardSet(0, 0)];
  game.calls = [0, 0];
  game.turn = dealer;
  game.phase = PLAY;
  game.history = [];
  game.handYaku = [{}, {}];
  game.result = null;
  game.pending = -1;
  game.pendingYaku = null;
  game.baseline = [null, null];
  game.dealt = [hands[0].copy(), hands[1].copy(), field.copy()];
  return game;
}

/**
 * Whether any yaku is there.
 * @param {Yaku} yaku
 */
function isFull(yaku) {
  // eslint-disable-next-line no-unreachable-loop -- the first key answers
  for (const _ in yaku) return true;
  return false;
}

// The deck order is one randrange(48!) read as a mixed-radix number, as round.py's
// shuffled_deck reads it: each digit, from radix 48 down, picks the next card from
// those left. The 204-bit draw is kept as the 32-bit words getrandbits fills (least
// significant first): comparing it with 48! and dividing it by each radix stay exact in
// doubles (a remainder below 48 times 2**32 is far below 2**53), without BigInt.
const WORDS = 7; // 224 bits hold 48! (204 bits)
const TWO_32 = 4294967296;
const FACTORIAL = (() => {
  const words = new Array(WORDS).fill(0);
  words[0] = 1;
  for (let k = 2; k <= CARD_COUNT; k++) {
    let carry = 0;
    for (let i = 0; i < WORDS; i++) {
      const v = words[i] * k + carry;
      words[i] = v % TWO_32;
      carry = Math.floor(v / TWO_32);
    }
  }
  return words;
})();
const FACTORIAL_BITS = 32 * (WORDS - 1) + (32 - Math.clz32(FACTORIAL[WORDS - 1]));
const ORDERED = Array.from({ length: CARD_COUNT }, (_, i) => i);

/** @param {readonly number[]} words */
function belowFactorial(words) {
  for (let i = WORDS - 1; i >= 0; i--) {
    if (words[i] !== FACTORIAL[i]) return words[i] < FACTORIAL[i];
  }
  return false;
}

/**
 * A uniformly random order of the 48 cards, exactly as round.py draws it from rng.
 * @param {PyRandom} rng
 * @returns {number[]}
 */
export function shuffledDeck(rng) {
  /** @type {number[]} */
  let words;
  do words = rng.getrandwords(FACTORIAL_BITS);
  while (!belowFactorial(words));
  const remaining = ORDERED.slice();
  const deck = new Array(CARD_COUNT);
  let top = WORDS - 1;
  for (let radix = CARD_COUNT, n = 0; radix >= 1; radix--, n++) {
    let rem = 0;
    for (let i = top; i >= 0; i--) {
      const v = rem * TWO_32 + words[i];
      const q = Math.floor(v / radix);
      words[i] = q;
      rem = v - q * radix;
    }
    while (top > 0 && words[top] === 0) top--;
    // Take the card at ``rem`` out of those left, keeping their order.
    deck[n] = remaining[rem];
    for (let i = rem; i < radix - 1; i++) remaining[i] = remaining[i + 1];
  }
  return deck;
}

// The deck positions that go to the non-dealer, the field and the dealer: cards go in
// turn to each, one at a time or ``step`` at a time, skipping a destination that is full.
/** @type {Map<string, [number[], number[], number[]]>} */
const PLANS = new Map();

/**
 * @param {number} handSize
 * @param {number} fieldSize
 * @param {number} step
 * @returns {[number[], number[], number[]]}
 */
function dealPlan(handSize, fieldSize, step) {
  const key = `${handSize},${fieldSize},${step}`;
  let plan = PLANS.get(key);
  if (plan === undefined) {
    plan = [[], [], []];
    const sizes = [handSize, fieldSize, handSize];
    let pos = 0;
    while (pos < 2 * handSize + fieldSize) {
      for (let target = 0; target < 3; target++) {
        const positions = plan[target];
        const take = Math.min(step, sizes[target] - positions.length);
        for (let i = 0; i < take; i++) positions.push(pos + i);
        pos += take;
      }
    }
    PLANS.set(key, plan);
  }
  return plan;
}

/**
 * The hands (by seat), the field and the stock (top card first) dealt from a deck.
 * @param {readonly number[]} deck
 * @param {RuleSet} rules
 * @param {number} dealer
 * @returns {[[CardSet, CardSet], CardSet, number[]]}
 */
function dealFrom(deck, rules, dealer) {
  const [others, fields, dealers] = dealPlan(rules.hand_size, rules.field_size, rules.deal_in_pairs ? 2 : 1);
  /** @param {readonly number[]} positions */
  const gather = (positions) => {
    let lo = 0;
    let hi = 0;
    for (const pos of positions) {
      const card = deck[pos];
      if (card < HALF_BITS) lo |= BIT_OF[card];
      else hi |= BIT_OF[card];
    }
    return new CardSet(lo, hi);
  };
  const other = gather(others);
  const own = gather(dealers);
  /** @type {[CardSet, CardSet]} */
  const hands = dealer === 0 ? [own, other] : [other, own];
  return [hands, gather(fields), deck.slice(2 * rules.hand_size + rules.field_size)];
}
