// koikoi in the browser: boot, screens, and the game flow. The server decides every
// move; the browser shows its events one by one, then the state it answered with.

import { boardPresets, currentUser, onAccountChange, openSignIn, renderAccountSlot } from "./account.js";
import { ApiError, api } from "./api.js";
import { byId, cardName, info, installLongPress, setCards } from "./cards.js";
import { announce, clear, closeAllModals, confirmDialog, h, icon, modalOpen, openModal, retranslateToast, toast } from "./dom.js";
import { openHelp } from "./help.js";
import { isolate, loadLanguage, plural, t } from "./i18n.js";
import { renderLeaderboard, renderPageStatus, renderProfile } from "./pages.js";
import { isPractice, practice } from "./practice.js";
import { renderReplay } from "./replay.js";
import { href, parseRoute } from "./routes.js";
import { koikoiBonus, matchesOf, totalsAfter } from "./rulesinfo.js";
import { PACES, apply as applySettings, delay, pace, save, setDelay, settings, urlLang } from "./settings.js";
import { openSettings } from "./settingsdialog.js";
import { renderStart, startRules } from "./start.js";
import { showMatchSummary, showRoundSummary } from "./summary.js";
import { SEAT_CPU, SEAT_YOU, logList, moveText, renderTable, side, statusText, updateChoice, yakuText } from "./table.js";

const GAME_KEY = "koikoi.game";
const SETUP_KEY = "koikoi.setup";

/** Delays (ms at normal pace) between the steps the table shows. */
const PACE = { reveal: 750, ownReveal: 260, settle: 420, banner: 1100, yaku: 900, deal: 650 };

const app = {
  languages: [],
  preferred: "en",
  catalog: null, // /api/rules
  game: null, // the latest state from the server
  view: null, // the table as shown (events move it step by step)
  ui: { selected: null, busy: false, waiting: false, status: null, banner: null },
  log: [],
  screen: "boot", // "start", "table" or "page"
  games: [], // the matches in progress the start screen offers
  page: null, // the page shown: its route ({page, query | arg}), data and error
  away: false, // the table was left for a page: going back returns to it
  lastSetup: null, // {difficulty, rules, ranked} of the game being played (for "play again")
  epoch: 0, // bumped when the table is left: a flow still running then stops
};

// The hooks browser tests read: the latest state, and whether the table is still moving.
window.koikoi = {
  get state() {
    return app.game;
  },
  get busy() {
    return app.ui.busy || app.ui.waiting;
  },
  delay,
  setDelay,
  setPace(value) {
    save({ pace: value });
  },
};

const screen = () => document.getElementById("screen");

const freshUi = () => ({ selected: null, busy: false, waiting: false, status: null, banner: null });

function setBusyFlag() {
  document.body.dataset.busy = app.ui.busy || app.ui.waiting ? "true" : "false";
}

// -- the header -----------------------------------------------------------------------

function buildTools() {
  const tools = clear(document.getElementById("tools"));
  if (app.screen === "table") {
    tools.append(
      h("button", { type: "button", class: "icon-btn", "data-testid": "menu-button", "aria-label": t("ui.table_menu"), title: t("ui.table_menu"), onclick: openTableMenu }, icon("menu")),
    );
  }
  const select = h(
    "select",
    { class: "lang-select", "data-testid": "language-select", "aria-label": t("ui.language"), title: t("ui.language") },
    app.languages.map((lang) => h("option", { value: lang.code, lang: lang.code, dir: lang.dir, selected: lang.code === document.documentElement.lang }, lang.name)),
  );
  select.addEventListener("change", () => changeLanguage(select.value));
  tools.append(
    h("label", { class: "lang-wrap" }, icon("globe"), select),
    h("button", { type: "button", class: "icon-btn", "data-testid": "help-button", "aria-label": t("ui.help"), title: t("ui.help"), onclick: () => showHelp() }, icon("help")),
    h("button", { type: "button", class: "icon-btn", "data-testid": "settings-button", "aria-label": t("ui.settings"), title: t("ui.settings"), onclick: () => openSettings({ onChange: render }) }, icon("settings")),
  );
  renderAccountSlot(document.getElementById("account-slot"));
}

