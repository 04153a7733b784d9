// @ts-check
// Practice matches on the device: the server's games.py and views.py in JavaScript.
//
// A LocalSession is a match between the person (seat 0) and a computer player (seat 1),
// played with the browser's engine; it answers with exactly the JSON the server's API
// answers (state_json, the event lists of GameSession._apply, replay_json,
// summary_json), so the table has one code path for both. Like the server, a session
// is rebuilt from its record (rules, seed, actions, difficulty) for every request:
// the record, stored on the device after every move, is the whole truth about a match.
//
// The device deals, so it knows the stock: practice matches are never ranked.

import { CardSet, KIND_MASKS, SLUGS } from "./cards.js";
import { REVIEW_ROLLOUTS, advice, reviewJson } from "./coach.js";
import { Match } from "./match.js";
import { makePlayer } from "./players.js";
import { Record } from "./record.js";
import { CAPTURE_BASE, FINAL_TURN, IllegalActionError, KOIKOI, NO_CALL_ALLOWED, Phase, STOP, STOPPED, actionFromJson, actionToJson } from "./round.js";
import { PRESETS, RuleSet, RulesError } from "./rules.js";
import { koikoiBonus, multiplier, multipliers, progress, scorerFor, sumValues } from "./yaku.js";

/** @typedef {import("./round.js").Move} Move */
/** @typedef {import("./round.js").Round} Round */
/** @typedef {import("./round.js").RoundResult} RoundResult */
/** @typedef {import("./round.js").Action} Action */
/** @typedef {import("./round.js").ActionJson} ActionJson */
/** @typedef {import("./rules.js").RulesMapping} RulesMapping */
/** @typedef {import("./random.js").Seed} Seed */
/** @typedef {import("./players-expert.js").ExpertOptions} ExpertOptions */
/**
 * The device's expert: its rollouts and wall-clock budget (DEVICE_EXPERT).
 * @typedef {{rollouts: number, budgetMs: number | null}} DeviceExpert
 */
/**
 * What the device stores of a practice match: everything the match is.
 * @typedef {object} PracticeRecord
 * @property {string} id
 * @property {RulesMapping} rules
 * @property {string} difficulty
 * @property {Seed} seed
 * @property {unknown[]} actions every action in record form
 * @property {boolean} [resigned]
 */
/**
 * One of the events an action causes, in the server API's JSON (``type`` says which).
 * @typedef {{type: string, [key: string]: unknown}} GameEvent
 */
/**
 * One request to the worker (see handle).
 * @typedef {object} LocalRequest
 * @property {string} op
 * @property {string} [id]
 * @property {unknown} [rules]
 * @property {string} [difficulty]
 * @property {Seed} [seed]
 * @property {PracticeRecord} [record]
 * @property {unknown} [action]
 * @property {number} [version]
 * @property {string | null} [player]
 * @property {unknown} [updated]
 */

export const DIFFICULTIES = Object.freeze(["easy", "normal", "expert"]);
export const HUMAN = 0;
export const COMPUTER = 1;
export const PLAYING = "playing";
export const WON = "won";
export const LOST = "lost";
export const DRAWN = "drawn";
export const RESIGNED = "resigned";
export const HOUSE = "house";

/** How the expert thinks on a phone: its rollouts, cut short by a wall-clock budget. */
/** @type {Readonly<DeviceExpert>} */
export const DEVICE_EXPERT = Object.freeze({ rollouts: 2000, budgetMs: 140 });

/** What the hint for the move at ``version`` of a match from ``seed`` is worked out
 * from: the seed with the version in its high bits, as the computer's moves are seeded,
 * so asking again gives the same hint. (The server hashes the game's id instead, its
 * seed being a secret there; on the device, which deals, it is none.)
 * @param {Seed} seed
 * @param {number} version
 * @returns {bigint}
 */
