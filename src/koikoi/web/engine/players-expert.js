// @ts-check
// The expert (expert.py): imperfect-information search by sampling and rollouts.
//
// For each decision the expert deals out many worlds: the cards it cannot see (the
// opponent's hand and the stock) shuffled at random, each guess kept as likely as the
// opponent's discards make it (Worlds). In every world it tries each candidate action on
// a copy of the engine's own round (Round.fromObservation), plays the round out with a
// fast rollout policy, and scores the outcome by what it is worth for the match: the
// chance of winning it given the totals, the rounds left and the target score. The same
// worlds, and the same rollout noise, serve every action (common random numbers), and
// the budget goes by sequential halving: each phase drops the worse half (sample).
//
// The budget is a number of rollouts, so a seed and a budget give the same move on any
// machine, and the move expert.py makes: the same shuffles, seeds and noise from the
// same generator, the same floating-point operations in the same order, and erf as
// Python's C library computes it (players-math.js). ``budgetMs`` adds a wall-clock cap
// for live play (and with it, moves depend on the machine's speed).

import { CARD_VALUES, CardSet, HALF_OF, MONTH_BITS_OF, MONTH_MASKS, MONTH_OF, popcount } from "./cards.js";
import { CAPTURE_BASE, KOIKOI, PLAYED, Phase, Round, STOP } from "./round.js";
import { PyRandom } from "./random.js";
import { normalCdf } from "./players-math.js";
import { unseenOf } from "./players-observation.js";
import { copyState, generator, reseed, shuffle } from "./players-random.js";
import { totalsAfter } from "./match.js";
import { countBoth, openYaku, stopLosesMatch } from "./players-common.js";

/** @typedef {import("./round.js").Observation} Observation */
/** @typedef {import("./round.js").Action} Action */
/** @typedef {import("./round.js").RoundResult} RoundResult */
/** @typedef {import("./rules.js").RuleSet} RuleSet */
/** @typedef {import("./match.js").MatchView} MatchView */
/** @typedef {import("./random.js").Seed} Seed */
/**
 * The expert's think budget: rollouts per decision, and an optional wall-clock cap.
 * @typedef {object} ExpertOptions
 * @property {number} [rollouts]
 * @property {number | null} [budgetMs]
 */
/** Each card's worth to each seat, by id (takeValues). @typedef {[number[], number[]]} TakeValues */

/** Rollouts per decision at the default budget, shared among the legal actions. */
export const DEFAULT_ROLLOUTS = 4000;

/** A typical spread (standard deviation) of one round's point difference. */
export const ROUND_SPREAD = 6.0;

const PLAY = Phase.PLAY;
const DECISION = Phase.DECISION;
const OVER = Phase.OVER;

/**
 * What each card is worth to each seat, from the piles as they stand: its value, plus
 * a bonus for every yaku it belongs to that the seat can still make (more the more of
 * it the seat holds), plus half of what it is worth to the opponent.
 * @param {readonly [CardSet, CardSet]} captured each seat's pile
 * @param {RuleSet} rules
 * @returns {TakeValues}
 */
export function takeValues(captured, rules) {
  /** @type {number[][]} */
  const own = [];
  for (const seat of [0, 1]) {
    const values = CARD_VALUES.map((v) => v);
    const mine = captured[seat];
    const theirs = captured[1 - seat];
    for (const [cards, needed, points] of openYaku(theirs, rules)) {
      const bonus = (2.0 * points * (1 + countBoth(mine, cards))) / needed;
      for (const card of cards.minus(mine).minus(theirs).ids()) values[card] += bonus;
    }
    own.push(values);
  }
  return [own[0].map((a, i) => a + own[1][i] / 2), own[1].map((a, i) => a + own[0][i] / 2)];
}

/**
 * The fast policy both sides follow inside a rollout (expert.py's rollout_action).
 * @param {Round} game
 * @param {PyRandom} noise
 * @param {TakeValues} values
 * @returns {Action}
 */
