// @ts-check
// The coach (coach.py): the expert's evaluation turned into advice a player can read,
// from one seat's observation, never from the hidden cards. For the same observation,
// seed and budget each function gives coach.py's answer: the same sampled worlds and
// rollout noise, the same sums in the same order, and the JSON rounded as Python's
// round() rounds (tests/test_js_coach.py holds the two together).
//
// hint: the expert's move, the runner-up and the win chance it gives away, and the
// reasons as facts ({kind, ...values}) that the page words; risk: at a stop-or-koi-koi
// decision, what calling risks against stopping; review: a recorded match's decisions
// against the best.

import { CardSet, MONTH_MASKS, MONTH_OF, SLUGS } from "./cards.js";
import { yakuSets } from "./players-common.js";
import { DEFAULT_ROLLOUTS, Worlds, matchChance, playOut, ranked, sample, takeValues } from "./players-expert.js";
import { unseenOf } from "./players-observation.js";
import { takenBy } from "./players.js";
import { PyRandom } from "./random.js";
import { startMatch } from "./record.js";
import { EXHAUSTED, KOIKOI, Phase, Round, STOP, actionFromJson, actionToJson } from "./round.js";

/** @typedef {import("./round.js").Observation} Observation */
/** @typedef {import("./round.js").Action} Action */
/** @typedef {import("./round.js").ActionJson} ActionJson */
/** @typedef {import("./round.js").RoundResult} RoundResult */
/** @typedef {import("./record.js").Record} Record */
/** @typedef {import("./random.js").Seed} Seed */
/**
 * A reason for a move, as a fact the page words: its kind and its values (cards as
 * slugs, yaku keys, chances).
 * @typedef {{kind: string, [key: string]: unknown}} Fact
 */
/**
 * The coach's hint (hint()): the expert's move, its win chance (NaN: the only legal move),
 * the reasons, and the runner-up with the chance it gives away.
 * @typedef {object} Hint
 * @property {Action} best
 * @property {number} chance
 * @property {Fact[]} reasons
 * @property {Action | null} runnerUp
 * @property {number} loss
 * @property {Fact[]} runnerUpReasons
 */
/**
 * The koi-koi risk meter at a decision (risk()).
 * @typedef {object} Risk
 * @property {number} nextTurn the chance that the opponent can score at once after a call
 * @property {number} beforeEnd the chance that the opponent scores before the round ends
 * @property {number} ownLater the chance of scoring again after the call
 * @property {number} stopPoints the points a stop takes now
 * @property {number} callPoints the mean points after a call
 * @property {number} stopChance
 * @property {number} callChance
 * @property {number} worlds arrangements counted
 * @property {boolean} exact whether they were every arrangement
 * @property {Map<Action, Outlook>} outlooks stop's and koi-koi's
 */
/**
 * One reviewed decision (review()).
 * @typedef {object} Decision
 * @property {number} index the action's place in the record
 * @property {number} round
 * @property {Action} action
 * @property {Action} best
 * @property {number} chance
 * @property {number} bestChance
 * @property {string} mark good, inaccuracy or mistake
 */

/** Rollouts per hint: the expert's own budget, so the hint is the move it would make. */
export const HINT_ROLLOUTS = DEFAULT_ROLLOUTS;
/** Rollouts per reviewed decision: a tenth of a hint's, since a match has a hundred. */
export const REVIEW_ROLLOUTS = 400;
/** Arrangements of the unseen cards the risk meter samples when there are more. */
export const RISK_WORLDS = 400;
/** Up to this many arrangements, the risk meter counts every one (7 unseen cards). */
export const EXACT_WORLDS = 5040;
/** A review's decision at the record's index ``i`` is evaluated from seed this plus ``i``. */
export const REVIEW_SEED = 0xc0ac0000;
/** A move that gives away at least this much match win chance is an inaccuracy... */
export const INACCURACY = 0.02;
/** ...and at least this much, a mistake. */
export const MISTAKE = 0.06;
/** How many of the biggest swings of the win chance a review points at. */
export const SWINGS = 3;
/** The least move of the win chance a review calls a swing, one point (coach.py's). */
export const MIN_SWING = 0.01;
/** A difference in a yaku's chance worth telling the player about. */
export const CLEAR = 0.03;
/** Changes when the coach judges differently (coach.py's COACH_VERSION). */
export const COACH_VERSION = "1";

