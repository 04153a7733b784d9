// A match as the table shows it: the state as shown (the view), the log, and the
// answer's events one by one, each with its pause, until the state it ends in; then
// starting, resuming and the rematch of a match against the computer, and the finished
// practice matches sent to the history. The server (or the practice worker) decides
// every move; this only shows them.

import { currentUser } from "./account.js";
import { api } from "./api.js";
import { GAME_KEY, app, backToStart, buildTools, freshUi, render, showTableSummary } from "./appstate.js";
import { byId, cardName, info } from "./cards.js";
import { announce, closeAllModals, toast } from "./dom.js";
import { koikoiBonus } from "./engine/points.js";
import { Abandoned, ApiError } from "./errors.js";
import { plural, t } from "./i18n.js";
import { isPractice, practice } from "./practice.js";
import { delay } from "./settings.js";
import { showMatchSummary, showRoundSummary, totalsAfter } from "./summary.js";
import { SEAT_CPU, SEAT_YOU, moveText, setOpponent, side, statusText, who, yakuText } from "./table.js";

/** Delays (ms at normal pace) between the steps the table shows. */
const PACE = { reveal: 750, ownReveal: 260, settle: 420, banner: 1100, yaku: 900, deal: 650 };

/** Stop a flow whose table was left (menu, new game) while it waited. */
function stillHere(epoch) {
  if (epoch !== app.epoch) throw new Abandoned();
}

/** Every wait of the game flow: the injectable delay, then a check that the table is still there. */
async function pause(ms) {
  const epoch = app.epoch;
  await delay(ms);
  stillHere(epoch);
}

// -- the view: the state as shown -------------------------------------------------------

function copyPiles(piles) {
  return piles.map((pile) => ({ bright: [...pile.bright], animal: [...pile.animal], ribbon: [...pile.ribbon], plain: [...pile.plain] }));
}

/** Field slots kept where they were: cards that stay keep their place, new ones fill gaps. */
function reconcileField(previous, field) {
  if (!previous) return [...field];
  const wanted = new Set(field);
  const slots = previous.map((slug) => (slug && wanted.has(slug) ? slug : null));
  for (const slug of field) {
    if (slots.includes(slug)) continue;
    const hole = slots.indexOf(null);
    if (hole >= 0) slots[hole] = slug;
    else slots.push(slug);
  }
  while (slots.length && slots[slots.length - 1] === null) slots.pop();
  // A few gaps keep cards in place; many would spread the field thin.
  return slots.filter((slug) => slug === null).length > 2 ? slots.filter(Boolean) : slots;
}

export function viewFromState(state, previous) {
  const sameRound = previous && previous.round === state.round && previous.id === state.id;
  return {
    id: state.id,
    rules: state.rules,
    ranked: state.ranked,
    round: state.round,
    rounds: state.rounds,
    totals: [...state.totals],
    target_score: state.target_score,
    dealer: state.dealer,
    turn: state.turn,
    your_turn: state.your_turn,
    phase: state.phase,
    over: state.over,
    hand: [...state.hand],
    opponent_hand: state.opponent_hand,
    field: reconcileField(sameRound ? previous.field : null, state.field),
    stock: state.stock,
    captured: copyPiles(state.captured),
    yaku: [{ ...state.yaku[0] }, { ...state.yaku[1] }],
    calls: [...state.calls],
    multiplier: state.multiplier,
    opponent_multiplier: state.opponent_multiplier,
    koikoi_multiplier: state.koikoi_multiplier,
    bonus: state.bonus || 0, // multiplier = additive: the points your calls add to a stop
    koikoi_bonus: state.koikoi_bonus || 0,
    stake: state.stake,
    stake_doubled: state.stake_doubled,
    pending: state.pending,
    choices: [...state.choices],
    legal: state.legal,
    progress: state.progress || null, // the yaku each seat is nearest to, once the server sends them
    staged: null,
  };
}

function removeFrom(array, slug) {
  const index = array.indexOf(slug);
  if (index >= 0) array.splice(index, 1);
}