export function rolloutAction(game, noise, values) {
  const phase = game.phase;
  const seat = game.turn;
  if (phase === PLAY) {
    const fieldLo = game.field.lo;
    const fieldHi = game.field.hi;
    const mine = values[seat];
    const theirs = values[1 - seat];
    let best = -1;
    let bestScore = -1e9;
    // With forced_capture the legal plays are the matching cards, when there are any.
    const hand = game.rules.forced_capture ? game.legalActions() : game.hands[seat].ids();
    for (let i = 0; i < hand.length; i++) {
      const card = hand[i];
      const half = HALF_OF[card];
      const matches = (half ? fieldHi : fieldLo) & MONTH_BITS_OF[card];
      let score;
      if (!matches) {
        score = -theirs[card];
      } else {
        const offset = half ? 24 : 0;
        if (popcount(matches) === 2) {
          let top = -Infinity;
          for (let bits = matches; bits; bits &= bits - 1) {
            const v = mine[offset + 31 - Math.clz32(bits & -bits)];
            if (v > top) top = v;
          }
          score = mine[card] + top;
        } else {
          // sum() from 0, in card order
          let sum = 0;
          for (let bits = matches; bits; bits &= bits - 1) sum += mine[offset + 31 - Math.clz32(bits & -bits)];
          score = mine[card] + sum;
        }
      }
      score += noise.random() * 1.5;
      if (score > bestScore) {
        best = card;
        bestScore = score;
      }
    }
    return best;
  }
  if (phase === DECISION) return STOP;
  const mine = values[seat];
  let best = -1;
  let bestKey = 0;
  for (const action of game.legalActions()) {
    const key = mine[action - CAPTURE_BASE] + noise.random();
    if (best === -1 || key > bestKey) {
      best = action;
      bestKey = key;
    }
  }
  return best;
}

/**
 * Play a round out with the rollout policy; how it ended.
 * @param {Round} game
 * @param {PyRandom} noise
 * @param {TakeValues} values
 * @returns {RoundResult}
 */
export function playOut(game, noise, values) {
  while (game.phase !== OVER) game.apply(rolloutAction(game, noise, values));
  return /** @type {RoundResult} */ (game.result);
}

/**
 * The chance that ``seat`` wins the match once a round ends with ``points``: in a match,
 * estimated from the totals after this round (``zeroSum``: the points move from one
 * seat to the other); outside one (a single deal), the chance of coming out of the
 * round ahead, from its points squashed.
 * @param {number} seat
 * @param {readonly number[]} points
 * @param {MatchView | null} match
 * @param {boolean} [zeroSum]
 * @returns {number}
 */
export function matchChance(seat, points, match, zeroSum = false) {
  const diff = points[seat] - points[1 - seat];
  if (match === null) return normalCdf(diff / ROUND_SPREAD);
  const [totals, over] = totalsAfter(match, points, zeroSum);
  const mine = totals[seat];
  const theirs = totals[1 - seat];
  let chance;
  if (over) {
    chance = mine > theirs ? 1.0 : mine < theirs ? 0.0 : 0.5;
  } else {
    const target = match.targetScore;
    let roundsLeft = match.roundsLeft;
    if (target) {
      // Near the target the match will end sooner than its round count says.
      const closest = target - Math.max(mine, theirs);
      roundsLeft = Math.min(roundsLeft, Math.max(1, Math.ceil(closest / (ROUND_SPREAD / 2))));
    }
    // Zero-sum, a round moves the lead by twice its points.
    const spread = ROUND_SPREAD * (zeroSum ? 2 : 1);
    chance = normalCdf((mine - theirs) / (spread * Math.sqrt(roundsLeft)));
  }
  return chance;
}

/**
 * What a round ending with ``points`` is worth to ``seat``, from 0 (a lost match) to 1:
 * its matchChance, and in a match a small term for the round's points that breaks ties
 * between outcomes of equal chances (a single deal's chance already grows with them).
 * @param {number} seat
 * @param {readonly number[]} points
 * @param {MatchView | null} match
 * @param {boolean} [zeroSum]
 * @returns {number}
 */
export function matchValue(seat, points, match, zeroSum = false) {
  const chance = matchChance(seat, points, match, zeroSum);
  return match === null ? chance : chance + 0.001 * (points[seat] - points[1 - seat]);
}

/**
 * The legal actions worth weighing (expert.py's candidates): all of them but a stop
 * that loses the match for certain, which a koi-koi can do no worse than.
 * @param {Observation} obs
 * @returns {readonly Action[]}
 */
export function candidates(obs) {
  if (obs.phase === DECISION && stopLosesMatch(obs)) return [KOIKOI];
  return obs.legalActions;
}

/**
 * How much less likely a world is for each of the opponent's discards in it that left a
 * capture in the opponent's hand: players who could take a card nearly always do.
 */
export const DISCARD_LIKELIHOOD = 0.1;
/** Worlds drawn at most for one sample before the last is taken, however unlikely. */
export const MAX_DRAWS = 20;

/**
 * For each of the opponent's discards this round (a hand card that took nothing), the
 * unseen cards that would have taken something from the field as it was then
 * (expert.py's discard_evidence), latest discard first.
 * @param {Observation} obs
 * @returns {CardSet[]}
 */