export function hintSeed(seed, version) {
  return BigInt(seed) ^ 0xc0acn ^ (BigInt(version) << 48n);
}

/** An answer the server would give as an HTTP error: its status and detail. */
export class LocalError extends Error {
  /**
   * @param {number} status the HTTP status the server would answer
   * @param {string} detail
   */
  constructor(status, detail) {
    super(detail);
    this.name = "LocalError";
    this.status = status;
    this.detail = detail;
  }
}

/**
 * The preset the rules are, or ``house`` for a preset with changes (games.rules_name).
 * @param {RuleSet} rules
 * @returns {string}
 */
export function rulesName(rules) {
  const preset = PRESETS.get(rules.preset);
  return preset && preset.equals(rules) ? rules.preset : HOUSE;
}

/**
 * A card that went down (played or drawn) and what it captured.
 * @param {Readonly<Move>} move
 * @returns {GameEvent}
 */
export function moveEvent(move) {
  return { type: move.source, seat: move.seat, card: SLUGS[move.card], captured: move.captured.slugs() };
}

/**
 * A finished round, with how it ended and, for a stop, how its points were made.
 * @param {number} number the round's number, 1-based
 * @param {RoundResult} result
 * @param {RuleSet} rules
 * @returns {GameEvent}
 */
export function roundOverEvent(number, result, rules) {
  let scoring = null;
  if ((result.reason === STOPPED || result.reason === FINAL_TURN || result.reason === NO_CALL_ALLOWED) && result.winner !== null) {
    const seat = result.winner;
    const total = sumValues(result.yaku[seat]);
    const [doubled, factor] = scorerFor(rules).factors(total, result.calls[seat], result.calls[1 - seat]);
    const bonus = koikoiBonus(rules.multiplier, result.calls[seat]);
    scoring = { total, doubled, multiplier: factor, bonus };
  }
  return { type: "round-over", round: number, ...result.toJson(), reason: result.reason, scoring };
}

/**
 * A capture pile grouped by kind, as the table shows it.
 * @param {CardSet} pile
 * @returns {{[kind: string]: string[]}}
 */
export function pileJson(pile) {
  /** @type {{[kind: string]: string[]}} */
  const out = {};
  for (const [kind, mask] of Object.entries(KIND_MASKS)) out[kind] = pile.intersect(mask).slugs();
  return out;
}

/**
 * A fresh 48-bit seed from the device's cryptographic generator (like getrandbits(48)).
 * @returns {number}
 */
export function freshSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (words[0] & 0xffff) * 2 ** 32 + words[1];
}

/**
 * @param {unknown} mapping
 * @returns {RuleSet}
 */
function checkedRules(mapping) {
  try {
    return RuleSet.fromMapping(mapping);
  } catch (error) {
    if (error instanceof RulesError) throw new LocalError(422, error.message);
    throw error;
  }
}

/** One match between a person (seat 0) and a computer player (seat 1), on the device. */
export class LocalSession {
  /**
   * @param {string} id
   * @param {string} difficulty
   * @param {Seed} seed
   * @param {Match} match
   * @param {boolean} [resigned]
   * @param {Readonly<DeviceExpert>} [expert]
   */
  constructor(id, difficulty, seed, match, resigned = false, expert = DEVICE_EXPERT) {
    this.id = id;
    this.difficulty = difficulty;
    this.seed = seed;
    this.match = match;
    this.resigned = resigned;
    this.expert = expert;
    this.ranked = false;
  }