/**
 * The four cards of a card's month.
 * @param {number} card
 */
const monthOf = (card) => MONTH_MASKS[MONTH_OF[card]];

/**
 * Python's round(x, digits): the decimal nearest to x's exact value, read back as the
 * nearest double. toFixed finds the same decimal but sends exact ties up, where Python
 * takes the even digit; x is a tie when x * 2 ** (digits + 1) is an odd integer (a
 * power of two scales exactly), and those few are settled here.
 * @param {number} x
 * @param {number} [digits]
 * @returns {number}
 */
export function pyRound(x, digits = 0) {
  if (!Number.isFinite(x)) return x;
  const halves = x * 2 ** (digits + 1);
  if (Number.isInteger(halves) && Math.abs(halves) % 2 === 1) {
    const below = Math.floor(Math.abs(x) * 10 ** digits); // exact: an odd multiple of a half
    return Math.sign(x) * ((below % 2 ? below + 1 : below) / 10 ** digits);
  }
  return Number(x.toFixed(digits));
}

// -- what the sampled worlds say -------------------------------------------------------

/** What one action leads to, summed over sampled worlds (read the means). */
export class Outlook {
  constructor() {
    this.weight = 0.0; // the worlds, each counted by its likelihood
    this.chanceSum = 0.0; // match win chance (a single deal: of coming out ahead)
    this.pointsSum = 0.0; // this seat's round points less the opponent's
    this.scores = 0.0; // worlds in which this seat takes the round with a yaku
    this.concedes = 0.0; // ...in which the opponent does
  }

  /**
   * One world's outcome for ``seat``, counted ``weight`` times.
   * @param {number} seat
   * @param {RoundResult} result
   * @param {Observation} obs
   * @param {number} [weight]
   */
  add(seat, result, obs, weight = 1.0) {
    this.weight += weight;
    this.chanceSum += weight * matchChance(seat, result.points, obs.match, obs.rules.starting_points > 0);
    this.pointsSum += weight * (result.points[seat] - result.points[1 - seat]);
    if (result.winner !== null && result.reason !== EXHAUSTED) {
      if (result.winner === seat) this.scores += weight;
      else this.concedes += weight;
    }
  }

  get chance() {
    return this.chanceSum / this.weight;
  }

  get points() {
    return this.pointsSum / this.weight;
  }

  get ownYaku() {
    return this.scores / this.weight;
  }

  get theirYaku() {
    return this.concedes / this.weight;
  }
}

/**
 * The expert's own evaluation of ``obs`` from ``seed`` (players-expert.js's sample and
 * ranked): [the actions it sampled, best first as it ranks them (its choice first),
 * a Map of each one's outlook].
 * @param {Observation} obs
 * @param {number} rollouts
 * @param {Seed} seed
 * @returns {[Action[], Map<Action, Outlook>]}
 */
export function outlooks(obs, rollouts, seed) {
  const found = sample(obs, new PyRandom(seed), rollouts);
  /** @type {Map<Action, Outlook>} */
  const summed = new Map();
  for (const [action, results] of found) {
    const outlook = new Outlook();
    summed.set(action, outlook);
    for (const result of results) outlook.add(obs.seat, result, obs);
  }
  return [ranked(obs, found), summed];
}

// -- hints -----------------------------------------------------------------------------

/**
 * The cards ``action`` puts on this seat's pile at once (none for a discard): a played
 * card that matches two field cards takes the one worth more to the seat, as the expert
 * values them (the choice comes next); the stock's card is unknown.
 * @param {Observation} obs
 * @param {Action} action
 * @returns {CardSet}
 */
export function takenCards(obs, action) {
  return takenBy(obs, action, takeValues(obs.captured, obs.rules)[obs.seat]);
}

/**
 * The first fact of ``pairs`` ([rank, fact] pairs) by its rank, as a list of 0 or 1.
 * @param {[number, Fact][]} pairs
 * @returns {Fact[]}
 */
function leading(pairs) {
  return pairs.length ? [pairs.reduce((best, pair) => (pair[0] < best[0] ? pair : best))[1]] : [];
}

/**
 * What ``action`` does with the cards, as the seat can see it (facts, JSON-ready).
 * @param {Observation} obs
 * @param {Action} action
 * @returns {Fact[]}
 */
