// The expert (expert.py): imperfect-information search by sampling and rollouts.
//
// For each decision the expert deals out many worlds: the cards it cannot see (the
// opponent's hand and the stock) shuffled at random. In every world it tries each legal
// action on a copy of the engine's own round (Round.fromObservation), plays the round
// out with a fast rollout policy, and scores the outcome by what it is worth for the
// match: the chance of winning it given the totals, the rounds left and the target
// score. The same worlds, and the same rollout noise, serve every action (common random
// numbers).
//
// The budget is a number of rollouts, so a seed and a budget give the same move on any
// machine, and the move expert.py makes: the same shuffles, seeds and noise from the
// same generator, the same floating-point operations in the same order, and erf as
// Python's C library computes it (players-math.js). ``budgetMs`` adds a wall-clock cap
// for live play (and with it, moves depend on the machine's speed).

import { CARD_VALUES, HALF_OF, MONTH_BITS_OF, ids, popcount, setOf } from "./cards.js";
import { CAPTURE_BASE, KOIKOI, Phase, Round, STOP } from "./round.js";
import { PyRandom } from "./random.js";
import { normalCdf } from "./players-math.js";
import { unseenOf } from "./players-observation.js";
import { copyState, generator, reseed, shuffle } from "./players-random.js";
import { countBoth, openYaku, stopLosesMatch, totalsAfter } from "./players-common.js";

/** Rollouts per decision at the default budget, shared among the legal actions. */
export const DEFAULT_ROLLOUTS = 2000;

/** A typical spread (standard deviation) of one round's point difference. */
export const ROUND_SPREAD = 6.0;

const PLAY = Phase.PLAY;
const DECISION = Phase.DECISION;
const OVER = Phase.OVER;

/**
 * What each card is worth to each seat, from the piles as they stand: its value, plus
 * a bonus for every yaku it belongs to that the seat can still make (more the more of
 * it the seat holds), plus half of what it is worth to the opponent.
 */
export function takeValues(captured, rules) {
  const own = [];
  for (const seat of [0, 1]) {
    const values = CARD_VALUES.map((v) => v);
    const mine = captured[seat];
    const theirs = captured[1 - seat];
    for (const [cards, needed, points] of openYaku(theirs, rules)) {
      const bonus = (2.0 * points * (1 + countBoth(mine, cards))) / needed;
      for (const card of ids(cards[0] & ~mine[0] & ~theirs[0], cards[1] & ~mine[1] & ~theirs[1])) values[card] += bonus;
    }
    own.push(values);
  }
  return [own[0].map((a, i) => a + own[1][i] / 2), own[1].map((a, i) => a + own[0][i] / 2)];
}

/** The fast policy both sides follow inside a rollout (expert.py's rollout_action). */
export function rolloutAction(game, noise, values) {
  const phase = game.phase;
  const seat = game.turn;
  if (phase === PLAY) {
    const fieldLo = game.fieldLo;
    const fieldHi = game.fieldHi;
    const mine = values[seat];
    const theirs = values[1 - seat];
    let best = -1;
    let bestScore = -1e9;
    // With forced_capture the legal plays are the matching cards, when there are any.
    const hand = game.rules.forced_capture ? game.legalActions() : ids(game.hands[2 * seat], game.hands[2 * seat + 1]);
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
      score += noise.random() * 4;
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

export function playOut(game, noise, values) {
  while (game.phase !== OVER) game.apply(rolloutAction(game, noise, values));
  return game.result;
}

/**
 * The chance that ``seat`` wins the match once a round ends with ``points``: in a match,
 * estimated from the totals after this round (``zeroSum``: the points move from one
 * seat to the other); outside one (a single deal), the chance of coming out of the
 * round ahead, from its points squashed.
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
 */
export function matchValue(seat, points, match, zeroSum = false) {
  const chance = matchChance(seat, points, match, zeroSum);
  return match === null ? chance : chance + 0.001 * (points[seat] - points[1 - seat]);
}

/**
 * The legal actions worth weighing (expert.py's candidates): all of them but a stop
 * that loses the match for certain, which a koi-koi can do no worse than.
 */
export function candidates(obs) {
  if (obs.phase === DECISION && stopLosesMatch(obs)) return [KOIKOI];
  return obs.legalActions;
}

export class ExpertPlayer {
  /** ``rollouts``: the think budget; ``budgetMs``: an optional wall-clock cap. */
  constructor(seed, { rollouts = DEFAULT_ROLLOUTS, budgetMs = null } = {}) {
    if (!Number.isSafeInteger(rollouts) || rollouts < 1) throw new RangeError(`rollouts must be a whole number >= 1, not ${rollouts}`);
    if (budgetMs !== null && !(typeof budgetMs === "number" && budgetMs >= 0)) {
      throw new RangeError(`budgetMs must be a number of milliseconds >= 0, not ${budgetMs}`);
    }
    this.name = "expert";
    this.rng = generator(seed);
    this.rollouts = rollouts;
    this.budgetMs = budgetMs;
    this.seeded = new PyRandom(0); // reseeded for every world
    this.noise = new PyRandom(0); // a copy of it for every rollout
  }

  choose(obs) {
    const legal = candidates(obs);
    if (legal.length === 1) return legal[0];
    const values = this.evaluate(obs);
    let best = legal[0];
    for (const action of legal) if (values.get(action) > values.get(best)) best = action;
    return best;
  }

  /** The mean match value of each candidate action over the sampled worlds (a Map). */
  evaluate(obs) {
    const legal = candidates(obs);
    const seat = obs.seat;
    const zeroSum = obs.rules.starting_points > 0;
    const worlds = Math.max(1, Math.floor(this.rollouts / legal.length));
    const deadline = this.budgetMs === null ? null : performance.now() + this.budgetMs;
    const totals = legal.map(() => 0.0);
    const [unseenLo, unseenHi] = unseenOf(obs);
    const unseen = ids(unseenLo, unseenHi);
    const handSize = obs.opponentHandSize;
    const values = takeValues(obs.captured, obs.rules);
    const rng = this.rng;
    const seeded = this.seeded;
    const noise = this.noise;
    const scores = new Map(); // match values by round points: a few dozen per decision
    let sampled = 0;
    for (let w = 0; w < worlds; w++) {
      shuffle(rng, unseen);
      const world = Round.fromObservation(obs, setOf(unseen.slice(0, handSize)), unseen.slice(handSize));
      const worldSeed = rng.getrandbits(32);
      reseed(seeded, worldSeed);
      for (let i = 0; i < legal.length; i++) {
        const game = world.copy();
        game.apply(legal[i]);
        // The same noise in every action's rollout: common random numbers.
        const result = playOut(game, copyState(seeded, noise), values);
        const [p0, p1] = result.points;
        const key = p0 >= 0 && p1 >= 0 && p0 < 67108864 && p1 < 67108864 ? p0 * 67108864 + p1 : `${p0},${p1}`;
        let score = scores.get(key);
        if (score === undefined) {
          score = matchValue(seat, result.points, obs.match, zeroSum);
          scores.set(key, score);
        }
        totals[i] += score;
      }
      sampled += 1;
      if (deadline !== null && performance.now() > deadline) break;
    }
    return new Map(legal.map((action, i) => [action, totals[i] / sampled]));
  }
}
