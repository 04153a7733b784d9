// One deal of Koi-Koi as an explicit state machine (docs/rules.md §2, round.py).
//
// A Round moves through phases: a hand card is played (PLAY), a field card is chosen
// when two match it (HAND_CHOICE), the stock is drawn automatically and a field card is
// chosen when two match the drawn card (DRAW_CHOICE), and the player decides stop or
// koi-koi when a yaku triggers it (DECISION), until OVER. Actions are the same small
// integers as Python's: 0..47 plays a card, 48..95 captures a field card, then koi-koi
// and stop. Card sets are [lo, hi] halves (cards.js), held here as separate numbers so
// that a move allocates nothing but its history entry.

import {
  BIT_OF,
  CARD_COUNT,
  HALF_BITS,
  HALF_OF,
  MONTH_BITS_OF,
  MONTH_COUNT,
  SLUGS,
  UnknownCardError,
  cardFromSlug,
  cardsFromSlugs,
  ids,
  popcount,
  slugs,
} from "./cards.js";
import { PyRandom } from "./random.js";
import { BothHandYaku, Decision, Exhausted, RulesError } from "./rules.js";
import { handYaku, scorerFor, sumValues } from "./yaku.js";
import { isDict, dictItems, pyRepr } from "./pytext.js";

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

export const PLAYED = "play";
export const DRAWN = "draw";

// How a round ended, as stored in result.reason.
export const STOPPED = "stop";
export const FINAL_TURN = "final-turn";
export const NO_CALL_ALLOWED = "no-call-allowed";
export const HAND_YAKU = "hand-yaku";
export const EXHAUSTED = "exhausted";

/** The action of playing a hand card (an id or a slug). */
export function play(card) {
  return typeof card === "string" ? cardFromSlug(card) : card;
}

/** The action of choosing a field card when two match. */
export function capture(card) {
  return CAPTURE_BASE + (typeof card === "string" ? cardFromSlug(card) : card);
}

/** An action in record form: {play: slug}, {capture: slug}, {koikoi: true}, {stop: true}. */
export function actionToJson(action) {
  if (action >= 0 && action < CAPTURE_BASE) return { play: SLUGS[action] };
  if (action >= CAPTURE_BASE && action < KOIKOI) return { capture: SLUGS[action - CAPTURE_BASE] };
  if (action === KOIKOI) return { koikoi: true };
  if (action === STOP) return { stop: true };
  throw new RangeError(`not an action: ${pyRepr(action)}`);
}

/** Parse a record action (a dict, as pyjson.js or JSON.parse reads it). */
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

/** A short readable name: "play pine-crane", "capture maple-deer", "koikoi". */
export function actionName(action) {
  const [[key, value]] = Object.entries(actionToJson(action));
  return value === true ? key : `${key} ${value}`;
}

/** An action the round does not allow now; the round is left unchanged. */
export class IllegalActionError extends Error {
  constructor(action, legal) {
    const shown = Number.isInteger(action) && action >= 0 && action < ACTION_COUNT ? actionName(action) : pyRepr(action);
    const allowed = legal.map(actionName).join(", ") || "none (the round is over)";
    super(`illegal action ${shown}; legal now: ${allowed}`);
    this.name = "IllegalActionError";
    this.action = action;
    this.legal = [...legal];
  }
}

/** A given deal that cannot stand: wrong sizes, unknown or repeated cards, a redeal. */
export class DealError extends Error {
  constructor(message) {
    super(message);
    this.name = "DealError";
  }
}

/** How a round ended: the winner (null: nobody), each player's points and yaku. */
export class RoundResult {
  constructor(winner, points, yaku, calls, reason) {
    this.winner = winner;
    this.points = points;
    this.yaku = yaku;
    this.calls = calls;
    this.reason = reason;
    Object.freeze(this);
  }

  /** The docs/rules.md §7 form of one round in koikoi replay --json. */
  toJson() {
    return {
      winner: this.winner,
      points: [...this.points],
      yaku: [{ ...this.yaku[0] }, { ...this.yaku[1] }],
      calls: [...this.calls],
    };
  }
}