function takeIntoPile(view, seat, slugs) {
  for (const slug of slugs) {
    const pile = view.captured[seat][info(slug).kind];
    if (!pile.includes(slug)) pile.push(slug);
    pile.sort(byId);
  }
}

function placeOnField(view, slug) {
  const hole = view.field.indexOf(null);
  if (hole >= 0) view.field[hole] = slug;
  else view.field.push(slug);
}

function takeFromField(view, slugs) {
  view.field = view.field.map((slug) => (slug && slugs.includes(slug) ? null : slug));
}

/** The table as a round began: the final state with the round's events taken back. */
function initialView(state, events) {
  const view = viewFromState(state, null);
  view.yaku = [{}, {}];
  view.calls = [0, 0];
  view.multiplier = 1;
  view.opponent_multiplier = 1;
  view.bonus = 0;
  view.koikoi_bonus = 0;
  view.phase = "play";
  view.turn = state.dealer;
  view.your_turn = false;
  view.pending = null;
  view.choices = [];
  view.stake = null;
  view.totals = totalsAfter(state.results, state.round - 1, state.rules);
  for (const event of [...events].reverse()) {
    if (event.type !== "play" && event.type !== "draw") continue;
    const seat = event.seat;
    const pile = view.captured[seat];
    if (event.captured.length) {
      for (const slug of [event.card, ...event.captured]) removeFrom(pile[info(slug).kind], slug);
      for (const slug of event.captured) placeOnField(view, slug);
    } else {
      takeFromField(view, [event.card]);
    }
    if (event.type === "draw") view.stock += 1;
    else if (seat === SEAT_CPU) view.opponent_hand += 1;
    else {
      view.hand.push(event.card);
      view.hand.sort(byId);
    }
  }
  view.field = view.field.filter(Boolean);
  return view;
}

// -- the log ------------------------------------------------------------------------------

function addLog(kind, text) {
  const entry = { kind, text };
  app.log.push(entry);
  if (app.log.length > 200) app.log.splice(0, app.log.length - 200);
  announce(text());
  return entry;
}

// -- the game flow: events, one by one ------------------------------------------------------

export async function moveCard(event, { own = false } = {}) {
  const view = app.view;
  const seat = event.seat;
  if (event.type === "play") {
    if (seat === SEAT_YOU) removeFrom(view.hand, event.card);
    else view.opponent_hand = Math.max(0, view.opponent_hand - 1);
  } else if (!event.fromPending) {
    view.stock = Math.max(0, view.stock - 1);
  }
  view.pending = null;
  view.staged = { slug: event.card, seat, source: event.type, targets: event.captured };
  const text = () => moveText(event);
  addLog(event.type, text);
  app.ui.status = text;
  render();
  await pause(own && event.type === "play" ? PACE.ownReveal : PACE.reveal);
  view.staged = null;
  if (event.captured.length) {
    takeFromField(view, event.captured);
    takeIntoPile(view, seat, [event.card, ...event.captured]);
  } else {
    placeOnField(view, event.card);
  }
  render();
  await pause(PACE.settle);
}

async function showBanner(kind, text) {
  app.ui.banner = { kind, text };
  render();
  await pause(PACE.banner);
  app.ui.banner = null;
}