/** Signed in, out, or the points changed: the header, and whatever shows the account. */
function accountChanged() {
  syncPractice();
  buildTools();
  refreshGames();
  if (app.screen !== "table") render();
}

async function changeLanguage(code) {
  try {
    await loadLanguage(code);
  } catch (error) {
    toast("error.network", { kind: "error" });
    return;
  }
  save({ lang: code });
  buildTools();
  render();
  retranslateToast();
}

function showHelp(tab) {
  const rules = app.screen === "table" && app.game ? app.game.rules : startRules();
  openHelp(rules, tab);
}

// -- screens --------------------------------------------------------------------------

function render() {
  setBusyFlag();
  const root = document.getElementById("root");
  root.dataset.screen = app.screen;
  if (app.screen === "table" && app.view) {
    renderTable(screen(), app.view, app.ui, handlers, app.log);
  } else if (app.screen === "start") {
    renderStart(screen(), {
      catalog: app.catalog,
      setup: loadSetup(),
      games: app.games,
      user: currentUser(),
      onStart: startGame,
      onResume: resumeGame,
      onHelp: showHelp,
      onChange: saveSetup,
      onSignIn: () => openSignIn(),
    });
  } else if (app.screen === "page") {
    const page = app.page;
    const kind = PAGES[page.page];
    if (page.data) kind.draw(screen(), page.data, page);
    else renderPageStatus(screen(), { error: page.error, missing: kind.missing ? t(kind.missing, { name: isolate(page.arg) }) : "" });
  }
}

function loadSetup() {
  try {
    return JSON.parse(localStorage.getItem(SETUP_KEY) || "null");
  } catch {
    return null;
  }
}

function saveSetup(setup) {
  try {
    localStorage.setItem(SETUP_KEY, JSON.stringify(setup));
  } catch {
    // private mode
  }
}

function showStart() {
  app.epoch += 1;
  closeAllModals();
  app.screen = "start";
  app.away = false;
  app.ui = freshUi();
  buildTools();
  render();
  screen().focus({ preventScroll: true });
}

/** Back to the start screen from the table, with the matches in progress as they are now. */
function backToStart() {
  showStart();
  refreshGames();
}

/** The matches in progress: the account's (from any device) and this device's practice ones. */
async function loadGames() {
  if (currentUser()) {
    try {
      return (await api.games()).games;
    } catch {
      return [];
    }
  }
  // A guest's practice matches are on this device; a last server match may be too.
  const games = await api.practiceGames();
  const saved = localStorage.getItem(GAME_KEY);
  if (!saved || games.some((game) => game.id === saved)) return games;
  try {
    const { state } = await api.game(saved);
    if (state.over) return games;
    return [{ id: state.id, difficulty: state.difficulty, rules_name: state.rules_name, round: state.round, rounds: state.rounds, totals: state.totals }, ...games];
  } catch (error) {
    if (error.status !== 0) localStorage.removeItem(GAME_KEY); // kept while the server is out of reach
    return games;
  }
}

async function refreshGames() {
  const games = await loadGames();
  if (JSON.stringify(games) === JSON.stringify(app.games)) return;
  app.games = games;
  if (app.screen === "start") render();
}

/** The table's menu: back to the start screen (the match waits there), or resign. */
function openTableMenu() {
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "aria-label": t("ui.close"), title: t("ui.close") }, icon("close"));
  const back = h("button", { type: "button", class: "btn", "data-testid": "menu-back" }, t("ui.menu_resume_later"));
  const resign = app.game && !app.game.over
    ? h("button", { type: "button", class: "btn btn-danger-ghost", "data-testid": "resign-button" }, t("resign.action"))
    : null;
  const panel = h(
    "div",
    { class: "dialog menu-dialog", "data-testid": "table-menu", "aria-labelledby": "table-menu-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "table-menu-title" }, t("ui.table_menu")), close),
    h("div", { class: "menu-list" }, back, resign),
  );
  const modal = openModal(panel);
  close.addEventListener("click", () => modal.close());
  back.addEventListener("click", backToStart);
  if (resign) {
    resign.addEventListener("click", () => {
      modal.close();
      resignMatch();
    });
  }
}