export function cardFacts(obs, action) {
  // At a stop-or-koi-koi decision no card moves: the risk meter tells that choice.
  if (obs.phase === Phase.DECISION) return [];
  const seat = obs.seat;
  const mine = obs.captured[seat];
  const theirs = obs.captured[1 - seat];
  const taken = takenCards(obs, action);
  if (obs.phase === Phase.PLAY && taken.isEmpty()) {
    const live = unseenOf(obs).intersect(monthOf(action));
    // A card whose month is all in sight can only ever come back to this seat.
    return [{ kind: live.isEmpty() ? "discard-dead" : "discard", card: SLUGS[action] }];
  }
  /** @type {Fact[]} */
  const facts = [{ kind: "takes", cards: taken.slugs() }];
  /** @type {Fact[]} */
  const made = [];
  /** @type {[number, Fact][]} */
  const toward = [];
  /** @type {[number, Fact][]} */
  const denies = [];
  for (const [cards, needed, , key] of yakuSets(obs.rules)) {
    if (!taken.intersects(cards)) continue;
    if (cards.minus(theirs).count() >= needed) {
      // still open to this seat
      const before = mine.intersect(cards).count();
      const after = mine.union(taken).intersect(cards).count();
      if (before < needed && needed <= after) made.push({ kind: "makes", yaku: key });
      else if (needed - 2 <= after && after < needed) toward.push([needed - after, { kind: "toward", yaku: key, missing: needed - after }]);
    }
    const held = theirs.intersect(cards);
    // The opponent is two cards or fewer from it, and it is still open to them.
    if (!held.isEmpty() && held.count() >= needed - 2 && cards.minus(mine).count() >= needed) {
      // Taking one of its cards may close it, or only slow it.
      const closes = cards.minus(mine.union(taken)).count() < needed;
      denies.push([-held.count() - 2 * Number(closes), { kind: "denies", yaku: key, held: held.slugs(), closes }]);
    }
  }
  return [...facts, ...made, ...leading(toward), ...leading(denies)];
}

/**
 * Between two discards: the other card would be worth more to the opponent.
 * @param {Observation} obs
 * @param {Action} best
 * @param {Action} other
 * @returns {Fact[]}
 */
export function discardFacts(obs, best, other) {
  if (obs.phase !== Phase.PLAY || !takenCards(obs, best).isEmpty() || !takenCards(obs, other).isEmpty()) return [];
  const worth = takeValues(obs.captured, obs.rules)[1 - obs.seat];
  if (worth[other] <= worth[best]) return [];
  return [{ kind: "gives-less", card: SLUGS[best], other: SLUGS[other] }];
}

/**
 * How the best move changes the round's yaku chances, where the change is clear.
 * @param {Outlook} best
 * @param {Outlook} other
 * @returns {Fact[]}
 */
export function chanceFacts(best, other) {
  /** @type {Fact[]} */
  const facts = [];
  if (other.theirYaku - best.theirYaku >= CLEAR) {
    facts.push({ kind: "safer", chance: pyRound(best.theirYaku, 3), other: pyRound(other.theirYaku, 3) });
  }
  if (best.ownYaku - other.ownYaku >= CLEAR) {
    facts.push({ kind: "stronger", chance: pyRound(best.ownYaku, 3), other: pyRound(other.ownYaku, 3) });
  }
  return facts;
}

/**
 * The legal actions best first, and each one's outlook: [order, a Map of outlooks]. At a
 * decision by the risk meter's match chances (``meter``, if already counted), else as
 * the expert ranks them.
 * @param {Observation} obs
 * @param {Seed} seed
 * @param {number} rollouts
 * @param {Risk | null} [meter]
 * @returns {[Action[], Map<Action, Outlook>]}
 */
export function judged(obs, seed, rollouts, meter = null) {
  if (obs.phase === Phase.DECISION) {
    const found = (meter ?? risk(obs, seed)).outlooks;
    /** @param {Action} action */
    const chance = (action) => /** @type {Outlook} */ (found.get(action)).chance;
    // Highest chance first; equal chances keep the legal order (a stable sort).
    const order = [...obs.legalActions].sort((a, b) => chance(b) - chance(a));
    return [order, found];
  }
  return outlooks(obs, rollouts, seed);
}

