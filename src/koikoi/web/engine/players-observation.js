// @ts-check
// What a seat may see, as the computer players read it: the engine protocol's JSON
// observation (README, "The engine protocol") made into the object Round.observation()
// gives in the browser, and checked on the way, so that a player is never handed a
// state it cannot play from.
//
// The object holds exactly the keys of OBSERVATION_KEYS. Of the cards nobody may see
// (the opponent's hand and the stock) it holds only how many there are: the JSON has
// nothing more, and anything else a JSON line carries is not copied.

import { CARD_COUNT, CardSet, UnknownCardError, cardFromSlug, cardsFromSlugs } from "./cards.js";
import { Phase, actionFromJson, legalMoves } from "./round.js";
import { RuleSet, RulesError } from "./rules.js";
import { dictItems, isDict, shortRepr } from "./pytext.js";

/** @typedef {import("./round.js").Observation} Observation */
/** @typedef {import("./round.js").Move} Move */
/** @typedef {import("./round.js").Source} Source */
/** @typedef {import("./yaku.js").Yaku} Yaku */
/** @typedef {import("./match.js").MatchView} MatchView */
/** @typedef {import("./pytext.js").Dict} Dict */

/** A JSON observation that cannot stand: the message says what is wrong. */
export class ObservationError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ObservationError";
  }
}

/** The keys of a player's observation (round.js's Round.observation() has the same). */
export const OBSERVATION_KEYS = Object.freeze([
  "seat",
  "rules",
  "phase",
  "turn",
  "dealer",
  "month",
  "hand",
  "opponentHandSize",
  "field",
  "captured",
  "stockSize",
  "pendingCard",
  "legalActions",
  "calls",
  "yaku",
  "decided",
  "history",
  "result",
  "match",
]);

/** @type {ReadonlySet<unknown>} */
const PHASES = new Set([Phase.PLAY, Phase.HAND_CHOICE, Phase.DRAW_CHOICE, Phase.DECISION]);
/** @type {ReadonlySet<unknown>} */
const SOURCES = new Set(["play", "draw"]);

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  throw new ObservationError(`observation: ${message}`);
}

/**
 * A dict's value at ``key``; a missing one is an ObservationError.
 * @param {Dict} data
 * @param {string} key
 * @returns {unknown}
 */
function get(data, key) {
  const value = data instanceof Map ? data.get(key) : Object.hasOwn(data, key) ? data[key] : undefined;
  if (value === undefined) fail(`${shortRepr(key)} is missing`);
  return value;
}

/**
 * @param {unknown} value
 * @param {string} what
 * @param {number} low
 * @param {number} high
 * @returns {number}
 */
function int(value, what, low, high) {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < low || value > high) {
    fail(`${what} must be an integer from ${low} to ${high}, not ${shortRepr(value)}`);
  }
  return value;
}

/**
 * @param {unknown} value
 * @param {string} what
 */
function seat(value, what) {
  return int(value, what, 0, 1);
}

/**
 * @param {unknown} value
 * @param {string} what
 * @param {number | null} [length]
 * @returns {unknown[]}
 */
