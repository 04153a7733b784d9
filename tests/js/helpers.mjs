// Shared helpers of the browser engine's unit tests (node --test tests/js/).
//
// The engine is imported from src/koikoi/web/engine/, or from the folder that
// KOIKOI_JS_ENGINE names: tests/test_js_unit.py points it at a copy with one rule
// broken, to show that these tests notice. Card sets are built from slugs and read back
// as slugs through the engine's own functions, and every use of a set's inner form
// stays in this file: a change of that form is adapted here.
//
// `assert` is node:assert/strict, counted: with KOIKOI_JS_COUNT=PATH each test file
// appends "FILE COUNT" to PATH as it exits (how the report's assertion counts are made).

import strict from "node:assert/strict";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The engine folder under test. */
export const ENGINE_DIR = path.resolve(process.env.KOIKOI_JS_ENGINE || path.join(HERE, "../../src/koikoi/web/engine"));

async function load(name) {
  return import(pathToFileURL(path.join(ENGINE_DIR, name)).href);
}

export const cards = await load("cards.js");
export const rules = await load("rules.js");
export const yaku = await load("yaku.js");
export const round = await load("round.js");
export const match = await load("match.js");
export const record = await load("record.js");
export const random = await load("random.js");
export const pytext = await load("pytext.js");
export const pyjson = await load("pyjson.js");
export const coach = await load("coach.js");

// -- counted assertions ------------------------------------------------------------------

let count = 0;
export const assert = new Proxy(strict, {
  apply(target, self, args) {
    count++;
    return Reflect.apply(target, self, args);
  },
  get(target, key) {
    const value = Reflect.get(target, key);
    if (typeof value !== "function" || key === "AssertionError") return value;
    return (...args) => {
      count++;
      return value.apply(target, args);
    };
  },
});

if (process.env.KOIKOI_JS_COUNT) {
  process.on("exit", () => {
    const file = path.basename(process.argv[1] || "?");
    appendFileSync(process.env.KOIKOI_JS_COUNT, `${file} ${count}\n`);
  });
}

/** Run ``fn``, which must throw an instance of ``kind``; the error, for more checks. */
export function caught(fn, kind = Error) {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof kind, `expected a ${kind.name}, got ${error && error.name}: ${error && error.message}`);
    return error;
  }
  assert.fail(`expected a ${kind.name}, nothing was thrown`);
}

// -- card sets, by slug -----------------------------------------------------------------

export const SLUGS = cards.SLUGS;

/** A card set from slugs (the engine's cardsFromSlugs). */
export function cs(...names) {
  return cards.cardsFromSlugs(names.flat());
}

/** The ids of a card set, lowest first. */
export function idsOf(set) {
  return set.ids();
}

/** The slugs of a card set, in canonical order. */
export function slugsOf(set) {
  return idsOf(set).map((id) => SLUGS[id]);
}

/** The number of cards in a set. */
export function sizeOf(set) {
  return idsOf(set).length;
}

/** The four slugs of month m (1-12), in canonical order. */
export function monthCards(month) {
  return SLUGS.slice((month - 1) * 4, month * 4);
}

// -- rules ------------------------------------------------------------------------------

export const { CLASSIC, PRESETS, RuleSet, RulesError } = rules;

/** A preset (by name or rule set) with some fields changed. */
export function rulesOf(base = CLASSIC, changes = {}) {
  const start = typeof base === "string" ? PRESETS.get(base) : base;
  return Object.keys(changes).length ? start.withOverrides(changes) : start;
}

// -- scoring ----------------------------------------------------------------------------

/** The yaku of captured cards (slugs) under ``base`` with ``changes``, in the round's ``month``. */
export function score(names, base = CLASSIC, changes = {}, { month = 0, called = false } = {}) {
  return yaku.scorerFor(rulesOf(base, changes)).score(cs(names), month, called);
}

/** {yaku, total, final} of captured cards (slugs) under a rule set. */
export function scorePile(names, ruleSet, options = {}) {
  return yaku.scorePile(cs(names), ruleSet, options);
}

/** The hand yaku of a dealt hand (slugs). */
export function handYakuOf(names, ruleSet) {
  return yaku.handYaku(cs(names), ruleSet);
}

/** The progress entries toward yaku of a pile ``own`` against the opponent's ``theirs``. */
export function progressOf(own, theirs = [], ruleSet = CLASSIC, month = 0, most = 3) {
  return yaku.progress(cs(own), cs(theirs), ruleSet, month, most);
}