  /**
   * A new match from ``seed``; the computer moves first if it deals. [session, events].
   * @param {string} id
   * @param {unknown} rulesMapping
   * @param {string} difficulty
   * @param {Seed} seed
   * @param {Readonly<DeviceExpert>} [expert]
   * @returns {[LocalSession, GameEvent[]]}
   */
  static start(id, rulesMapping, difficulty, seed, expert = DEVICE_EXPERT) {
    if (!DIFFICULTIES.includes(difficulty)) {
      throw new LocalError(422, `unknown difficulty ${JSON.stringify(difficulty)}; choose one of ${DIFFICULTIES.join(", ")}`);
    }
    const rules = checkedRules(rulesMapping);
    let match;
    try {
      match = new Match(rules, seed);
    } catch (error) {
      if (error instanceof RulesError) throw new LocalError(422, error.message); // rules that cannot deal
      throw error;
    }
    const session = new LocalSession(id, difficulty, seed, match, false, expert);
    const events = session.roundOverEvents(1);
    events.push(...session.computerMoves());
    return [session, events];
  }

  /**
   * The session a stored record describes, replayed action by action.
   * @param {PracticeRecord} record
   * @param {Readonly<DeviceExpert>} [expert]
   * @returns {LocalSession}
   */
  static restore(record, expert = DEVICE_EXPERT) {
    const rules = checkedRules(record.rules);
    const match = new Match(rules, record.seed);
    for (const data of record.actions) match.apply(actionFromJson(data));
    return new LocalSession(record.id, record.difficulty, record.seed, match, Boolean(record.resigned), expert);
  }

  /**
   * The record to store: everything the match is.
   * @returns {PracticeRecord}
   */
  get record() {
    return {
      id: this.id,
      rules: this.match.rules.toMapping(),
      difficulty: this.difficulty,
      seed: this.seed,
      actions: this.actions,
      resigned: this.resigned,
    };
  }

  /** @returns {ActionJson[]} */
  get actions() {
    return this.match.actions.map(actionToJson);
  }

  /** @returns {string} */
  get status() {
    if (this.resigned) return RESIGNED;
    if (!this.match.isOver) return PLAYING;
    const winner = this.match.winner;
    return winner === HUMAN ? WON : winner === COMPUTER ? LOST : DRAWN;
  }

  /** Practice earns no ranking points. */
  get points() {
    return 0;
  }

  get version() {
    return this.match.actions.length + (this.resigned ? 1 : 0);
  }

  /**
   * Apply the person's action (record form), then the computer's; the events.
   * @param {unknown} data
   * @param {unknown} version the state the action answers
   * @returns {GameEvent[]}
   */
  act(data, version) {
    if (this.status !== PLAYING) throw new LocalError(409, `the match is over (${this.status})`);
    if (version !== this.version) {
      throw new LocalError(409, `this action answers state ${version}, but the game is at state ${this.version}; reload the game`);
    }
    if (this.match.turn !== HUMAN || this.match.round.isOver) throw new LocalError(409, "it is not your turn");
    let action;
    try {
      action = actionFromJson(data);
    } catch (error) {
      if (error instanceof RangeError) throw new LocalError(400, error.message);
      throw error;
    }
    let events;
    try {
      events = this.apply(action, HUMAN);
    } catch (error) {
      if (error instanceof IllegalActionError) throw new LocalError(400, error.message);
      throw error;
    }
    events.push(...this.computerMoves());
    return events;
  }

  /**
   * The person gives the match up: a loss, whatever the totals say.
   * @returns {GameEvent[]}
   */
  resign() {
    if (this.status !== PLAYING) throw new LocalError(409, `the match is over (${this.status})`);
    this.resigned = true;
    return [{ type: "match-over", totals: [...this.match.totals], winner: COMPUTER, resigned: true }];
  }

  /**
   * The computer's player for the move at hand, seeded from the game and the move.
   * @returns {import("./players.js").Player}
   */
  computer() {
    const seed = BigInt(this.seed) ^ 0x5eedn ^ (BigInt(this.version) << 48n);
    const options = this.difficulty === "expert" ? { ...this.expert } : {};
    return makePlayer(this.difficulty, seed, options);
  }

