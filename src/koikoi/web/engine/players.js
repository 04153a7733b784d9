// The computer players (src/koikoi/players/): random and greedy (baseline.py), easy and
// normal (heuristic.py), and the expert (expert.py, in players-expert.js).
//
// Each is a port of the Python player: the same rules of thumb, constants and order of
// evaluation, and the same draws from the same generator (players-random.js), so for a
// seed and the same observations a player here makes exactly the Python player's
// choices (tests/test_js_players.py checks it through the engine protocol).
//
// A player gets only an observation (round.js's Round.observation(), or
// players-observation.js's observationFromJson()): never the round, so never the
// opponent's hand or the stock. choose(obs) returns one of obs.legalActions.

import { CARD_VALUES, HALF_OF, ids, popcount, setOf } from "./cards.js";
import { CAPTURE_BASE, KOIKOI, Phase, STOP } from "./round.js";
import { scorerFor, sumValues } from "./yaku.js";
import { countBoth, fieldMatches, openYaku, pileTotal, stopLosesMatch, withBits } from "./players-common.js";
import { unseenOf } from "./players-observation.js";
import { choice, generator } from "./players-random.js";
import { DEFAULT_ROLLOUTS, ExpertPlayer } from "./players-expert.js";

export { DEFAULT_ROLLOUTS, ExpertPlayer };
export { countBoth, fieldMatches, openYaku, pileTotal, yakuSets } from "./players-common.js";

// -- baseline.py -----------------------------------------------------------------------

/** Picks uniformly among the legal actions. */
export class RandomPlayer {
  constructor(seed) {
    this.name = "random";
    this.rng = generator(seed);
  }

  choose(obs) {
    const legal = obs.legalActions;
    // baseline.py: legal[int(random() * len(legal))], not random.choice.
    return legal[Math.floor(this.rng.random() * legal.length)];
  }
}

/** Greedy: the play or capture that adds the most (yaku points, then card values);
 * always stops; ties go to the first legal action. */
export class GreedyPlayer {
  constructor(seed) {
    this.name = "greedy";
    void seed; // deterministic; the seed keeps the factory signature common
  }

  choose(obs) {
    if (obs.phase === Phase.DECISION) return STOP;
    let best = null;
    let bestGain = null;
    for (const action of obs.legalActions) {
      const gain = moveGain(obs, action);
      if (best === null || compareGain(gain, bestGain) > 0) {
        best = action;
        bestGain = gain;
      }
    }
    return best;
  }
}

