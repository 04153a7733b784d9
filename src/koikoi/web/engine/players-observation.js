// What a seat may see, as the computer players read it: the engine protocol's JSON
// observation (README, "The engine protocol") made into the object Round.observation()
// gives in the browser, and checked on the way, so that a player is never handed a
// state it cannot play from.
//
// The object holds exactly the keys of OBSERVATION_KEYS. Of the cards nobody may see
// (the opponent's hand and the stock) it holds only how many there are: the JSON has
// nothing more, and anything else a JSON line carries is not copied.

import { BIT_OF, CARD_COUNT, HALF_OF, MONTH_BITS_OF, SLUGS, UnknownCardError, cardFromSlug, cardsFromSlugs, ids, popcount } from "./cards.js";
import { CAPTURE_BASE, KOIKOI, Phase, STOP, actionFromJson } from "./round.js";
import { RuleSet, RulesError } from "./rules.js";
import { dictItems, isDict, shortRepr } from "./pytext.js";

/** A JSON observation that cannot stand: the message says what is wrong. */
export class ObservationError extends Error {
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

const PHASES = new Set([Phase.PLAY, Phase.HAND_CHOICE, Phase.DRAW_CHOICE, Phase.DECISION]);
const SOURCES = new Set(["play", "draw"]);

function fail(message) {
  throw new ObservationError(`observation: ${message}`);
}

function get(data, key) {
  const value = data instanceof Map ? data.get(key) : Object.hasOwn(data, key) ? data[key] : undefined;
  if (value === undefined) fail(`${shortRepr(key)} is missing`);
  return value;
}

function int(value, what, low, high) {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < low || value > high) {
    fail(`${what} must be an integer from ${low} to ${high}, not ${shortRepr(value)}`);
  }
  return value;
}

function seat(value, what) {
  return int(value, what, 0, 1);
}

function list(value, what, length = null) {
  if (!Array.isArray(value) || (length !== null && value.length !== length)) {
    fail(`${what} must be a list${length === null ? "" : ` of ${length}`}, not ${shortRepr(value)}`);
  }
  return value;
}

function cards(value, what) {
  list(value, what);
  if (!value.every((slug) => typeof slug === "string")) fail(`${what} must be a list of card slugs, not ${shortRepr(value)}`);
  try {
    return cardsFromSlugs(value);
  } catch (error) {
    if (error instanceof UnknownCardError) fail(`${what}: ${error.message}`);
    throw error;
  }
}

function card(value, what) {
  try {
    return cardFromSlug(value);
  } catch (error) {
    if (error instanceof UnknownCardError) fail(`${what}: ${error.message}`);
    throw error;
  }
}

/** A yaku dict {key: points} as a plain object, in its order. */
function yakuOf(value, what) {
  if (!isDict(value)) fail(`${what} must be a dict of yaku points, not ${shortRepr(value)}`);
  const yaku = {};
  for (const [key, points] of dictItems(value)) {
    if (typeof key !== "string") fail(`${what} has a key that is not a string: ${shortRepr(key)}`);
    yaku[key] = int(points, `${what}[${shortRepr(key)}]`, 0, Number.MAX_SAFE_INTEGER);
  }
  return yaku;
}

function bitOf(id) {
  return HALF_OF[id] ? [0, BIT_OF[id]] : [BIT_OF[id], 0];
}

/** The mover's legal actions from what it sees, as round.py's _legal_moves lists them. */
export function legalFromState(phase, rules, hand, field, pending) {
  if (phase === Phase.PLAY) {
    const held = ids(hand[0], hand[1]);
    if (rules.forced_capture) {
      const matching = held.filter((c) => (HALF_OF[c] ? field[1] : field[0]) & MONTH_BITS_OF[c]);
      if (matching.length) return matching;
    }
    return held;
  }
  if (phase === Phase.DECISION) return [KOIKOI, STOP];
  const half = HALF_OF[pending];
  const matches = (half ? field[1] : field[0]) & MONTH_BITS_OF[pending];
  return (half ? ids(0, matches) : ids(matches, 0)).map((c) => CAPTURE_BASE + c);
}

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
const RULE_SETS = new Map();
const RULE_SETS_KEPT = 64;

/** A cache key for a rules mapping; null for one that holds anything but flat values. */
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
 */