/** Resign the match being played (after a confirmation): it ends as a loss. */
async function resignMatch() {
  const state = app.game;
  const confirmed = await confirmDialog({
    title: t("resign.title"),
    text: t(state.ranked ? "resign.text_ranked" : "resign.text"),
    confirm: t("resign.confirm"),
    cancel: t("ui.cancel"),
    testid: "resign-dialog",
  });
  if (!confirmed || app.screen !== "table" || app.game.id !== state.id || app.game.over) return;
  app.epoch += 1; // what the table was still showing stops: the match ends now
  app.ui = freshUi();
  let body;
  try {
    body = await api.resign(state.id);
  } catch (error) {
    await recover(error);
    return;
  }
  app.game = body.state;
  await runEvents(body.events, body.state);
}

// -- pages: the leaderboard, a player's profile, a replay ---------------------------------

const PAGES = {
  leaderboard: {
    load: (page) => api.leaderboard(page.query),
    draw: (container, data, page) => renderLeaderboard(container, data, { query: page.query, user: currentUser(), onQuery: setLeaderboardQuery }),
  },
  player: {
    load: (page) => api.player(page.arg),
    draw: (container, data) => renderProfile(container, data, { user: currentUser() }),
    missing: "page.no_player",
  },
  replay: {
    load: (page) => api.replay(page.arg),
    draw: (container, data, page) => renderReplay(container, data, page),
    missing: "page.no_replay",
  },
};

/** Show what the address asks for: a page, or the game (back to the table if it was left for a page). */
function route() {
  const wanted = parseRoute(location.hash, boardPresets());
  if (!wanted) {
    if (app.screen === "page" && app.away && app.game && !app.game.over) enterTable(app.game, [], { keepLog: true });
    else if (app.screen !== "start" && app.screen !== "table") showStart();
    return;
  }
  if (app.screen === "table") app.away = !app.game.over;
  app.epoch += 1;
  closeAllModals();
  app.screen = "page";
  app.page = { step: 0, ...wanted, data: null, error: null };
  buildTools();
  render();
  screen().scrollTop = 0;
  screen().focus({ preventScroll: true });
  loadPage(app.page);
}

/** Fetch a page's data, then draw it (unless another page or request came since). */
async function loadPage(page) {
  const ticket = (page.ticket = (page.ticket || 0) + 1);
  let data = null;
  let error = null;
  try {
    data = await PAGES[page.page].load(page);
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error = failure;
  }
  if (app.page !== page || page.ticket !== ticket) return;
  if (error && page.data) {
    toast("error.network", { kind: "error" }); // keep showing what was there
    return;
  }
  Object.assign(page, { data, error });
  render();
}

/** Change some of the leaderboard's filters, on the query as it is now: a second change
 * made before the first one's board has loaded keeps the first. */
function setLeaderboardQuery(change) {
  const query = { ...app.page.query, ...change };
  history.replaceState(null, "", href.leaderboard(query));
  app.page.query = query;
  loadPage(app.page);
}

class Abandoned extends Error {}

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

function viewFromState(state, previous) {
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

async function moveCard(event, { own = false } = {}) {
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
      const text = () => t(`log.yaku.${side(event.seat)}`, { yaku: yakuText(yaku) });
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
        if (event.seat === SEAT_YOU) view.bonus = koikoiBonus(view.rules, view.calls[SEAT_YOU]);
      }
      const text = () => t(`log.koikoi.${side(event.seat)}`);
      addLog("koikoi", text);
      app.ui.status = text;
      await showBanner("koikoi", text);
      render();
      break;
    }
    case "stop": {
      const text = () => t(`log.stop.${side(event.seat)}`);
      addLog("stop", text);
      app.ui.status = text;
      await showBanner("stop", text);
      render();
      break;
    }
    case "round-over": {
      const outcome = event.winner === null ? "draw" : side(event.winner);
      const points = event.winner === null ? 0 : event.points[event.winner];
      addLog("round", () => t(`log.round.${outcome}`, { round: event.round, points: plural("points", points) }));
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
      addLog("match", event.resigned ? () => t("log.resign.you") : () => t(`log.match.${outcome}`, { you: event.totals[SEAT_YOU], cpu: event.totals[SEAT_CPU] }));
      break;
    }
    default:
      break;
  }
}