/**
 * The move the expert prefers at ``obs`` (the seat's turn), and why: {best, chance,
 * reasons, runnerUp (null: the only legal move), loss, runnerUpReasons}. ``meter``, a
 * risk() of this decision already counted, spares counting it again (the same answer).
 * @param {Observation} obs
 * @param {Seed} seed
 * @param {number} [rollouts]
 * @param {Risk | null} [meter]
 * @returns {Hint}
 */
export function hint(obs, seed, rollouts = HINT_ROLLOUTS, meter = null) {
  const legal = obs.legalActions;
  if (!legal.length) throw new RangeError("a hint is for the seat to move; this seat is waiting");
  if (legal.length === 1) {
    return { best: legal[0], chance: NaN, reasons: cardFacts(obs, legal[0]), runnerUp: null, loss: 0.0, runnerUpReasons: [] };
  }
  const [order, found] = judged(obs, seed, rollouts, meter);
  const [best, second] = order;
  const bestOutlook = /** @type {Outlook} */ (found.get(best));
  const secondOutlook = /** @type {Outlook} */ (found.get(second));
  const reasons = [...cardFacts(obs, best), ...discardFacts(obs, best, second), ...chanceFacts(bestOutlook, secondOutlook)];
  return {
    best,
    chance: bestOutlook.chance,
    reasons,
    runnerUp: second,
    loss: bestOutlook.chance - secondOutlook.chance,
    runnerUpReasons: cardFacts(obs, second),
  };
}

/**
 * A hint in the JSON the server sends (coach.py's Hint.to_json).
 * @param {Hint} found
 */
export function hintToJson(found) {
  return {
    best: actionToJson(found.best),
    // No chance with a single legal move: nothing was weighed.
    chance: Number.isNaN(found.chance) ? null : pyRound(found.chance, 4),
    reasons: found.reasons,
    runner_up: found.runnerUp === null ? null : actionToJson(found.runnerUp),
    loss: pyRound(found.loss, 4),
    runner_up_reasons: found.runnerUpReasons,
  };
}

// -- the koi-koi risk meter ------------------------------------------------------------

/** @param {number} n */
function factorial(n) {
  let product = 1;
  for (let k = 2; k <= n; k++) product *= k;
  return product;
}

/**
 * @param {number} n
 * @param {number} k
 */
function binomial(n, k) {
  let product = 1;
  for (let i = 1; i <= k; i++) product = (product * (n - k + i)) / i;
  return product;
}

/**
 * How many ways the unseen cards can lie: the opponent's hand, then the stock's order.
 * A double: exact as far as it matters, the comparison with EXACT_WORLDS.
 * @param {Observation} obs
 * @returns {number}
 */
export function arrangements(obs) {
  return binomial(unseenOf(obs).count(), obs.opponentHandSize) * factorial(obs.stockSize);
}

/**
 * The k-subsets of ``items``, in itertools.combinations' order.
 * @template T
 * @param {readonly T[]} items
 * @param {number} k
 * @returns {Generator<T[]>}
 */
function* combinations(items, k) {
  const picked = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield picked.map((i) => items[i]);
    let i = k - 1;
    while (i >= 0 && picked[i] === items.length - k + i) i--;
    if (i < 0) return;
    picked[i] += 1;
    for (let j = i + 1; j < k; j++) picked[j] = picked[j - 1] + 1;
  }
}

/**
 * The orders of ``items``, in itertools.permutations' (lexicographic) order.
 * @template T
 * @param {readonly T[]} items
 * @returns {Generator<T[]>}
 */
function* permutations(items) {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i], ...tail];
  }
}

/**
 * Every arrangement of the unseen cards with its likelihood when there are at most
 * EXACT_WORLDS, else ``samples`` of them drawn as the expert draws them (as likely as
 * the opponent's discards make them, so each counts once): [the opponent's hand, the
 * stock top first, its weight].
 * @param {Observation} obs
 * @param {Seed} seed
 * @param {number} samples
 * @returns {Generator<[CardSet, number[], number]>}
 */