function list(value, what, length = null) {
  if (!Array.isArray(value) || (length !== null && value.length !== length)) {
    fail(`${what} must be a list${length === null ? "" : ` of ${length}`}, not ${shortRepr(value)}`);
  }
  return value;
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {CardSet}
 */
function cards(value, what) {
  const slugs = list(value, what);
  if (!slugs.every((slug) => typeof slug === "string")) fail(`${what} must be a list of card slugs, not ${shortRepr(value)}`);
  try {
    return cardsFromSlugs(slugs);
  } catch (error) {
    if (error instanceof UnknownCardError) fail(`${what}: ${error.message}`);
    throw error;
  }
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {number}
 */
function card(value, what) {
  try {
    return cardFromSlug(value);
  } catch (error) {
    if (error instanceof UnknownCardError) fail(`${what}: ${error.message}`);
    throw error;
  }
}

/**
 * A yaku dict {key: points} as a plain object, in its order.
 * @param {unknown} value
 * @param {string} what
 * @returns {Yaku}
 */
function yakuOf(value, what) {
  if (!isDict(value)) fail(`${what} must be a dict of yaku points, not ${shortRepr(value)}`);
  /** @type {Yaku} */
  const yaku = {};
  for (const [key, points] of dictItems(value)) {
    if (typeof key !== "string") fail(`${what} has a key that is not a string: ${shortRepr(key)}`);
    yaku[key] = int(points, `${what}[${shortRepr(key)}]`, 0, Number.MAX_SAFE_INTEGER);
  }
  return yaku;
}

/** The mover's legal actions from what it sees, as round.py's _legal_moves lists them. */
export const legalFromState = legalMoves;

/**
 * @param {unknown} value
 * @returns {MatchView | null}
 */
function matchView(value) {
  if (value === null) return null;
  if (!isDict(value)) fail(`'match' must be a dict or null, not ${shortRepr(value)}`);
  const rounds = int(get(value, "rounds"), "match 'rounds'", 1, Number.MAX_SAFE_INTEGER);
  const roundNumber = int(get(value, "round"), "match 'round'", 1, rounds);
  const totals = list(get(value, "totals"), "match 'totals'", 2).map((total, i) =>
    int(total, `match 'totals'[${i}]`, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  );
  const targetScore = int(get(value, "target_score"), "match 'target_score'", 0, Number.MAX_SAFE_INTEGER);
  return Object.freeze({ roundNumber, rounds, totals: Object.freeze(totals), targetScore, roundsLeft: rounds - roundNumber });
}

// Rule sets already read, by their JSON: every observation of a game repeats the same
// rules, and one RuleSet object keeps its compiled scorer (yaku.js's scorerFor) and the
// players' tables (keyed by the rule set) from being built anew for every decision.
/** @type {Map<string, RuleSet>} */
const RULE_SETS = new Map();
const RULE_SETS_KEPT = 64;

/**
 * A cache key for a rules mapping; null for one that holds anything but flat values.
 * @param {unknown} data
 * @returns {string | null}
 */
function rulesKey(data) {
  if (!isDict(data)) return null;
  const parts = [];
  for (const [key, value] of dictItems(data)) {
    const items = Array.isArray(value) ? value : [value];
    if (!items.every((item) => item === null || ["string", "number", "boolean", "bigint"].includes(typeof item))) return null;
    const shown = items.map((item) => `${typeof item}:${String(item)}`).join(",");
    parts.push(`${JSON.stringify(key)}=${Array.isArray(value) ? `[${shown}]` : shown}`);
  }
  return parts.join(";");
}

/**
 * @param {unknown} data
 * @returns {RuleSet}
 */
function rulesOf(data) {
  const key = rulesKey(data);
  const known = key === null ? undefined : RULE_SETS.get(key);
  if (known !== undefined) return known;
  let rules;
  try {
    rules = RuleSet.fromMapping(data);
  } catch (error) {
    if (error instanceof RulesError) fail(`rules: ${error.message}`);
    throw error;
  }
  if (key !== null) {
    if (RULE_SETS.size >= RULE_SETS_KEPT) RULE_SETS.clear();
    RULE_SETS.set(key, rules);
  }
  return rules;
}

/**
 * The player's observation from the protocol's JSON form (a dict as pyjson.loads or
 * JSON.parse reads it). Throws ObservationError (or RulesError for the rules) when it
 * cannot stand: unknown cards, a card in two places, sizes that do not add up, legal
 * actions other than those the state allows, or a decision that is not this seat's.
 * @param {unknown} data
 * @returns {Readonly<Observation>}
 */
export function observationFromJson(data) {
  if (!isDict(data)) fail(`must be a dict, not ${shortRepr(data)}`);
  const rules = rulesOf(get(data, "rules"));
  const own = seat(get(data, "seat"), "'seat'");
  const turn = seat(get(data, "turn"), "'turn'");
  const dealer = seat(get(data, "dealer"), "'dealer'");
  const phaseData = get(data, "phase");
  if (!PHASES.has(phaseData)) fail(`'phase' must be one of ${[...PHASES].join(", ")}, not ${shortRepr(phaseData)}`);
  const phase = /** @type {Observation["phase"]} */ (phaseData);
  const month = int(get(data, "month"), "'month'", 0, 12);
  const hand = cards(get(data, "hand"), "'hand'");
  const field = cards(get(data, "field"), "'field'");
  const piles = list(get(data, "captured"), "'captured'", 2);
  /** @type {[CardSet, CardSet]} */
  const captured = [cards(piles[0], "'captured'[0]"), cards(piles[1], "'captured'[1]")];
  const opponentHandSize = int(get(data, "opponent_hand"), "'opponent_hand'", 0, CARD_COUNT);
  const stockSize = int(get(data, "stock"), "'stock'", 0, CARD_COUNT);
  const pendingSlug = get(data, "pending");
  const pendingCard = pendingSlug === null ? null : card(pendingSlug, "'pending'");

  // Every card is in one place, and the unseen ones are the opponent's hand and the stock.
  const seen = new CardSet(0, 0);
  /** @type {[string, CardSet][]} */
  const places = [
    ["'hand'", hand],
    ["'field'", field],
    ["'captured'[0]", captured[0]],
    ["'captured'[1]", captured[1]],
  ];
  if (pendingCard !== null) places.push(["'pending'", CardSet.card(pendingCard)]);
  for (const [what, place] of places) {
    if (seen.intersects(place)) fail(`${what} holds card(s) shown elsewhere too: ${seen.intersect(place).slugs().join(", ")}`);
    seen.addAll(place);
  }
  const unseen = CARD_COUNT - seen.count();
  if (unseen !== opponentHandSize + stockSize) {
    fail(`${unseen} cards are out of sight, but 'opponent_hand' + 'stock' is ${opponentHandSize + stockSize}`);
  }

  const choosing = phase === Phase.HAND_CHOICE || phase === Phase.DRAW_CHOICE;
  if (choosing !== (pendingCard !== null)) {
    fail(choosing ? `phase ${phase} needs a 'pending' card` : `phase ${phase} has no 'pending' card, not ${shortRepr(pendingSlug)}`);
  }
  if (turn !== own) fail(`it is seat ${turn}'s move, not this seat's (${own})`);

  const legalData = list(get(data, "legal"), "'legal'");
  const legalActions = legalData.map((action, i) => {
    try {
      return actionFromJson(action);
    } catch (error) {
      if (error instanceof RangeError) fail(`'legal'[${i}]: ${error.message}`);
      throw error;
    }
  });
  const allowed = legalMoves(phase, rules, hand, field, pendingCard ?? -1);
  const same = legalActions.length === allowed.length && new Set(legalActions).size === allowed.length && legalActions.every((a) => allowed.includes(a));
  if (!legalActions.length || !same) {
    fail(`'legal' ${shortRepr(legalData)} is not what the state allows (${allowed.length} action(s))`);
  }

  const callsData = list(get(data, "calls"), "'calls'", 2);
  /** @type {[number, number]} */
  const calls = [int(callsData[0], "'calls'[0]", 0, CARD_COUNT), int(callsData[1], "'calls'[1]", 0, CARD_COUNT)];
  const yakuData = list(get(data, "yaku"), "'yaku'", 2);
  /** @type {[Yaku, Yaku]} */
  const yaku = [yakuOf(yakuData[0], "'yaku'[0]"), yakuOf(yakuData[1], "'yaku'[1]")];
  const decidedData = list(get(data, "decided"), "'decided'", 2);
  /**
   * @param {number} i
   * @returns {Yaku | null}
   */
  const decidedOf = (i) => (decidedData[i] === null ? null : yakuOf(decidedData[i], `'decided'[${i}]`));
  /** @type {[Yaku | null, Yaku | null]} */
  const decided = [decidedOf(0), decidedOf(1)];
  if (phase === Phase.DECISION && !Object.keys(yaku[turn]).length) fail("a decision with no yaku to decide on");

  const history = list(get(data, "history"), "'history'").map((event, i) => {
    const what = `'history'[${i}]`;
    if (!isDict(event)) fail(`${what} must be a dict, not ${shortRepr(event)}`);
    const source = get(event, "source");
    if (!SOURCES.has(source)) fail(`${what} 'source' must be play or draw, not ${shortRepr(source)}`);
    /** @type {Readonly<Move>} */
    const move = Object.freeze({
      seat: seat(get(event, "seat"), `${what} 'seat'`),
      source: /** @type {Source} */ (source),
      card: card(get(event, "card"), `${what} 'card'`),
      captured: Object.freeze(cards(get(event, "captured"), `${what} 'captured'`)),
    });
    return move;
  });

  return Object.freeze({
    seat: own,
    rules,
    phase,
    turn,
    dealer,
    month,
    hand: Object.freeze(hand),
    opponentHandSize,
    field: Object.freeze(field),
    captured: /** @type {readonly [CardSet, CardSet]} */ (Object.freeze([Object.freeze(captured[0]), Object.freeze(captured[1])])),
    stockSize,
    pendingCard,
    legalActions: Object.freeze(legalActions),
    calls: Object.freeze(calls),
    yaku: Object.freeze(yaku),
    decided: Object.freeze(decided),
    history: Object.freeze(history),
    result: null,
    match: matchView(get(data, "match")),
  });
}

/**
 * The cards this seat cannot see (the opponent's hand and the stock).
 * @param {Observation} obs
 * @returns {CardSet}
 */
export function unseenOf(obs) {
  const seen = obs.hand.union(obs.field).addAll(obs.captured[0]).addAll(obs.captured[1]);
  if (obs.pendingCard !== null) seen.add(obs.pendingCard);
  return seen.complement();
}