  /** The coach's advice for the person's move (GET /api/games/{id}/hint), at the device
   * expert's rollout budget and never its wall-clock one: the same hint on any device. */
  hint() {
    if (this.status !== PLAYING) throw new LocalError(409, `the match is over (${this.status})`);
    if (this.match.turn !== HUMAN || this.match.round.isOver) throw new LocalError(409, "it is not your turn");
    const found = advice(this.match.observation(HUMAN), hintSeed(this.seed, this.version), this.expert.rollouts);
    return { version: this.version, ...found };
  }

  /** The coach's review of the person's decisions in the finished match (GET
   * /api/games/{id}/review). */
  review() {
    if (this.status === PLAYING) throw new LocalError(409, "the match is still being played; reviews come after");
    const record = new Record({ rules: this.match.rules, actions: this.actions, seed: this.seed });
    return reviewJson(record, HUMAN, REVIEW_ROLLOUTS);
  }

  /** @returns {GameEvent[]} */
  computerMoves() {
    /** @type {GameEvent[]} */
    const events = [];
    while (!this.match.isOver && this.match.turn === COMPUTER) {
      const action = this.computer().choose(this.match.observation(COMPUTER));
      events.push(...this.apply(action, COMPUTER));
    }
    return events;
  }

  /**
   * @param {Action} action
   * @param {number} seat
   * @returns {GameEvent[]}
   */
  apply(action, seat) {
    const game = this.match.round;
    const seen = game.history.length;
    const roundNumber = this.match.roundNumber;
    this.match.apply(action);
    /** @type {GameEvent[]} */
    const events = [];
    if (action === KOIKOI) events.push({ type: "koikoi", seat, multipliers: multipliers(game.rules.multiplier, game.calls) });
    else if (action === STOP) events.push({ type: "stop", seat });
    for (const move of game.history.slice(seen)) events.push(moveEvent(move));
    if (game.phase === Phase.DECISION) events.push({ type: "yaku", seat: game.turn, yaku: game.yaku(game.turn) });
    if (game.isOver) events.push(...this.roundOverEvents(roundNumber));
    return events;
  }

  /**
   * @param {number} roundNumber
   * @returns {GameEvent[]}
   */
  roundOverEvents(roundNumber) {
    const match = this.match;
    /** @type {GameEvent[]} */
    const events = [];
    for (let number = roundNumber; number <= match.results.length; number++) {
      events.push(roundOverEvent(number, match.results[number - 1], match.rules));
    }
    if (match.isOver) events.push({ type: "match-over", totals: [...match.totals], winner: match.winner });
    else events.push({ type: "deal", round: match.roundNumber, dealer: match.round.dealer });
    return events;
  }
}

/**
 * The state as the person's seat sees it (views.state_json).
 * @param {LocalSession} session
 */