async function step(event, state, { boardless = false } = {}) {
  const view = app.view;
  switch (event.type) {
    case "play":
    case "draw":
      if (boardless) addLog(event.type, () => moveText(event));
      else await moveCard(event);
      break;
    case "yaku": {
      if (!boardless) view.yaku[event.seat] = { ...event.yaku };
      const yaku = { ...event.yaku };
      const text = () => t(`log.yaku.${side(event.seat)}`, { yaku: yakuText(yaku), ...named() });
      addLog("yaku", text);
      app.ui.status = text;
      render();
      await pause(PACE.yaku);
      break;
    }
    case "koikoi": {
      if (!boardless) {
        view.calls[event.seat] += 1;
        [view.multiplier, view.opponent_multiplier] = event.multipliers;
        if (event.seat === SEAT_YOU) view.bonus = koikoiBonus(view.rules.multiplier, view.calls[SEAT_YOU]);
      }
      const text = () => t(`log.koikoi.${side(event.seat)}`, named());
      addLog("koikoi", text);
      app.ui.status = text;
      await showBanner("koikoi", text);
      render();
      break;
    }
    case "stop": {
      const text = () => t(`log.stop.${side(event.seat)}`, named());
      addLog("stop", text);
      app.ui.status = text;
      await showBanner("stop", text);
      render();
      break;
    }
    case "round-over": {
      const outcome = event.winner === null ? "draw" : side(event.winner);
      const points = event.winner === null ? 0 : event.points[event.winner];
      addLog("round", () => t(`log.round.${outcome}`, { round: event.round, points: plural("points", points), ...named() }));
      if (view && !boardless) view.totals = totalsAfter(state.results, event.round, state.rules);
      app.ui.status = () => t("status.round_over");
      render();
      const epoch = app.epoch;
      await showRoundSummary({ event, state, view: view && view.round === event.round && !boardless ? view : null });
      stillHere(epoch);
      break;
    }
    case "match-over": {
      const outcome = event.winner === null ? "draw" : side(event.winner);
      let text = () => t(`log.match.${outcome}`, { you: event.totals[SEAT_YOU], cpu: event.totals[SEAT_CPU], ...named() });
      // Between people, either may resign, or forfeit to the clock.
      if (event.ending === "forfeit") text = () => t(`log.forfeit.${side(1 - event.winner)}`, named());
      else if (event.resigned) text = () => t(`log.resign.${app.table ? side(1 - event.winner) : "you"}`, named());
      addLog("match", text);
      break;
    }
    case "timeout": {
      // The clock ran out: the computer's easy player made this seat's move for it.
      const text = () => t(`log.timeout.${side(event.seat)}`, named());
      addLog("timeout", text);
      app.ui.status = text;
      await showBanner("timeout", text);
      render();
      break;
    }
    case "sat":
      addLog("sat", () => t("log.sat", named()));
      break;
    case "rematch":
      if (event.seat !== SEAT_YOU) addLog("rematch", () => t("rematch.wanted", named()));
      break;
    default:
      break;
  }
}

/**
 * Show a response's events, then the state it ends in. Events up to the first deal
 * continue the round on the table; after the last deal, the round is rebuilt from
 * the final state by taking its events back, then played forward.
 */
export async function runEvents(events, state, options = {}) {
  try {
    await playEvents(events, state, options);
  } catch (error) {
    if (!(error instanceof Abandoned)) throw error;
  }
}

async function playEvents(events, state, { skip = 0 }) {
  app.ui.busy = true;
  app.ui.selected = null;
  const deals = events.map((event, index) => (event.type === "deal" ? index : -1)).filter((index) => index >= 0);
  const lastDeal = deals.length ? deals[deals.length - 1] : -1;
  if (!app.view) app.view = lastDeal >= 0 ? initialView(state, events.slice(lastDeal + 1)) : viewFromState(state, null);
  render();
  const firstDeal = deals.length ? deals[0] : events.length;
  for (let i = skip; i < firstDeal; i += 1) await step(events[i], state);
  for (let d = 0; d < deals.length; d += 1) {
    const start = deals[d];
    const end = d + 1 < deals.length ? deals[d + 1] : events.length;
    const deal = events[start];
    const last = d === deals.length - 1;
    if (last) app.view = initialView(state, events.slice(start + 1));
    addLog("deal", () => t(`log.deal.${side(deal.dealer)}`, { round: deal.round, ...named() }));
    app.ui.status = () => t(`log.deal.${side(deal.dealer)}`, { round: deal.round, ...named() });
    render();
    await pause(PACE.deal);
    for (let i = start + 1; i < end; i += 1) await step(events[i], state, { boardless: !last });
  }
  if (state.phase === "draw-choice" && state.your_turn && app.view.round === state.round && state.pending) {
    // The drawn card matches two field cards: show it coming off the stock first.
    app.view.stock = state.stock;
    app.view.staged = { slug: state.pending, seat: SEAT_YOU, source: "draw", targets: state.choices };
    app.ui.status = () => t("status.draw_choice", { card: cardName(state.pending) });
    render();
    await pause(PACE.reveal);
  }
  app.view = viewFromState(state, app.view);
  app.ui.busy = false;
  app.ui.status = null;
  app.ui.banner = null;
  render();
  if (state.your_turn && !state.over) announce(statusText(app.view, {}));
  const matchOver = events.find((event) => event.type === "match-over");
  if (app.table && (matchOver || state.over)) {
    showTableSummary(state);
    return;
  }
  if (matchOver || state.over) {
    localStorage.removeItem(GAME_KEY);
    if (state.points > 0) api.session().catch(() => {}); // the header shows the new points
    const saving = isPractice(state.id) ? syncPractice().then(() => practice.saveState(state.id)) : null;
    await showMatchSummary({ state, onNewGame: backToStart, onRematch: rematch, saving });
  }
}