/** The mover's legal actions, from what the mover sees (shared by rounds and views). */
function legalMoves(phase, rules, handLo, handHi, fieldLo, fieldHi, pending) {
  if (phase === PLAY) {
    if (rules.forced_capture) {
      const matching = [];
      for (const card of ids(handLo, handHi)) {
        if ((HALF_OF[card] ? fieldHi : fieldLo) & MONTH_BITS_OF[card]) matching.push(card);
      }
      if (matching.length) return matching;
    }
    return ids(handLo, handHi);
  }
  if (phase === DECISION) return [KOIKOI, STOP];
  if (phase === OVER) return [];
  const half = HALF_OF[pending];
  const matches = (half ? fieldHi : fieldLo) & MONTH_BITS_OF[pending];
  const out = [];
  for (const card of half ? ids(0, matches) : ids(matches, 0)) out.push(CAPTURE_BASE + card);
  return out;
}

function monthCounts(lo, hi) {
  const counts = [];
  for (let m = 0; m < MONTH_COUNT; m++) counts.push(popcount(m < 6 ? (lo >>> (m * 4)) & 15 : (hi >>> ((m - 6) * 4)) & 15));
  return counts;
}

function fieldRedeals(lo, hi, rules) {
  if (!(rules.redeal_four_of_month || rules.redeal_three_of_month || rules.redeal_four_pairs)) return false;
  const counts = monthCounts(lo, hi);
  return (
    (rules.redeal_four_of_month && counts.includes(4)) ||
    (rules.redeal_three_of_month && Math.max(...counts) >= 3) ||
    (rules.redeal_four_pairs && counts.filter((c) => c === 2).length >= 4)
  );
}

