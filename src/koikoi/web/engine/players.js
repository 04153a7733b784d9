// @ts-check
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

import { CARD_VALUES, CardSet } from "./cards.js";
import { CAPTURE_BASE, KOIKOI, Phase, STOP } from "./round.js";
import { scorerFor, sumValues } from "./yaku.js";
import { countBoth, fieldMatches, openYaku, pileTotal, stopLosesMatch } from "./players-common.js";
import { unseenOf } from "./players-observation.js";
import { choice, generator } from "./players-random.js";
import { DEFAULT_ROLLOUTS, ExpertPlayer } from "./players-expert.js";

export { DEFAULT_ROLLOUTS, ExpertPlayer };
export { countBoth, fieldMatches, openYaku, pileTotal, yakuSets } from "./players-common.js";

/** @typedef {import("./round.js").Observation} Observation */
/** @typedef {import("./round.js").Action} Action */
/** @typedef {import("./rules.js").RuleSet} RuleSet */
/** @typedef {import("./random.js").Seed} Seed */
/** @typedef {import("./random.js").PyRandom} PyRandom */
/** @typedef {import("./players-expert.js").ExpertOptions} ExpertOptions */
/**
 * A computer player: given what its seat sees, one of the legal actions.
 * @typedef {object} Player
 * @property {string} name
 * @property {(obs: Observation) => Action} choose
 */

// -- baseline.py -----------------------------------------------------------------------

/** Picks uniformly among the legal actions. */
export class RandomPlayer {
  /** @param {Seed | PyRandom} seed */
  constructor(seed) {
    this.name = "random";
    this.rng = generator(seed);
  }

  /**
   * @param {Observation} obs
   * @returns {Action}
   */
  choose(obs) {
    const legal = obs.legalActions;
    // baseline.py: legal[int(random() * len(legal))], not random.choice.
    return legal[Math.floor(this.rng.random() * legal.length)];
  }
}

/** Greedy: the play or capture that adds the most (yaku points, then card values);
 * always stops; ties go to the first legal action. */
export class GreedyPlayer {
  /** @param {Seed | PyRandom} seed */
  constructor(seed) {
    this.name = "greedy";
    void seed; // deterministic; the seed keeps the factory signature common
  }

  /**
   * @param {Observation} obs
   * @returns {Action}
   */
  choose(obs) {
    if (obs.phase === Phase.DECISION) return STOP;
    let best = -1;
    /** @type {readonly number[]} */
    let bestGain = [];
    for (const action of obs.legalActions) {
      const gain = moveGain(obs, action);
      if (best === -1 || compareGain(gain, bestGain) > 0) {
        best = action;
        bestGain = gain;
      }
    }
    return best;
  }
}

/**
 * @param {readonly number[]} a
 * @param {readonly number[]} b
 */