// -- practice matches to the history --------------------------------------------------

let syncing = Promise.resolve();

/** Send the signed-in player's finished practice matches not yet saved to their history
 * (the server replays each record); a refused one is never sent again, and offline the
 * rest wait for the next load or the `online` event. Calls queue one pass after another. */
export function syncPractice() {
  syncing = syncing.then(async () => {
    const user = currentUser();
    if (!user) return;
    for (const { id, body } of practice.unsaved(user.name)) {
      try {
        const answer = await api.savePractice(body);
        practice.markSaved(id, answer.id);
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) practice.markRefused(id, error.detail);
        else break; // offline, signed out meanwhile, or too many at once: the next pass
      }
    }
  });
  return syncing;
}

// Back online: ask who is signed in first (a page started offline is a guest's until the
// server says), then send what waits.
window.addEventListener("online", () => {
  api
    .session()
    .catch(() => {})
    .then(() => syncPractice());
});

// -- starting, resuming ------------------------------------------------------------------

/** Start a match; `ranked`: true or false as the player chose, null where there was no choice. */
export async function startGame(difficulty, rules, ranked) {
  let body;
  try {
    body = await api.newGame(difficulty, rules, ranked);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) toast("error.rules", { kind: "error", detail: error.detail });
    else toast("error.network", { kind: "error" });
    return;
  }
  app.lastSetup = { difficulty, rules, ranked };
  try {
    localStorage.setItem(GAME_KEY, body.state.id);
  } catch {
    // private mode: no resuming
  }
  await enterTable(body.state, body.events);
}

export async function enterTable(state, events, { keepLog = false } = {}) {
  closeAllModals();
  setOpponent(null);
  app.screen = "table";
  app.away = false;
  app.game = state;
  app.view = null;
  if (!keepLog) app.log = [];
  app.ui = freshUi();
  buildTools();
  await runEvents(events, state);
}

export async function resumeGame(id) {
  let body;
  try {
    body = await api.game(id);
  } catch {
    app.games = app.games.filter((game) => game.id !== id);
    if (localStorage.getItem(GAME_KEY) === id) localStorage.removeItem(GAME_KEY);
    toast("error.gone", { kind: "error" });
    render();
    return;
  }
  // A ranked match's rules are its preset as it stands, which a ranked rematch must send as such.
  const { difficulty, rules, rules_name: preset, ranked } = body.state;
  app.lastSetup = { difficulty, rules: ranked ? { preset } : { ...rules }, ranked };
  await enterTable(body.state, []);
}

async function rematch() {
  if (!app.lastSetup) return backToStart();
  await startGame(app.lastSetup.difficulty, app.lastSetup.rules, app.lastSetup.ranked);
}

/** The other seat's name for the texts that speak of it ({name}). */
function named() {
  return { name: who(SEAT_CPU) };
}