export function stateJson(session) {
  const match = session.match;
  const obs = match.observation(HUMAN);
  const view = /** @type {import("./match.js").MatchView} */ (obs.match);
  const rules = obs.rules;
  const own = obs.calls[HUMAN];
  const theirs = obs.calls[1 - HUMAN];
  const totals = [sumValues(obs.yaku[0]), sumValues(obs.yaku[1])];
  const scorer = scorerFor(rules);
  // A resigned match stops mid-round: nobody is to move any more.
  const toMove = obs.legalActions.length > 0 && session.status === PLAYING;
  const legal = toMove ? obs.legalActions : [];
  let stake = null;
  let stakeDoubled = false;
  if (obs.phase === Phase.DECISION && toMove) {
    stake = scorer.final(totals[HUMAN], own, theirs);
    stakeDoubled = scorer.factors(totals[HUMAN])[0];
  }
  const both = multipliers(rules.multiplier, obs.calls);
  const [c0, c1] = obs.captured;
  return {
    id: session.id,
    version: session.version,
    status: session.status,
    ranked: false,
    points: 0,
    rating: null, // a practice match moves no rating
    difficulty: session.difficulty,
    rules: rules.toMapping({ full: true }),
    rules_name: rulesName(rules),
    phase: obs.phase,
    your_turn: toMove,
    turn: obs.turn,
    dealer: obs.dealer,
    hand: obs.hand.slugs(),
    opponent_hand: obs.opponentHandSize,
    field: obs.field.slugs(),
    stock: obs.stockSize,
    pending: obs.pendingCard === null ? null : SLUGS[obs.pendingCard],
    choices: legal.filter((a) => a >= CAPTURE_BASE && a < KOIKOI).map((a) => SLUGS[a - CAPTURE_BASE]),
    legal: legal.map(actionToJson),
    captured: [pileJson(c0), pileJson(c1)],
    yaku: [obs.yaku[0], obs.yaku[1]],
    yaku_totals: totals,
    progress: [progress(c0, c1, rules, obs.month), progress(c1, c0, rules, obs.month)],
    calls: [...obs.calls],
    multiplier: both[HUMAN],
    opponent_multiplier: both[1 - HUMAN],
    koikoi_multiplier: multiplier(rules.multiplier, own + 1, theirs),
    bonus: koikoiBonus(rules.multiplier, own),
    koikoi_bonus: koikoiBonus(rules.multiplier, own + 1),
    stake,
    stake_doubled: stakeDoubled,
    round: view.roundNumber,
    rounds: view.rounds,
    totals: [...view.totals],
    target_score: view.targetScore,
    results: match.results.map((result) => result.toJson()),
    over: session.status !== PLAYING,
    winner: session.resigned ? COMPUTER : match.winner,
  };
}

/**
 * A match in progress, as a line of the list of games to resume (views.summary_json).
 * @param {LocalSession} session
 * @param {unknown} updated
 */
export function summaryJson(session, updated) {
  const view = session.match.view();
  return {
    id: session.id,
    difficulty: session.difficulty,
    rules_name: rulesName(session.match.rules),
    ranked: false,
    round: view.roundNumber,
    rounds: view.rounds,
    totals: [...view.totals],
    updated,
  };
}

/** The whole table of a finished match, moved along by its events. */
class Table {
  /** @param {Round} game a round as dealt */
  constructor(game) {
    /** @type {[CardSet, CardSet]} */
    this.hands = [game.hand(0), game.hand(1)];
    this.field = game.field.copy();
    this.stock = game.stock.length - game.stockPos;
    /** @type {[CardSet, CardSet]} */
    this.captured = [new CardSet(0, 0), new CardSet(0, 0)];
  }

  /** @param {Readonly<Move>} move */
  move({ seat, source, card, captured }) {
    if (source === "play") this.hands[seat].remove(card);
    else this.stock -= 1;
    if (!captured.isEmpty()) {
      this.field = this.field.minus(captured);
      this.captured[seat].addAll(captured).add(card);
    } else {
      this.field.add(card);
    }
  }
}

/**
 * A finished match step by step, every card face up (views.replay_json).
 * @param {LocalSession} session
 * @param {string | null} [player]
 */