export function discardEvidence(obs) {
  const opponent = 1 - obs.seat;
  const unseen = unseenOf(obs);
  const field = obs.field.copy();
  /** @type {CardSet[]} */
  const evidence = [];
  // Back through the round from the field as it is: each event undone gives the field
  // it was played onto.
  const history = obs.history;
  for (let i = history.length - 1; i >= 0; i--) {
    const { seat, source, card, captured } = history[i];
    const took = !captured.isEmpty();
    if (took) field.addAll(captured);
    else field.remove(card);
    if (seat === opponent && source === PLAYED && !took) {
      const months = new CardSet(0, 0);
      for (const onField of field.ids()) months.addAll(MONTH_MASKS[MONTH_OF[onField]]);
      const live = months.intersect(unseen);
      if (!live.isEmpty()) evidence.push(live);
    }
  }
  return evidence;
}

/**
 * Guesses of the cards a seat cannot see, drawn as likely as its observation makes
 * them: uniformly, then kept with the likelihood of the opponent's discards in them
 * (DISCARD_LIKELIHOOD for each that passed up a capture). expert.py's Worlds.
 */
export class Worlds {
  /**
   * @param {Observation} obs
   * @param {PyRandom} rng
   */
  constructor(obs, rng) {
    this.obs = obs;
    this.rng = rng;
    this.unseen = unseenOf(obs).ids();
    this.evidence = discardEvidence(obs);
  }

  /**
   * How likely the opponent's discards were, were ``hand`` its hand.
   * @param {CardSet} hand
   * @returns {number}
   */
  likelihood(hand) {
    let passed = 0;
    for (const cards of this.evidence) if (hand.intersects(cards)) passed += 1;
    // As Python's 0.1 ** n (C's pow): V8's ** gives the same double for n up to 12 (more
    // discards than the usual hands have), and past that at most the last bit of a
    // number under 1e-12 differs, where no random() draw falls between the two.
    return passed ? DISCARD_LIKELIHOOD ** passed : 1.0;
  }

  /**
   * One guess: [the opponent's hand, the stock top first].
   * @returns {[CardSet, number[]]}
   */
  guess() {
    const rng = this.rng;
    const unseen = this.unseen;
    const handSize = this.obs.opponentHandSize;
    let hand = new CardSet(0, 0);
    for (let draws = 0; draws < MAX_DRAWS; draws++) {
      shuffle(rng, unseen);
      hand = CardSet.of(unseen.slice(0, handSize));
      const likelihood = this.likelihood(hand);
      if (likelihood === 1.0 || rng.random() < likelihood) break;
    }
    return [hand, unseen.slice(handSize)];
  }

  /**
   * One guess, as the round it makes.
   * @returns {Round}
   */
  draw() {
    const [hand, stock] = this.guess();
    return Round.fromObservation(this.obs, hand, stock);
  }
}

/**
 * A match value's cache key: the round's points.
 * @param {readonly number[]} points
 * @returns {number | string}
 */
function pointsKey(points) {
  const [p0, p1] = points;
  return p0 >= 0 && p1 >= 0 && p0 < 67108864 && p1 < 67108864 ? p0 * 67108864 + p1 : `${p0},${p1}`;
}

/**
 * The mean match value of ``results`` (expert.py's mean_value): summed from 0 in their
 * order, then divided by their number. ``cache`` (a Map by points) spares recomputing
 * the match value of points already seen (the same value).
 * @param {number} seat
 * @param {readonly RoundResult[]} results
 * @param {MatchView | null} match
 * @param {boolean} zeroSum
 * @param {Map<number | string, number>} [cache]
 * @returns {number}
 */
export function meanValue(seat, results, match, zeroSum, cache = new Map()) {
  let total = 0;
  for (const result of results) {
    const key = pointsKey(result.points);
    let value = cache.get(key);
    if (value === undefined) {
      value = matchValue(seat, result.points, match, zeroSum);
      cache.set(key, value);
    }
    total += value;
  }
  return total / results.length;
}

/**
 * The candidate actions' rounds in the sampled worlds, by sequential halving (expert.py's
 * sample): a Map from each candidate action to its RoundResults. The budget is split
 * into phases (one per halving); each phase plays every action still in the running in
 * the same new worlds (common random numbers), then drops the worse half by mean match
 * value. ``deadline``: a performance.now() time after which sampling stops.
 * @param {Observation} obs
 * @param {PyRandom} rng
 * @param {number} rollouts
 * @param {number | null} [deadline]
 * @returns {Map<Action, RoundResult[]>}
 */