// -- rounds -----------------------------------------------------------------------------

export const { Round, Phase, KOIKOI, STOP, play, capture } = round;

// Fillers go out one card per month at a time (every month's first card, then every
// second card...), so filled hands rarely hold pairs or a whole month by accident.
const FILL_ORDER = [...SLUGS.keys()].sort((a, b) => a % 4 - b % 4 || a - b).map((id) => SLUGS[id]);

/**
 * A legal deal (tests/deals.py's build): the named cards where given, the rest in
 * canonical fill order into hand 0, hand 1, the field, then the stock after ``stock``.
 */
export function build(ruleSet = CLASSIC, { hands = [[], []], field = [], stock = [], dealer = 0, month = 0 } = {}) {
  const named = [...hands[0], ...hands[1], ...field, ...stock];
  strict.equal(new Set(named).size, named.length, "a card is named twice in the test deal");
  const rest = FILL_ORDER.filter((slug) => !named.includes(slug));
  const fill = (given, size) => {
    strict.ok(given.length <= size, "more cards given than the rules deal");
    return [...given, ...rest.splice(0, size - given.length)];
  };
  const hand0 = fill(hands[0], ruleSet.hand_size);
  const hand1 = fill(hands[1], ruleSet.hand_size);
  const fieldCards = fill(field, ruleSet.field_size);
  return Round.fromDeal(ruleSet, dealer, [hand0, hand1], fieldCards, [...stock, ...rest], month);
}

/** A seat's hand, as slugs. */
export function handOf(game, seat) {
  return slugsOf(game.hand(seat));
}

/** A seat's captured cards, as slugs. */
export function pileOf(game, seat) {
  return slugsOf(game.pile(seat));
}

/** The field, as slugs. */
export function fieldOf(game) {
  return slugsOf(game.observation(0).field);
}

/** The stock still face down, as slugs, top first. */
export function stockOf(game) {
  return game.stockLeft.map((id) => SLUGS[id]);
}

/** The cards that went down so far: [{seat, source, card, captured}], slugs throughout. */
export function historyOf(game) {
  return game.observation(0).history.map((event) => ({
    seat: event.seat,
    source: event.source,
    card: SLUGS[event.card],
    captured: slugsOf(event.captured),
  }));
}

/** An observation with its card sets as slugs, so two can be compared whatever the set form. */
export function seen(obs) {
  return {
    ...obs,
    hand: slugsOf(obs.hand),
    field: slugsOf(obs.field),
    captured: obs.captured.map(slugsOf),
    history: obs.history.map((event) => ({ ...event, captured: slugsOf(event.captured) })),
    result: obs.result === null ? null : { ...obs.result },
  };
}

/** Everything observable about a round, to check that an illegal action changed nothing. */
export function snapshot(game) {
  return {
    views: [seen(game.observation(0)), seen(game.observation(1))],
    hands: [handOf(game, 0), handOf(game, 1)],
    piles: [pileOf(game, 0), pileOf(game, 1)],
    field: fieldOf(game),
    stock: stockOf(game),
    phase: game.phase,
    turn: game.turn,
    pending: game.pendingCard,
    calls: [...game.calls],
    history: historyOf(game),
    legal: game.legalActions(),
  };
}

/** Every card in exactly one place: hands, field, piles, stock and the pending card. */
export function checkConservation(game) {
  const places = [handOf(game, 0), handOf(game, 1), fieldOf(game), pileOf(game, 0), pileOf(game, 1), stockOf(game)];
  if (game.pendingCard !== null) places.push([SLUGS[game.pendingCard]]);
  const all = places.flat();
  assert.equal(new Set(all).size, all.length, "a card is in two places");
  assert.equal(all.length, 48, "a card is missing");
}

/** A seeded generator that chooses as Python's random.Random(seed).choice does. */
export function chooser(seed) {
  const rng = new random.PyRandom(seed);
  return (items) => items[rng.randbelow(items.length)];
}

/** Apply up to ``steps`` random legal actions to a round or match; the actions taken. */
export function randomActions(game, choose, steps = Infinity) {
  const done = [];
  for (let i = 0; i < steps && !game.isOver; i++) {
    const action = choose(game.legalActions());
    game.apply(action);
    done.push(action);
  }
  return done;
}