/** A dealt hand that holds teshi or kuttsuki where these rules redeal it instead. */
function handRedeals(lo, hi, rules) {
  if (!(rules.redeal_hand_four_of_month || rules.redeal_hand_four_pairs)) return false;
  const counts = monthCounts(lo, hi);
  return (
    (rules.redeal_hand_four_of_month && counts.includes(4)) ||
    (rules.redeal_hand_four_pairs && counts.filter((c) => c === 2).length >= 4)
  );
}

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
  /** Shuffle and deal, redealing while the rules call for it. */
  static deal(rules, seed, dealer, month = 0) {
    const rng = seed instanceof PyRandom ? seed : new PyRandom(seed);
    for (let attempt = 0; attempt < MAX_REDEALS; attempt++) {
      const deck = shuffledDeck(rng);
      const [hands, field, stock] = dealFrom(deck, rules, dealer);
      if (fieldRedeals(field[0], field[1], rules)) continue;
      if (handRedeals(hands[0], hands[1], rules) || handRedeals(hands[2], hands[3], rules)) continue;
      const holders = [handYaku(hands[0], hands[1], rules), handYaku(hands[2], hands[3], rules)];
      if (isFull(holders[0]) && isFull(holders[1]) && rules.both_hand_yaku === BothHandYaku.REDEAL) continue;
      return Round.start(rules, dealer, hands, field, stock, month, holders);
    }
    throw new RulesError([`these rules redeal ${MAX_REDEALS} times in a row; they cannot deal`]);
  }

  /** A round from given cards (slugs; the stock top card first). The deal must stand. */
  static fromDeal(rules, dealer, hands, field, stock, month = 0) {
    if (dealer !== 0 && dealer !== 1) throw new DealError(`dealer must be 0 or 1, not ${pyRepr(dealer)}`);
    if (hands.length !== 2) throw new DealError(`a deal has two hands, not ${hands.length}`);
    let handSets;
    let fieldSet;
    let stockIds;
    try {
      handSets = hands.map(cardsFromSlugs);
      fieldSet = cardsFromSlugs(field);
      stockIds = stock.map(cardFromSlug);
    } catch (error) {
      if (error instanceof UnknownCardError) throw new DealError(error.message);
      throw error;
    }
    handSets.forEach((hand, seat) => {
      const n = popcount(hand[0]) + popcount(hand[1]);
      if (n !== rules.hand_size) throw new DealError(`hand ${seat} has ${n} cards; the rules deal ${rules.hand_size}`);
    });
    const fieldCount = popcount(fieldSet[0]) + popcount(fieldSet[1]);
    if (fieldCount !== rules.field_size) {
      throw new DealError(`the field has ${fieldCount} cards; the rules deal ${rules.field_size}`);
    }
    let seenLo = 0;
    let seenHi = 0;
    const parts = [handSets[0], handSets[1], fieldSet, ...stockIds.map((c) => (HALF_OF[c] ? [0, BIT_OF[c]] : [BIT_OF[c], 0]))];
    for (const [lo, hi] of parts) {
      if (seenLo & lo || seenHi & hi) throw new DealError(`card(s) ${slugs(seenLo & lo, seenHi & hi).join(", ")} dealt twice`);
      seenLo |= lo;
      seenHi |= hi;
    }
    if (seenLo !== 0xffffff || seenHi !== 0xffffff) {
      throw new DealError(`card(s) missing from the deal: ${slugs(~seenLo & 0xffffff, ~seenHi & 0xffffff).join(", ")}`);
    }
    if (fieldRedeals(fieldSet[0], fieldSet[1], rules)) {
      throw new DealError("the field meets a redeal condition of these rules; it would be redealt");
    }
    handSets.forEach(([lo, hi], seat) => {
      if (handRedeals(lo, hi, rules)) {
        throw new DealError(`hand ${seat} meets a redeal condition of these rules; it would be redealt`);
      }
    });
    const holders = handSets.map(([lo, hi]) => handYaku(lo, hi, rules));
    if (isFull(holders[0]) && isFull(holders[1]) && rules.both_hand_yaku === BothHandYaku.REDEAL) {
      throw new DealError("both hands hold a hand yaku; under these rules that deal is redealt");
    }
    const flat = [handSets[0][0], handSets[0][1], handSets[1][0], handSets[1][1]];
    return Round.start(rules, dealer, flat, fieldSet, stockIds, month, holders);
  }

  /** A dealt round; ``hands`` is [lo0, hi0, lo1, hi1], ``field`` [lo, hi]. */
  static start(rules, dealer, hands, field, stock, month, holders) {
    const game = new Round();
    game.rules = rules;
    game.scorer = scorerFor(rules);
    game.month = month;
    game.dealer = dealer;
    game.hands = hands;
    game.fieldLo = field[0];
    game.fieldHi = field[1];
    game.stock = stock;
    game.stockPos = 0;
    game.turnStartLo = 0;
    game.turnStartHi = 0;
    game.captured = [0, 0, 0, 0];
    game.calls = [0, 0];
    game.turn = dealer;
    game.phase = PLAY;
    game.history = [];
    game.handYaku = [{}, {}];
    game.result = null;
    game.pending = -1;
    game.pendingYaku = null;
    game.baseline = [null, null];
    game.dealt = [hands[0], hands[1], hands[2], hands[3], field[0], field[1]];
    const either = isFull(holders[0]) || isFull(holders[1]);
    const both = isFull(holders[0]) && isFull(holders[1]);
    if (either && !(both && rules.both_hand_yaku === BothHandYaku.IGNORE)) game.finishHandYaku(holders);
    return game;
  }

  /** An independent copy, cheap enough for search (the stock order is shared). */
  copy() {
    const other = new Round();
    Object.assign(other, this);
    other.hands = this.hands.slice();
    other.captured = this.captured.slice();
    other.calls = this.calls.slice();
    other.history = this.history.slice();
    return other;
  }

  // -- state ---------------------------------------------------------------------------

  get isOver() {
    return this.phase === OVER;
  }

  /** The stock still face down, top card first (hidden from both players). */
  get stockLeft() {
    return this.stock.slice(this.stockPos);
  }

  /** The played or drawn card waiting for a choice between two field cards. */
  get pendingCard() {
    return this.phase === HAND_CHOICE || this.phase === DRAW_CHOICE ? this.pending : null;
  }

  /** A seat's hand as [lo, hi]. */
  hand(seat) {
    return [this.hands[2 * seat], this.hands[2 * seat + 1]];
  }

  /** A seat's captured pile as [lo, hi]. */
  pile(seat) {
    return [this.captured[2 * seat], this.captured[2 * seat + 1]];
  }

  /** The yaku of a seat's captured cards (hand yaku not included). */
  yaku(seat) {
    return this.scorer.score(this.captured[2 * seat], this.captured[2 * seat + 1], this.month, this.calls[seat] > 0);
  }

  /** The cards as dealt, in the given-deal form of a record (docs/rules.md §7). */
  dealJson() {
    const [h0lo, h0hi, h1lo, h1hi, flo, fhi] = this.dealt;
    return {
      dealer: this.dealer,
      hands: [slugs(h0lo, h0hi), slugs(h1lo, h1hi)],
      field: slugs(flo, fhi),
      stock: this.stock.map((card) => SLUGS[card]),
    };
  }

  legalActions() {
    const seat = this.turn;
    return legalMoves(this.phase, this.rules, this.hands[2 * seat], this.hands[2 * seat + 1], this.fieldLo, this.fieldHi, this.pending);
  }

  /**
   * What ``seat`` may know now, and all it needs to decide: never the opponent's hand
   * nor the stock order (only their sizes). Plain data, copied from the round.
   */
  observation(seat, match = null) {
    const phase = this.phase;
    const other = 1 - seat;
    return {
      seat,
      rules: this.rules,
      phase,
      turn: this.turn,
      dealer: this.dealer,
      month: this.month,
      hand: [this.hands[2 * seat], this.hands[2 * seat + 1]],
      opponentHandSize: popcount(this.hands[2 * other]) + popcount(this.hands[2 * other + 1]),
      field: [this.fieldLo, this.fieldHi],
      captured: [
        [this.captured[0], this.captured[1]],
        [this.captured[2], this.captured[3]],
      ],
      stockSize: this.stock.length - this.stockPos,
      pendingCard: phase === HAND_CHOICE || phase === DRAW_CHOICE ? this.pending : null,
      legalActions: this.turn === seat && phase !== OVER ? this.legalActions() : [],
      calls: [this.calls[0], this.calls[1]],
      yaku: [this.yaku(0), this.yaku(1)],
      decided: [this.baseline[0], this.baseline[1]],
      history: this.history.map(([s, source, card, lo, hi]) => ({ seat: s, source, card, captured: [lo, hi] })),
      result: this.result,
      match,
    };
  }

  /**
   * The round a seat sees, completed with a guess of the hidden cards: ``opponentHand``
   * ([lo, hi]) and ``stock`` (top card first) must together be exactly the unseen cards.
   */
  static fromObservation(obs, opponentHand, stock) {
    let seenLo = obs.hand[0] | obs.field[0] | obs.captured[0][0] | obs.captured[1][0];
    let seenHi = obs.hand[1] | obs.field[1] | obs.captured[0][1] | obs.captured[1][1];
    if (obs.pendingCard !== null) {
      if (HALF_OF[obs.pendingCard]) seenHi |= BIT_OF[obs.pendingCard];
      else seenLo |= BIT_OF[obs.pendingCard];
    }
    let stockLo = 0;
    let stockHi = 0;
    for (const card of stock) {
      if (HALF_OF[card]) stockHi |= BIT_OF[card];
      else stockLo |= BIT_OF[card];
    }
    const unseenLo = ~seenLo & 0xffffff;
    const unseenHi = ~seenHi & 0xffffff;
    const [oppLo, oppHi] = opponentHand;
    if (
      popcount(oppLo) + popcount(oppHi) !== obs.opponentHandSize ||
      stock.length !== obs.stockSize ||
      popcount(stockLo) + popcount(stockHi) !== stock.length ||
      oppLo & stockLo ||
      oppHi & stockHi ||
      (oppLo | stockLo) !== unseenLo ||
      (oppHi | stockHi) !== unseenHi
    ) {
      throw new RangeError(
        `the guess must split the ${popcount(unseenLo) + popcount(unseenHi)} unseen cards into a hand` +
          ` of ${obs.opponentHandSize} and a stock of ${obs.stockSize}`,
      );
    }
    const game = new Round();
    game.rules = obs.rules;
    game.scorer = scorerFor(obs.rules);
    game.month = obs.month;
    game.dealer = obs.dealer;
    const hands = [0, 0, 0, 0];
    hands[2 * obs.seat] = obs.hand[0];
    hands[2 * obs.seat + 1] = obs.hand[1];
    hands[2 * (1 - obs.seat)] = oppLo;
    hands[2 * (1 - obs.seat) + 1] = oppHi;
    game.hands = hands;
    game.fieldLo = obs.field[0];
    game.fieldHi = obs.field[1];
    game.stock = [...stock];
    game.stockPos = 0;
    game.captured = [obs.captured[0][0], obs.captured[0][1], obs.captured[1][0], obs.captured[1][1]];
    game.calls = [...obs.calls];
    game.turn = obs.turn;
    game.phase = obs.phase;
    game.history = obs.history.map((e) => [e.seat, e.source, e.card, e.captured[0], e.captured[1]]);
    game.handYaku = [{}, {}];
    game.result = obs.result;
    game.pending = obs.pendingCard === null ? -1 : obs.pendingCard;
    game.pendingYaku = obs.phase === DECISION ? obs.yaku[obs.turn] : null;
    game.baseline = [...obs.decided];
    // Mid-turn, the pending choice is sure to capture, so the pile as it stands serves
    // as the turn's starting point.
    game.turnStartLo = obs.captured[obs.turn][0];
    game.turnStartHi = obs.captured[obs.turn][1];
    game.dealt = [hands[0], hands[1], hands[2], hands[3], obs.field[0], obs.field[1]];
    return game;
  }

  // -- moves ---------------------------------------------------------------------------

  /** Apply a legal action; an illegal one throws IllegalActionError and changes nothing. */
  apply(action) {
    const phase = this.phase;
    const seat = this.turn;
    if (phase === PLAY) {
      if (!(Number.isInteger(action) && action >= 0 && action < CAPTURE_BASE)) throw this.illegal(action);
      const half = HALF_OF[action];
      const slot = 2 * seat + half;
      const hand = this.hands[slot];
      const bit = BIT_OF[action];
      if (!(hand & bit) || (this.rules.forced_capture && !this.mayPlay(seat, action))) throw this.illegal(action);
      this.hands[slot] = hand ^ bit;
      const field = half ? this.fieldHi : this.fieldLo;
      const matches = field & MONTH_BITS_OF[action];
      if (matches) {
        if (popcount(matches) === 2) {
          this.phase = HAND_CHOICE;
          this.pending = action;
          return;
        }
        if (half) this.fieldHi = field ^ matches;
        else this.fieldLo = field ^ matches;
        this.captured[2 * seat + half] |= matches | bit;
      } else if (half) {
        this.fieldHi = field | bit;
      } else {
        this.fieldLo = field | bit;
      }
      this.history.push(half ? [seat, PLAYED, action, 0, matches] : [seat, PLAYED, action, matches, 0]);
      this.draw(seat);
    } else if (phase === HAND_CHOICE || phase === DRAW_CHOICE) {
      const chosen = Number.isInteger(action) ? action - CAPTURE_BASE : -1;
      const pending = this.pending;
      const half = HALF_OF[pending];
      // A month lies in one half, so the chosen card must be in the pending card's.
      if (!(chosen >= 0 && chosen < CARD_COUNT) || HALF_OF[chosen] !== half) throw this.illegal(action);
      const field = half ? this.fieldHi : this.fieldLo;
      if (!(field & MONTH_BITS_OF[pending] & BIT_OF[chosen])) throw this.illegal(action);
      this.lay(seat, pending, half, BIT_OF[chosen], phase === HAND_CHOICE ? PLAYED : DRAWN);
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
      this.finishStop(seat, this.pendingYaku, STOPPED);
    } else {
      throw this.illegal(action);
    }
  }

  illegal(action) {
    return new IllegalActionError(action, this.legalActions());
  }

  /** forced_capture: a card that matches nothing only when no hand card matches. */
  mayPlay(seat, card) {
    const field = (c) => (HALF_OF[c] ? this.fieldHi : this.fieldLo) & MONTH_BITS_OF[c];
    if (field(card)) return true;
    return !ids(this.hands[2 * seat], this.hands[2 * seat + 1]).some((c) => field(c));
  }

  /** A card goes down: it captures ``taken`` (bits in its half), or stays on the field. */
  lay(seat, card, half, taken, source) {
    const bit = BIT_OF[card];
    if (taken) {
      if (half) this.fieldHi ^= taken;
      else this.fieldLo ^= taken;
      this.captured[2 * seat + half] |= taken | bit;
    } else if (half) {
      this.fieldHi |= bit;
    } else {
      this.fieldLo |= bit;
    }
    this.history.push(half ? [seat, source, card, 0, taken] : [seat, source, card, taken, 0]);
  }

  draw(seat) {
    const pos = this.stockPos;
    if (pos < this.stock.length) {
      const card = this.stock[pos];
      this.stockPos = pos + 1;
      const half = HALF_OF[card];
      const field = half ? this.fieldHi : this.fieldLo;
      const matches = field & MONTH_BITS_OF[card];
      if (matches && popcount(matches) === 2) {
        this.phase = DRAW_CHOICE;
        this.pending = card;
        return;
      }
      this.lay(seat, card, half, matches, DRAWN);
    }
    this.endTurn(seat);
  }

  endTurn(seat) {
    const lo = this.captured[2 * seat];
    const hi = this.captured[2 * seat + 1];
    // Yaku only change with captures, and a yaku held at the start of the turn has
    // already had its decision.
    if (lo === this.turnStartLo && hi === this.turnStartHi) {
      this.nextTurn(seat);
      return;
    }
    const yaku = this.scorer.score(lo, hi, this.month, this.calls[seat] > 0);
    if (isFull(yaku) && this.triggered(seat, yaku)) {
      const final = !(this.hands[2 * seat] || this.hands[2 * seat + 1]) || this.stockPos === this.stock.length;
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

  triggered(seat, yaku) {
    const baseline = this.baseline[seat];
    if (baseline === null) return true;
    if (this.rules.decision === Decision.NEW_YAKU) return hasKeysOutside(yaku, baseline);
    return sumValues(yaku) > sumValues(baseline);
  }

  mayCall(seat) {
    const rules = this.rules;
    if (rules.max_koikoi && this.calls[seat] >= rules.max_koikoi) return false;
    return rules.koikoi_after_opponent || !this.calls[1 - seat];
  }

  nextTurn(seat) {
    const h = this.hands;
    if (!(h[0] || h[1] || h[2] || h[3]) || this.stockPos === this.stock.length) {
      this.finishExhausted();
    } else {
      const other = 1 - seat;
      this.turn = other;
      this.phase = PLAY;
      this.turnStartLo = this.captured[2 * other];
      this.turnStartHi = this.captured[2 * other + 1];
    }
  }

  // -- endings -------------------------------------------------------------------------

  end(winner, points, reason, held = null) {
    this.phase = OVER;
    this.pendingYaku = null;
    if (held === null) held = [{ ...this.yaku(0), ...this.handYaku[0] }, { ...this.yaku(1), ...this.handYaku[1] }];
    this.result = new RoundResult(winner, points, held, [this.calls[0], this.calls[1]], reason);
  }

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

  finishHandYaku(holders) {
    this.handYaku = [holders[0], holders[1]];
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

function isFull(yaku) {
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

function belowFactorial(words) {
  for (let i = WORDS - 1; i >= 0; i--) {
    if (words[i] !== FACTORIAL[i]) return words[i] < FACTORIAL[i];
  }
  return false;
}

/** A uniformly random order of the 48 cards, exactly as round.py draws it from rng. */
export function shuffledDeck(rng) {
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
const PLANS = new Map();

function dealPlan(handSize, fieldSize, step) {
  const key = `${handSize},${fieldSize},${step}`;
  let plan = PLANS.get(key);
  if (plan === undefined) {
    plan = [[], [], []];
    const sizes = [handSize, fieldSize, handSize];
    let pos = 0;
    while (pos < 2 * handSize + fieldSize) {
      for (let target = 0; target < 3; target++) {
        const take = Math.min(step, sizes[target] - plan[target].length);
        for (let i = 0; i < take; i++) plan[target].push(pos + i);
        pos += take;
      }
    }
    PLANS.set(key, plan);
  }
  return plan;
}

/** Hands [lo0, hi0, lo1, hi1], field [lo, hi] and stock (top card first) from a deck. */
function dealFrom(deck, rules, dealer) {
  const [others, fields, dealers] = dealPlan(rules.hand_size, rules.field_size, rules.deal_in_pairs ? 2 : 1);
  const gather = (positions) => {
    let lo = 0;
    let hi = 0;
    for (const pos of positions) {
      const card = deck[pos];
      if (card < HALF_BITS) lo |= BIT_OF[card];
      else hi |= BIT_OF[card];
    }
    return [lo, hi];
  };
  const hands = [0, 0, 0, 0];
  const other = gather(others);
  const own = gather(dealers);
  hands[2 * (1 - dealer)] = other[0];
  hands[2 * (1 - dealer) + 1] = other[1];
  hands[2 * dealer] = own[0];
  hands[2 * dealer + 1] = own[1];
  return [hands, gather(fields), deck.slice(2 * rules.hand_size + rules.field_size)];
}