export function replayJson(session, player = null) {
  const match = new Match(session.match.rules, session.seed);
  /** @type {object[]} */
  const steps = [];
  const totals = [match.startingPoints, match.startingPoints];
  let table = new Table(match.round);
  /** @type {Round | null} */
  let current = null;
  let seen = 0;
  let booked = 0;

  /**
   * @param {{type: string, [key: string]: unknown}} event
   * @param {number | null} [number]
   */
  const step = (event, number = null) => {
    const shown = current || match.round;
    steps.push({
      round: number || booked + 1,
      // The record's actions taken so far: how a review's decision finds its step.
      actions: match.actions.length,
      dealer: shown.dealer,
      event,
      hands: [table.hands[0].slugs(), table.hands[1].slugs()],
      field: table.field.slugs(),
      stock: table.stock,
      captured: [pileJson(table.captured[0]), pileJson(table.captured[1])],
      totals: [...totals],
    });
  };

  const follow = () => {
    if (current !== null) {
      for (const move of current.history.slice(seen)) {
        table.move(move);
        step(moveEvent(move));
      }
      seen = current.history.length;
    }
    for (let number = booked + 1; number <= match.results.length; number++) {
      const result = match.results[number - 1];
      const won = match.gains(result);
      totals[0] += won[0];
      totals[1] += won[1];
      step({ type: "round-over", ...result.toJson(), reason: result.reason }, number);
    }
    booked = match.results.length;
    if (match.round !== current && !match.isOver) {
      current = match.round;
      table = new Table(match.round);
      seen = 0;
      step({ type: "deal" });
    }
  };

  follow();
  for (const data of session.actions) {
    const action = actionFromJson(data);
    if (action === KOIKOI || action === STOP) {
      const seat = match.turn;
      match.apply(action);
      step({ type: action === KOIKOI ? "koikoi" : "stop", seat });
    } else {
      match.apply(action);
    }
    follow();
  }
  if (session.resigned) step({ type: "resign", seat: HUMAN });
  return {
    id: session.id,
    player,
    difficulty: session.difficulty,
    rules: match.rules.toMapping({ full: true }),
    rules_name: rulesName(match.rules),
    outcome: session.status,
    totals: [...match.totals],
    steps,
  };
}

// Reviews made in this worker, by record: a finished match does not change, and a review
// costs a second or two. The page's store keeps records only (a record answered
// back would be stored as a match in progress), so the reviews live as the worker does.
/** @type {Map<string, ReturnType<LocalSession["review"]>>} */
const REVIEWS = new Map();
const REVIEWS_KEPT = 8;

/** @param {LocalSession} session */
function reviewOf(session) {
  const key = JSON.stringify(session.record);
  let found = REVIEWS.get(key);
  if (found === undefined) {
    found = session.review();
    if (REVIEWS.size >= REVIEWS_KEPT) REVIEWS.delete(/** @type {string} */ (REVIEWS.keys().next().value));
    REVIEWS.set(key, found);
  }
  return found;
}

/**
 * One request, as the server's routes answer it: ``{body, record}`` (the record to
 * store, where the match changed or began) or a thrown LocalError.
 *   create {id, difficulty, rules, seed?}   act {record, action, version}
 *   state {record}   resign {record}   replay {record, player?}   summary {record, updated}
 *   hint {record}: {version, hint, risk}   review {record}: the review (a finished match)
 * @param {LocalRequest} message
 * @param {Readonly<DeviceExpert>} [expert]
 * @returns {{body: unknown, record?: PracticeRecord}}
 */
export function handle(message, expert = DEVICE_EXPERT) {
  const { op } = message;
  if (op === "create") {
    const seed = message.seed ?? freshSeed();
    const [session, events] = LocalSession.start(/** @type {string} */ (message.id), message.rules ?? { preset: "classic" }, message.difficulty ?? "normal", seed, expert);
    return { body: { state: stateJson(session), events }, record: session.record };
  }
  if (!message.record) throw new LocalError(404, "no such practice match on this device");
  const session = LocalSession.restore(message.record, expert);
  if (op === "state") return { body: { state: stateJson(session) } };
  if (op === "act") {
    const events = session.act(message.action, message.version);
    return { body: { state: stateJson(session), events }, record: session.record };
  }
  if (op === "resign") {
    const events = session.resign();
    return { body: { state: stateJson(session), events }, record: session.record };
  }
  if (op === "replay") {
    if (session.status === PLAYING) throw new LocalError(409, "the match is still being played; replays come after");
    return { body: replayJson(session, message.player ?? null) };
  }
  if (op === "summary") return { body: summaryJson(session, message.updated ?? null) };
  if (op === "hint") return { body: session.hint() };
  if (op === "review") return { body: reviewOf(session) };
  throw new LocalError(400, `unknown request ${JSON.stringify(op)}`);
}