export function* worlds(obs, seed, samples) {
  const guesses = new Worlds(obs, new PyRandom(seed));
  if (arrangements(obs) > EXACT_WORLDS) {
    for (let i = 0; i < samples; i++) {
      const [hand, stock] = guesses.guess();
      yield [hand, stock, 1.0];
    }
    return;
  }
  const unseen = unseenOf(obs).ids();
  for (const cards of combinations(unseen, obs.opponentHandSize)) {
    const hand = CardSet.of(cards);
    const likelihood = guesses.likelihood(hand);
    const rest = unseen.filter((card) => !cards.includes(card));
    for (const order of permutations(rest)) yield [hand, order, likelihood];
  }
}

/**
 * Whether ``seat``, to play, can end its turn with a yaku (trying every choice).
 * @param {Round} game
 * @param {number} seat
 * @returns {boolean}
 */
export function scoresThisTurn(game, seat) {
  if (game.phase === Phase.OVER) {
    const result = /** @type {RoundResult} */ (game.result);
    return result.winner === seat && result.reason !== EXHAUSTED;
  }
  if (game.turn !== seat) return false;
  if (game.phase === Phase.DECISION) return true;
  for (const action of game.legalActions()) {
    const tried = game.copy();
    tried.apply(action);
    if (scoresThisTurn(tried, seat)) return true;
  }
  return false;
}

/** A prime: an arrangement's noise seed is a polynomial of its cards modulo it. */
export const NOISE_MODULUS = 2n ** 61n - 1n;

/**
 * The rollout noise of one arrangement, fixed by the arrangement itself (coach.py's
 * world_noise): the hand's 48-bit number, then each stock card, in BigInt.
 * @param {CardSet} hand
 * @param {readonly number[]} stock
 * @returns {PyRandom}
 */
export function worldNoise(hand, stock) {
  let seed = BigInt(hand.toNumber()) % NOISE_MODULUS;
  for (const card of stock) seed = (seed * 49n + BigInt(card + 1)) % NOISE_MODULUS;
  return new PyRandom(seed);
}

/**
 * The koi-koi risk meter at a decision of ``obs.seat``: in each arrangement of the
 * unseen cards the call is made and the round played out with the expert's rollout
 * policy; the turn right after the call is searched in full, so ``nextTurn`` is the
 * chance that the opponent *can* score at once. Small positions count every arrangement.
 * @param {Observation} obs
 * @param {Seed} [seed]
 * @param {number} [samples]
 * @returns {Risk}
 */
export function risk(obs, seed = 0, samples = RISK_WORLDS) {
  if (obs.phase !== Phase.DECISION || !obs.legalActions.length) {
    throw new RangeError("the risk meter is for a stop-or-koi-koi decision of this seat");
  }
  const seat = obs.seat;
  const opponent = 1 - seat;
  const values = takeValues(obs.captured, obs.rules);
  const stop = new Outlook();
  const call = new Outlook();
  let threats = 0.0;
  let conceded = 0.0;
  let counted = 0;
  for (const [hand, stock, weight] of worlds(obs, seed, samples)) {
    const world = Round.fromObservation(obs, hand, stock);
    const stopped = world.copy();
    stopped.apply(STOP);
    stop.add(seat, /** @type {RoundResult} */ (stopped.result), obs, weight);
    const called = world.copy();
    called.apply(KOIKOI);
    const threat = scoresThisTurn(called.copy(), opponent);
    const result = playOut(called, worldNoise(hand, stock), values);
    call.add(seat, result, obs, weight);
    if (threat) threats += weight;
    // An opponent who can score at once is counted as doing so, whatever the rollout.
    if (threat || (result.winner === opponent && result.reason !== EXHAUSTED)) conceded += weight;
    counted += 1;
  }
  return {
    nextTurn: threats / call.weight,
    beforeEnd: conceded / call.weight,
    ownLater: call.ownYaku,
    stopPoints: pyRound(stop.points),
    callPoints: call.points,
    stopChance: stop.chance,
    callChance: call.chance,
    worlds: counted,
    exact: arrangements(obs) <= EXACT_WORLDS,
    outlooks: new Map([
      [STOP, stop],
      [KOIKOI, call],
    ]),
  };
}

/**
 * The risk meter in the JSON the server sends (coach.py's Risk.to_json).
 * @param {Risk} meter
 */