/**
 * Show a response's events, then the state it ends in. Events up to the first deal
 * continue the round on the table; after the last deal, the round is rebuilt from
 * the final state by taking its events back, then played forward.
 */
async function runEvents(events, state, options = {}) {
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
    addLog("deal", () => t(`log.deal.${side(deal.dealer)}`, { round: deal.round }));
    app.ui.status = () => t(`log.deal.${side(deal.dealer)}`, { round: deal.round });
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
function syncPractice() {
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
async function startGame(difficulty, rules, ranked) {
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

async function enterTable(state, events, { keepLog = false } = {}) {
  closeAllModals();
  app.screen = "table";
  app.away = false;
  app.game = state;
  app.view = null;
  if (!keepLog) app.log = [];
  app.ui = freshUi();
  buildTools();
  await runEvents(events, state);
}

async function resumeGame(id) {
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

// -- the player's moves --------------------------------------------------------------------

function canAct() {
  const state = app.game;
  return app.screen === "table" && state && state.your_turn && !state.over && !app.ui.busy && !app.ui.waiting && !modalOpen();
}

async function act(action) {
  if (!canAct()) return;
  const state = app.game;
  let pre = null;
  if (action.play) {
    const matches = matchesOf(action.play, app.view.field);
    if (matches.length !== 2) pre = { type: "play", seat: SEAT_YOU, card: action.play, captured: matches };
  } else if (action.capture) {
    pre = { type: state.phase === "hand-choice" ? "play" : "draw", seat: SEAT_YOU, card: state.pending, captured: [action.capture], fromPending: true };
  }
  app.ui.selected = null;
  app.ui.busy = true;
  const request = api.act(state.id, action, state.version);
  request.catch(() => {}); // handled below, after the card has moved
  if (pre) {
    try {
      await moveCard(pre, { own: true });
    } catch (error) {
      if (error instanceof Abandoned) return;
      throw error;
    }
  }
  app.ui.waiting = true;
  app.ui.status = null;
  render();
  const epoch = app.epoch;
  let body;
  try {
    body = await request;
  } catch (error) {
    if (epoch !== app.epoch) return;
    app.ui.waiting = false;
    app.ui.busy = false;
    await recover(error);
    return;
  }
  if (epoch !== app.epoch) return; // the table was left meanwhile; resuming fetches the state
  app.ui.waiting = false;
  app.game = body.state;
  const events = body.events;
  const first = events[0];
  const skip = pre && first && first.type === pre.type && first.seat === SEAT_YOU && first.card === pre.card ? 1 : 0;
  await runEvents(events, body.state, { skip });
}

async function recover(error) {
  if (error instanceof ApiError && error.status === 404) {
    toast("error.gone", { kind: "error" });
    localStorage.removeItem(GAME_KEY);
    backToStart();
    return;
  }
  if (error instanceof ApiError && error.status === 409) toast("error.stale", { kind: "error" });
  else if (error instanceof ApiError && error.status === 400) toast("error.illegal", { kind: "error", detail: error.detail });
  else toast("error.network", { kind: "error" });
  try {
    const body = await api.game(app.game.id);
    app.game = body.state;
  } catch {
    // keep the last state we had
  }
  app.view = viewFromState(app.game, app.view);
  render();
}

function select(slug) {
  app.ui.selected = slug;
  // Choosing between two cards changes only the marks: the sheet stays as it is.
  const choosing = app.game.phase === "hand-choice" || app.game.phase === "draw-choice";
  if (!(choosing && updateChoice(screen(), app.view, app.ui))) render();
  if (slug) {
    const matches = app.game.phase === "play" ? matchesOf(slug, app.view.field) : [];
    announce(app.game.phase === "play"
      ? t("status.selected", { card: cardName(slug), count: plural("matches", matches.length) })
      : t("choice.confirm_hint", { card: cardName(slug) }));
  }
}

const handlers = {
  onHandCard(event, slug) {
    if (!canAct() || app.game.phase !== "play") return;
    const legal = app.game.legal.some((action) => action.play === slug);
    if (!legal) return;
    if (app.ui.selected === slug) act({ play: slug });
    else select(slug);
  },
  onFieldCard(event, slug) {
    if (!canAct()) return;
    const phase = app.game.phase;
    if (phase === "play" && app.ui.selected && matchesOf(app.ui.selected, [slug]).length) {
      act({ play: app.ui.selected });
    } else if ((phase === "hand-choice" || phase === "draw-choice") && app.game.choices.includes(slug)) {
      handlers.onChoice(event, slug);
    }
  },
  onChoice(event, slug) {
    if (!canAct()) return;
    if (app.ui.selected === slug) act({ capture: slug });
    else select(slug);
  },
  onConfirm() {
    if (!canAct() || !app.ui.selected) return;
    if (app.game.phase === "play") act({ play: app.ui.selected });
    else if (app.game.choices.includes(app.ui.selected)) act({ capture: app.ui.selected });
  },
  onCancel() {
    if (app.ui.selected) select(null);
  },
  onKoikoi() {
    if (canAct() && app.game.phase === "decision" && app.game.legal.some((a) => a.koikoi)) act({ koikoi: true });
  },
  onStop() {
    if (canAct() && app.game.phase === "decision" && app.game.legal.some((a) => a.stop)) act({ stop: true });
  },
  onPace() {
    const index = PACES.indexOf(pace());
    save({ pace: PACES[(index + 1) % PACES.length] });
    render();
    const button = screen().querySelector("[data-testid=pace-button]");
    if (button) button.focus({ preventScroll: true });
  },
  onLog: openLog,
};

/** The game's log as a dialog, for windows that have no room to show it beside the table. */
function openLog() {
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "aria-label": t("ui.close"), title: t("ui.close") }, icon("close"));
  const panel = h(
    "div",
    { class: "dialog log-dialog", "data-testid": "log-dialog", "aria-labelledby": "log-dialog-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "log-dialog-title" }, t("ui.log")), close),
    app.log.length ? logList(app.log) : h("p", { class: "dialog-text log-empty" }, t("ui.log_empty")),
  );
  const modal = openModal(panel, { className: "modal-drawer" });
  close.addEventListener("click", () => modal.close());
}

document.addEventListener("keydown", (event) => {
  if (modalOpen() || app.screen !== "table") return;
  const target = event.target;
  if (target && (target.matches("input, select, textarea") || target.isContentEditable)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") {
    if (app.ui.selected) {
      event.preventDefault();
      handlers.onCancel();
    }
  } else if (event.key === "k" || event.key === "K") {
    handlers.onKoikoi();
  } else if (event.key === "s" || event.key === "S") {
    handlers.onStop();
  }
});

// -- boot ------------------------------------------------------------------------------

async function boot() {
  applySettings();
  installLongPress();
  let languages;
  try {
    // The session first of all: it brings the CSRF token every later POST sends. With
    // no network (the service worker has the rest) the game starts as a guest's.
    const session = api.session().catch((error) => {
      if (error.status !== 0) throw error;
    });
    const [index, catalog, cards] = await Promise.all([api.languages(), api.rules(), api.cards(), session]);
    languages = index;
    app.catalog = catalog;
    setCards(cards);
  } catch (error) {
    document.getElementById("boot-note").textContent = "Koi-Koi: the game server cannot be reached.";
    throw error;
  }
  app.languages = languages.languages;
  app.preferred = languages.preferred;
  const codes = app.languages.map((lang) => lang.code);
  const wanted = [urlLang, settings.lang, languages.preferred, "en"].find((code) => code && codes.includes(code));
  await loadLanguage(wanted);
  app.games = await loadGames();
  onAccountChange(accountChanged);
  syncPractice();
  window.addEventListener("hashchange", route);
  route();
  document.body.dataset.ready = "true";
  if (pace() === 0) document.documentElement.dataset.pace = "0";
  registerServiceWorker();
}

// -- offline ----------------------------------------------------------------------------

/** The service worker (/sw.js) keeps the game on the device: after this visit it starts
 * with no network. A new release's worker takes over as soon as it has cached its files;
 * this page keeps what it has loaded (html[data-update=ready] says so), and the next
 * load is all the new release. Registered once the page is ready, not to slow it. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => console.warn("koikoi: no service worker:", error));
}

if ("serviceWorker" in navigator && navigator.serviceWorker.controller) {
  // Served by a worker already: a new one taking over is a new release.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    document.documentElement.dataset.update = "ready";
  });
}

boot();