export function sample(obs, rng, rollouts, deadline = null) {
  const legal = candidates(obs);
  const seat = obs.seat;
  const match = obs.match;
  const zeroSum = obs.rules.starting_points > 0;
  const worlds = new Worlds(obs, rng);
  const values = takeValues(obs.captured, obs.rules);
  /** @type {Map<Action, RoundResult[]>} */
  const results = new Map(legal.map((action) => [action, []]));
  /** @type {Map<number | string, number>} */
  const cache = new Map(); // match values by round points: a few dozen per decision
  const seeded = new PyRandom(0); // reseeded for every world
  const noise = new PyRandom(0); // a copy of it for every rollout
  let alive = [...legal];
  // max(1, ceil(log2(n))): for n >= 2, ceil(log2(n)) is the bit length of n - 1.
  const phases = Math.max(1, 32 - Math.clz32(legal.length - 1));
  for (let phase = 0; phase < phases; phase++) {
    const count = Math.max(1, Math.floor(rollouts / (phases * alive.length)));
    for (let w = 0; w < count; w++) {
      const world = worlds.draw();
      reseed(seeded, rng.getrandbits(32));
      for (const action of alive) {
        const game = world.copy();
        game.apply(action);
        // The same noise in every action's rollout: common random numbers.
        /** @type {RoundResult[]} */ (results.get(action)).push(playOut(game, copyState(seeded, noise), values));
      }
      if (deadline !== null && performance.now() > deadline) return results;
    }
    if (phase < phases - 1) {
      const means = new Map(alive.map((action) => [action, meanValue(seat, /** @type {RoundResult[]} */ (results.get(action)), match, zeroSum, cache)]));
      /** @param {Action} action */
      const mean = (action) => /** @type {number} */ (means.get(action));
      // Best first; ties keep their order (a stable sort, as Python's reverse=True).
      alive.sort((a, b) => mean(b) - mean(a));
      alive = alive.slice(0, (alive.length + 1) >> 1);
    }
  }
  return results;
}

/**
 * The sampled actions best first (expert.py's ranked): those sampled most (the last
 * phase's), by mean match value; equal keys keep their order in ``found`` (Python's
 * sorted(..., reverse=True) is stable so).
 * @param {Observation} obs
 * @param {Map<Action, RoundResult[]>} found
 * @returns {Action[]}
 */
export function ranked(obs, found) {
  const zeroSum = obs.rules.starting_points > 0;
  /** @type {Map<number | string, number>} */
  const cache = new Map();
  /** @type {Map<Action, [number, number]>} */
  const keys = new Map();
  for (const [action, results] of found) keys.set(action, [results.length, meanValue(obs.seat, results, obs.match, zeroSum, cache)]);
  return [...found.keys()].sort((a, b) => {
    const [lengthA, meanA] = /** @type {[number, number]} */ (keys.get(a));
    const [lengthB, meanB] = /** @type {[number, number]} */ (keys.get(b));
    return lengthB - lengthA || (meanB > meanA ? 1 : meanB < meanA ? -1 : 0);
  });
}

export class ExpertPlayer {
  /**
   * ``rollouts``: the think budget; ``budgetMs``: an optional wall-clock cap.
   * @param {Seed | PyRandom} seed
   * @param {ExpertOptions} [options]
   */
  constructor(seed, { rollouts = DEFAULT_ROLLOUTS, budgetMs = null } = {}) {
    if (!Number.isSafeInteger(rollouts) || rollouts < 1) throw new RangeError(`rollouts must be a whole number >= 1, not ${rollouts}`);
    if (budgetMs !== null && !(typeof budgetMs === "number" && budgetMs >= 0)) {
      throw new RangeError(`budgetMs must be a number of milliseconds >= 0, not ${budgetMs}`);
    }
    this.name = "expert";
    this.rng = generator(seed);
    this.rollouts = rollouts;
    this.budgetMs = budgetMs;
  }

  /**
   * @param {Observation} obs
   * @returns {Action}
   */
  choose(obs) {
    const legal = candidates(obs);
    if (legal.length === 1) return legal[0];
    return ranked(obs, this.evaluate(obs))[0];
  }

  /**
   * How each candidate action's round ended in the worlds this move samples.
   * @param {Observation} obs
   * @returns {Map<Action, RoundResult[]>}
   */
  evaluate(obs) {
    const deadline = this.budgetMs === null ? null : performance.now() + this.budgetMs;
    return sample(obs, this.rng, this.rollouts, deadline);
  }
}