function compareGain(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * The cards a play or capture puts in the pile, as [lo, hi] (for a play meeting two
 * field cards, with the one ``worth`` more, the first of equals); [0, 0] for a play
 * that captures nothing.
 */
export function takenBy(obs, action, worth = CARD_VALUES) {
  if (action >= CAPTURE_BASE) return setOf([action - CAPTURE_BASE, obs.pendingCard]);
  const half = HALF_OF[action];
  let matches = fieldMatches(obs.field, action);
  if (!matches) return [0, 0];
  if (popcount(matches) === 2) {
    const pair = half ? ids(0, matches) : ids(matches, 0);
    // max() by worth: the first of equal values
    const better = worth[pair[1]] > worth[pair[0]] ? pair[1] : pair[0];
    matches = setOf([better])[half];
  }
  return withBits([0, 0], half, matches | setOf([action])[half]);
}

/** What a play or capture adds at once: [yaku points, card values captured]; a play
 * that captures nothing scores minus its own value (it is offered to the opponent). */
export function moveGain(obs, action) {
  const taken = takenBy(obs, action);
  if (!(taken[0] || taken[1])) return [0, -CARD_VALUES[action]];
  const scorer = scorerFor(obs.rules);
  const own = obs.captured[obs.seat];
  const called = obs.calls[obs.seat] > 0;
  const gained =
    pileTotal(scorer, [own[0] | taken[0], own[1] | taken[1]], obs.month, called) - pileTotal(scorer, own, obs.month, called);
  let values = 0;
  for (const card of ids(taken[0], taken[1])) values += CARD_VALUES[card];
  return [gained, values];
}

// -- heuristic.py ----------------------------------------------------------------------

/** Easy: captures loosely (often any capture, not the best one), stops at its first yaku. */
export class EasyPlayer {
  /** How often easy takes any capture instead of the best one. */
  static LOOSE = 0.4;

  constructor(seed) {
    this.name = "easy";
    this.rng = generator(seed);
  }

  choose(obs) {
    if (obs.phase === Phase.DECISION) return STOP;
    const legal = obs.legalActions;
    const rng = this.rng;
    if (obs.phase === Phase.PLAY && rng.random() < EasyPlayer.LOOSE) {
      const capturing = legal.filter((card) => fieldMatches(obs.field, card));
      if (capturing.length) return choice(rng, capturing);
    }
    // max(legal, key=lambda a: (move_gain(obs, a), rng.random()))
    let best = null;
    let bestKey = null;
    for (const action of legal) {
      const gain = moveGain(obs, action);
      const key = [gain[0], gain[1], rng.random()];
      if (best === null || key[0] > bestKey[0] || (key[0] === bestKey[0] && (key[1] > bestKey[1] || (key[1] === bestKey[1] && key[2] > bestKey[2])))) {
        best = action;
        bestKey = key;
      }
    }
    return best;
  }
}

/** (held / needed) ** 2 as Python computes it: glibc's pow(), which is the product
 * rounded except at 33/41 (one ulp above it), the only such ratio of a deck's counts. */
export function squaredShare(held, needed) {
  const share = held / needed;
  if (held === 33 && needed === 41) return 0.6478286734086854;
  return share * share;
}

/** How far a pile is along the yaku still open to it, in rough points: each yaku adds
 * its points times the square of the share of its cards held. */
export function potential(own, opponent, rules) {
  let total = 0.0;
  for (const [cards, needed, points] of openYaku(opponent, rules)) {
    const held = Math.min(countBoth(own, cards), needed);
    total += points * squaredShare(held, needed);
  }
  return total;
}

/** What leaving ``card`` on the field risks: nothing once its month is dead. */
export function discardCost(obs, card) {
  const live = fieldMatches(unseenOf(obs), card);
  return live ? CARD_VALUES[card] : 0;
}

/** Normal: the strongest capture, the discard that helps the opponent least, and
 * koi-koi while the pot is small and cards remain, or when a stop would lose the match. */
export class NormalPlayer {
  /** Normal calls koi-koi while its yaku are worth at most this many points... */
  static SMALL_POT = 5;
  /** ...and it still holds at least this many cards. */
  static CARDS_LEFT = 4;

  constructor(seed) {
    this.name = "normal";
    this.rng = generator(seed);
  }

  choose(obs) {
    if (obs.phase === Phase.DECISION) return this.gamble(obs) ? KOIKOI : STOP;
    // Random tie-breaks keep normal from being fully predictable.
    let best = null;
    let bestValue = 0;
    let bestNoise = 0;
    for (const action of obs.legalActions) {
      const value = this.value(obs, action);
      const noise = this.rng.random();
      if (best === null || value > bestValue || (value === bestValue && noise > bestNoise)) {
        best = action;
        bestValue = value;
        bestNoise = noise;
      }
    }
    return best;
  }

  /** Yaku made now first, then progress toward own yaku and away from theirs. */
  value(obs, action) {
    const [yaku, values] = moveGain(obs, action);
    if (obs.phase === Phase.PLAY && !fieldMatches(obs.field, action)) return -discardCost(obs, action) / 10;
    const taken = takenBy(obs, action);
    const own = obs.captured[obs.seat];
    const opponent = obs.captured[1 - obs.seat];
    const rules = obs.rules;
    const ownAfter = [own[0] | taken[0], own[1] | taken[1]];
    const opponentAfter = [opponent[0] | taken[0], opponent[1] | taken[1]];
    const progress = potential(ownAfter, opponent, rules) - potential(own, opponent, rules);
    // A card taken is a card the opponent cannot have.
    const denial = potential(opponentAfter, own, rules) - potential(opponent, own, rules);
    return 10 * yaku + progress + denial / 2 + values / 100;
  }

  gamble(obs) {
    if (stopLosesMatch(obs)) return true;
    const pot = sumValues(obs.yaku[obs.seat]);
    const opponentThreat = Object.keys(obs.yaku[1 - obs.seat]).length > 0;
    const cardsLeft = popcount(obs.hand[0]) + popcount(obs.hand[1]);
    return pot <= NormalPlayer.SMALL_POT && cardsLeft >= NormalPlayer.CARDS_LEFT && !opponentThreat;
  }
}

// -- by name ---------------------------------------------------------------------------

/** Player factories by name; each takes a seed or a PyRandom (the expert options too). */
export const PLAYERS = Object.freeze({
  random: (seed) => new RandomPlayer(seed),
  greedy: (seed) => new GreedyPlayer(seed),
  easy: (seed) => new EasyPlayer(seed),
  normal: (seed) => new NormalPlayer(seed),
  expert: (seed, options = {}) => new ExpertPlayer(seed, options),
});

/** A player by name; ``options`` ({rollouts, budgetMs}) are for the expert only. */
export function makePlayer(name, seed, options = {}) {
  if (!Object.hasOwn(PLAYERS, name)) {
    throw new RangeError(`unknown player ${JSON.stringify(name)}; players: ${Object.keys(PLAYERS).join(", ")}`);
  }
  if (name !== "expert" && Object.keys(options).length) {
    throw new RangeError(`player ${JSON.stringify(name)} takes no options (${Object.keys(options).join(", ")} are the expert's)`);
  }
  return PLAYERS[name](seed, options);
}