export function observationFromJson(data) {
  if (!isDict(data)) fail(`must be a dict, not ${shortRepr(data)}`);
  const rules = rulesOf(get(data, "rules"));
  const own = seat(get(data, "seat"), "'seat'");
  const turn = seat(get(data, "turn"), "'turn'");
  const dealer = seat(get(data, "dealer"), "'dealer'");
  const phase = get(data, "phase");
  if (!PHASES.has(phase)) fail(`'phase' must be one of ${[...PHASES].join(", ")}, not ${shortRepr(phase)}`);
  const month = int(get(data, "month"), "'month'", 0, 12);
  const hand = cards(get(data, "hand"), "'hand'");
  const field = cards(get(data, "field"), "'field'");
  const piles = list(get(data, "captured"), "'captured'", 2);
  const captured = [cards(piles[0], "'captured'[0]"), cards(piles[1], "'captured'[1]")];
  const opponentHandSize = int(get(data, "opponent_hand"), "'opponent_hand'", 0, CARD_COUNT);
  const stockSize = int(get(data, "stock"), "'stock'", 0, CARD_COUNT);
  const pendingSlug = get(data, "pending");
  const pendingCard = pendingSlug === null ? null : card(pendingSlug, "'pending'");

  // Every card is in one place, and the unseen ones are the opponent's hand and the stock.
  let seenLo = 0;
  let seenHi = 0;
  const places = [
    ["'hand'", hand],
    ["'field'", field],
    ["'captured'[0]", captured[0]],
    ["'captured'[1]", captured[1]],
  ];
  if (pendingCard !== null) places.push(["'pending'", bitOf(pendingCard)]);
  for (const [what, [lo, hi]] of places) {
    if (seenLo & lo || seenHi & hi) fail(`${what} holds card(s) shown elsewhere too: ${ids(seenLo & lo, seenHi & hi).map((c) => SLUGS[c]).join(", ")}`);
    seenLo |= lo;
    seenHi |= hi;
  }
  const unseen = CARD_COUNT - popcount(seenLo) - popcount(seenHi);
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
  const allowed = legalFromState(phase, rules, hand, field, pendingCard);
  const same = legalActions.length === allowed.length && new Set(legalActions).size === allowed.length && legalActions.every((a) => allowed.includes(a));
  if (!legalActions.length || !same) {
    fail(`'legal' ${shortRepr(legalData)} is not what the state allows (${allowed.length} action(s))`);
  }

  const calls = list(get(data, "calls"), "'calls'", 2).map((n, i) => int(n, `'calls'[${i}]`, 0, CARD_COUNT));
  const yakuData = list(get(data, "yaku"), "'yaku'", 2);
  const yaku = [yakuOf(yakuData[0], "'yaku'[0]"), yakuOf(yakuData[1], "'yaku'[1]")];
  const decidedData = list(get(data, "decided"), "'decided'", 2);
  const decided = decidedData.map((entry, i) => (entry === null ? null : yakuOf(entry, `'decided'[${i}]`)));
  if (phase === Phase.DECISION && !Object.keys(yaku[turn]).length) fail("a decision with no yaku to decide on");

  const history = list(get(data, "history"), "'history'").map((event, i) => {
    const what = `'history'[${i}]`;
    if (!isDict(event)) fail(`${what} must be a dict, not ${shortRepr(event)}`);
    const source = get(event, "source");
    if (!SOURCES.has(source)) fail(`${what} 'source' must be play or draw, not ${shortRepr(source)}`);
    return Object.freeze({
      seat: seat(get(event, "seat"), `${what} 'seat'`),
      source,
      card: card(get(event, "card"), `${what} 'card'`),
      captured: Object.freeze(cards(get(event, "captured"), `${what} 'captured'`)),
    });
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
    captured: Object.freeze([Object.freeze(captured[0]), Object.freeze(captured[1])]),
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

/** The cards this seat cannot see (the opponent's hand and the stock), as [lo, hi]. */
export function unseenOf(obs) {
  let lo = obs.hand[0] | obs.field[0] | obs.captured[0][0] | obs.captured[1][0];
  let hi = obs.hand[1] | obs.field[1] | obs.captured[0][1] | obs.captured[1][1];
  if (obs.pendingCard !== null) {
    if (HALF_OF[obs.pendingCard]) hi |= BIT_OF[obs.pendingCard];
    else lo |= BIT_OF[obs.pendingCard];
  }
  return [~lo & 0xffffff, ~hi & 0xffffff];
}