export function riskToJson(meter) {
  return {
    next_turn: pyRound(meter.nextTurn, 4),
    before_end: pyRound(meter.beforeEnd, 4),
    own_later: pyRound(meter.ownLater, 4),
    stop_points: meter.stopPoints,
    call_points: pyRound(meter.callPoints, 2),
    stop_chance: pyRound(meter.stopChance, 4),
    call_chance: pyRound(meter.callChance, 4),
    worlds: meter.worlds,
    exact: meter.exact,
  };
}

// -- reviews ---------------------------------------------------------------------------

/**
 * How a decision that gives away ``loss`` of the win chance is marked.
 * @param {number} loss
 * @returns {string}
 */
export function mark(loss) {
  return loss >= MISTAKE ? "mistake" : loss >= INACCURACY ? "inaccuracy" : "good";
}

/**
 * Every decision ``seat`` took in a recorded match (record.js's Record), judged from
 * what it saw then, each from a seed that depends only on its place in the record:
 * {seat, decisions: [{index, round, action, best, chance, bestChance, mark}], swings}.
 * Swings are the places in ``decisions`` where the chance moved most since the last.
 * @param {Record} record
 * @param {number} [seat]
 * @param {number} [rollouts]
 * @returns {{seat: number, decisions: Decision[], swings: number[]}}
 */
export function review(record, seat = 0, rollouts = REVIEW_ROLLOUTS) {
  const match = startMatch(record);
  /** @type {Decision[]} */
  const decisions = [];
  record.actions.forEach((data, index) => {
    const action = actionFromJson(data);
    if (match.turn === seat && match.legalActions().length > 1) {
      const obs = match.observation(seat);
      const [order, found] = judged(obs, REVIEW_SEED + index, rollouts);
      const best = order[0];
      const chance = /** @type {Outlook} */ (found.get(action)).chance;
      const bestChance = /** @type {Outlook} */ (found.get(best)).chance;
      decisions.push({ index, round: match.roundNumber, action, best, chance, bestChance, mark: mark(bestChance - chance) });
    }
    match.apply(action);
  });
  return { seat, decisions, swings: swings(decisions.map((decision) => decision.chance)) };
}

/**
 * The places of the SWINGS biggest moves of the win chance from one decision to the next
 * (the later decision's place), in order; a move under MIN_SWING is none (coach.py's
 * swings).
 * @param {readonly number[]} chances
 * @returns {number[]}
 */
export function swings(chances) {
  const moves = chances.slice(1).map((after, i) => Math.abs(after - chances[i]));
  // The biggest moves first; equal ones keep their order (a stable sort).
  const biggest = moves.map((_, i) => i).sort((a, b) => moves[b] - moves[a]);
  const top = biggest.filter((i) => moves[i] >= MIN_SWING).slice(0, SWINGS);
  return top.map((i) => i + 1).sort((a, b) => a - b);
}

/** @param {ReturnType<typeof review>} found */
function reviewToJson(found) {
  const marks = found.decisions.map((decision) => decision.mark);
  return {
    coach: COACH_VERSION,
    seat: found.seat,
    decisions: found.decisions.map((d) => ({
      index: d.index,
      round: d.round,
      action: actionToJson(d.action),
      best: actionToJson(d.best),
      chance: pyRound(d.chance, 4),
      best_chance: pyRound(d.bestChance, 4),
      loss: pyRound(Math.max(0.0, d.bestChance - d.chance), 4),
      mark: d.mark,
    })),
    swings: found.swings,
    counts: Object.fromEntries(["good", "inaccuracy", "mistake"].map((kind) => [kind, marks.filter((m) => m === kind).length])),
  };
}

// -- what the server sends -------------------------------------------------------------

/**
 * A hint for the seat to move, with the risk meter at a decision (coach.advice's JSON).
 * @param {Observation} obs
 * @param {Seed} seed
 * @param {number} [rollouts]
 */
export function advice(obs, seed, rollouts = HINT_ROLLOUTS) {
  const meter = obs.phase === Phase.DECISION ? risk(obs, seed) : null;
  return { hint: hintToJson(hint(obs, seed, rollouts, meter)), risk: meter === null ? null : riskToJson(meter) };
}

/**
 * A review of ``seat``'s decisions in a recorded match, as the server sends it.
 * @param {Record} record
 * @param {number} seat
 * @param {number} [rollouts]
 */
export function reviewJson(record, seat, rollouts = REVIEW_ROLLOUTS) {
  return reviewToJson(review(record, seat, rollouts));
}