function compareGain(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * The cards a play or capture puts in the pile (for a play meeting two field cards,
 * with the one ``worth`` more, the first of equals); none for a play that captures
 * nothing.
 * @param {Observation} obs
 * @param {Action} action
 * @param {readonly number[]} [worth] each card's worth, by id
 * @returns {CardSet}
 */
export function takenBy(obs, action, worth = CARD_VALUES) {
  if (action >= CAPTURE_BASE) return CardSet.of([action - CAPTURE_BASE, /** @type {number} */ (obs.pendingCard)]);
  const matches = fieldMatches(obs.field, action);
  if (matches.isEmpty()) return new CardSet(0, 0);
  if (matches.count() === 2) {
    const [first, second] = matches.ids();
    // max() by worth: the first of equal values
    const better = worth[second] > worth[first] ? second : first;
    return CardSet.of([better, action]);
  }
  return matches.with(action);
}

/**
 * What a play or capture adds at once: [yaku points, card values captured]; a play
 * that captures nothing scores minus its own value (it is offered to the opponent).
 * @param {Observation} obs
 * @param {Action} action
 * @returns {[number, number]}
 */
export function moveGain(obs, action) {
  const taken = takenBy(obs, action);
  if (taken.isEmpty()) return [0, -CARD_VALUES[action]];
  const scorer = scorerFor(obs.rules);
  const own = obs.captured[obs.seat];
  const called = obs.calls[obs.seat] > 0;
  const gained = pileTotal(scorer, own.union(taken), obs.month, called) - pileTotal(scorer, own, obs.month, called);
  let values = 0;
  for (const card of taken.ids()) values += CARD_VALUES[card];
  return [gained, values];
}

// -- heuristic.py ----------------------------------------------------------------------

/** Easy: captures loosely (often any capture, not the best one), stops at its first yaku. */
export class EasyPlayer {
  /** How often easy takes any capture instead of the best one. */
  static LOOSE = 0.4;

  /** @param {Seed | PyRandom} seed */
  constructor(seed) {
    this.name = "easy";
    this.rng = generator(seed);
  }

  /**
   * @param {Observation} obs
   * @returns {Action}
   */
  choose(obs) {
    if (obs.phase === Phase.DECISION) return STOP;
    const legal = obs.legalActions;
    const rng = this.rng;
    if (obs.phase === Phase.PLAY && rng.random() < EasyPlayer.LOOSE) {
      const capturing = legal.filter((card) => !fieldMatches(obs.field, card).isEmpty());
      if (capturing.length) return choice(rng, capturing);
    }
    // max(legal, key=lambda a: (move_gain(obs, a), rng.random()))
    let best = -1;
    let bestKey = [0, 0, 0];
    for (const action of legal) {
      const gain = moveGain(obs, action);
      const key = [gain[0], gain[1], rng.random()];
      if (best === -1 || key[0] > bestKey[0] || (key[0] === bestKey[0] && (key[1] > bestKey[1] || (key[1] === bestKey[1] && key[2] > bestKey[2])))) {
        best = action;
        bestKey = key;
      }
    }
    return best;
  }
}

/**
 * (held / needed) ** 2 as Python computes it: glibc's pow(), which is the product
 * rounded except at 33/41 (one ulp above it), the only such ratio of a deck's counts.
 * @param {number} held
 * @param {number} needed
 * @returns {number}
 */
export function squaredShare(held, needed) {
  const share = held / needed;
  if (held === 33 && needed === 41) return 0.6478286734086854;
  return share * share;
}

/**
 * How far a pile is along the yaku still open to it, in rough points: each yaku adds
 * its points times the square of the share of its cards held.
 * @param {CardSet} own
 * @param {CardSet} opponent
 * @param {RuleSet} rules
 * @returns {number}
 */
export function potential(own, opponent, rules) {
  let total = 0.0;
  for (const [cards, needed, points] of openYaku(opponent, rules)) {
    const held = Math.min(countBoth(own, cards), needed);
    total += points * squaredShare(held, needed);
  }
  return total;
}

/**
 * What leaving ``card`` on the field risks: nothing once its month is dead.
 * @param {Observation} obs
 * @param {number} card
 * @returns {number}
 */
export function discardCost(obs, card) {
  const live = fieldMatches(unseenOf(obs), card);
  return live.isEmpty() ? 0 : CARD_VALUES[card];
}

/** Normal: the strongest capture, the discard that helps the opponent least, and
 * koi-koi while the pot is small and cards remain, or when a stop would lose the match. */
export class NormalPlayer {
  /** Normal calls koi-koi while its yaku are worth at most this many points... */
  static SMALL_POT = 5;
  /** ...and it still holds at least this many cards. */
  static CARDS_LEFT = 4;

  /** @param {Seed | PyRandom} seed */
  constructor(seed) {
    this.name = "normal";
    this.rng = generator(seed);
  }

  /**
   * @param {Observation} obs
   * @returns {Action}
   */
  choose(obs) {
    if (obs.phase === Phase.DECISION) return this.gamble(obs) ? KOIKOI : STOP;
    // Random tie-breaks keep normal from being fully predictable.
    let best = -1;
    let bestValue = 0;
    let bestNoise = 0;
    for (const action of obs.legalActions) {
      const value = this.value(obs, action);
      const noise = this.rng.random();
      if (best === -1 || value > bestValue || (value === bestValue && noise > bestNoise)) {
        best = action;
        bestValue = value;
        bestNoise = noise;
      }
    }
    return best;
  }

  /**
   * Yaku made now first, then progress toward own yaku and away from theirs.
   * @param {Observation} obs
   * @param {Action} action
   * @returns {number}
   */
  value(obs, action) {
    const [yaku, values] = moveGain(obs, action);
    if (obs.phase === Phase.PLAY && fieldMatches(obs.field, action).isEmpty()) return -discardCost(obs, action) / 10;
    const taken = takenBy(obs, action);
    const own = obs.captured[obs.seat];
    const opponent = obs.captured[1 - obs.seat];
    const rules = obs.rules;
    const ownAfter = own.union(taken);
    const opponentAfter = opponent.union(taken);
    const progress = potential(ownAfter, opponent, rules) - potential(own, opponent, rules);
    // A card taken is a card the opponent cannot have.
    const denial = potential(opponentAfter, own, rules) - potential(opponent, own, rules);
    return 10 * yaku + progress + denial / 2 + values / 100;
  }

  /**
   * Whether to call koi-koi at this decision.
   * @param {Observation} obs
   * @returns {boolean}
   */
  gamble(obs) {
    if (stopLosesMatch(obs)) return true;
    const pot = sumValues(obs.yaku[obs.seat]);
    const opponentThreat = Object.keys(obs.yaku[1 - obs.seat]).length > 0;
    const cardsLeft = obs.hand.count();
    return pot <= NormalPlayer.SMALL_POT && cardsLeft >= NormalPlayer.CARDS_LEFT && !opponentThreat;
  }
}

// -- by name ---------------------------------------------------------------------------

/**
 * Makes a player from a seed or a shared generator, and options (the expert's only).
 * @typedef {(seed: Seed | PyRandom, options?: ExpertOptions) => Player} PlayerFactory
 */

/**
 * Player factories by name; each takes a seed or a PyRandom (the expert options too).
 * @type {Readonly<Record<string, PlayerFactory>>}
 */
export const PLAYERS = Object.freeze({
  random: (seed) => new RandomPlayer(seed),
  greedy: (seed) => new GreedyPlayer(seed),
  easy: (seed) => new EasyPlayer(seed),
  normal: (seed) => new NormalPlayer(seed),
  expert: (seed, options = {}) => new ExpertPlayer(seed, options),
});

/**
 * A player by name; ``options`` ({rollouts, budgetMs}) are for the expert only.
 * @param {string} name
 * @param {Seed | PyRandom} seed
 * @param {ExpertOptions} [options]
 * @returns {Player}
 */
export function makePlayer(name, seed, options = {}) {
  if (!Object.hasOwn(PLAYERS, name)) {
    throw new RangeError(`unknown player ${JSON.stringify(name)}; players: ${Object.keys(PLAYERS).join(", ")}`);
  }
  if (name !== "expert" && Object.keys(options).length) {
    throw new RangeError(`player ${JSON.stringify(name)} takes no options (${Object.keys(options).join(", ")} are the expert's)`);
  }
  return PLAYERS[name](seed, options);
}
