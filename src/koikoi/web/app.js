// koikoi in the browser: boot, screens, and the game flow. The server decides every
// move; the browser shows its events one by one, then the state it answered with.

import { boardPresets, currentUser, onAccountChange, openSignIn, renderAccountSlot } from "./account.js";
import { ApiError, api } from "./api.js";
import { byId, cardName, info, installLongPress, setCards } from "./cards.js";
import { announce, clear, closeAllModals, confirmDialog, h, icon, modalOpen, openModal, retranslateToast, toast } from "./dom.js";
import { openHelp } from "./help.js";
import { openQueuePanel, renderLobby } from "./person.js";
import { isolate, loadLanguage, plural, t, waitText } from "./i18n.js";
import { renderLeaderboard, renderPageStatus, renderProfile } from "./pages.js";
import { isPractice, practice } from "./practice.js";
import { actionCard, openHint, renderReview } from "./coach.js";
import { renderReplay } from "./replay.js";
import { href, parseRoute } from "./routes.js";
import { koikoiBonus, matchesOf, totalsAfter } from "./rulesinfo.js";
import { PACES, apply as applySettings, delay, pace, save, setDelay, settings, urlLang } from "./settings.js";
import { openSettings } from "./settingsdialog.js";
import { renderStart, startRules } from "./start.js";
import { showMatchSummary, showRoundSummary } from "./summary.js";
import { SEAT_CPU, SEAT_YOU, clockText, logList, moveText, renderTable, setOpponent, side, statusText, updateChoice, who, yakuText } from "./table.js";

const GAME_KEY = "koikoi.game";
const SETUP_KEY = "koikoi.setup";

/** A table between people: how often a page without its WebSocket reads the table
 * again, how long the socket may take to say anything before that starts, and the
 * longest wait before trying the socket again after a drop. */
const POLL_MS = 3000;
const LIVE_OPEN_MS = 5000;
const LIVE_RETRY_MAX_MS = 30000;
const QUEUE_POLL_MS = 2000;

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
  screen: "boot", // "start", "table", "page" or "lobby" (a person's table before its match)
  table: null, // at a table between people: its live connection, clock and rematch (see openLive)
  lobby: null, // the lobby shown: {kind, table, notice}
  queue: null, // a quick match being waited for
  games: [], // the matches in progress the start screen offers
  tables: [], // and the tables between people (GET /api/tables)
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
    app.ui.coach = coachShown();
    renderTable(screen(), app.view, app.ui, handlers, app.log, tableExtras());
    askRisk();
  } else if (app.screen === "lobby") {
    renderLobby(screen(), { ...app.lobby, notice: app.table && app.table.notice ? t(app.table.notice) : null }, { onSit: sitDown, onBack: backToStart, onClose: closeWaiting });
  } else if (app.screen === "start") {
    renderStart(screen(), {
      catalog: app.catalog,
      setup: loadSetup(),
      games: app.games,
      tables: app.tables,
      user: currentUser(),
      onStart: startGame,
      onResume: resumeGame,
      onHelp: showHelp,
      onChange: saveSetup,
      onSignIn: () => openSignIn(),
      onInvite: inviteFriend,
      onJoinCode: joinByCode,
      onQuickMatch: quickMatch,
    });
  } else if (app.screen === "page") {
    const page = app.page;
    const kind = PAGES[page.page];
    if (page.data) kind.draw(screen(), page.data, page);
    else renderPageStatus(screen(), { error: page.error, missing: kind.missing ? t(typeof kind.missing === "function" ? kind.missing(page) : kind.missing, { name: isolate(page.arg) }) : "", loading: kind.loading ? t(kind.loading) : "" });
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
  closeTable();
  closeAllModals();
  // From a table's address: the start screen's own, a step back returning to the table.
  if (location.hash.startsWith("#/table/")) history.pushState(null, "", href.game);
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

const loadTables = () => api.tables().then((body) => body.tables, () => []);

async function refreshGames() {
  const [games, tables] = await Promise.all([loadGames(), loadTables()]);
  if (JSON.stringify([games, tables]) === JSON.stringify([app.games, app.tables])) return;
  app.games = games;
  app.tables = tables;
  if (app.screen === "start") render();
}

/** The table's menu: back to the start screen (the match waits there), or resign. */
function openTableMenu() {
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "aria-label": t("ui.close"), title: t("ui.close") }, icon("close"));
  const back = h("button", { type: "button", class: "btn", "data-testid": "menu-back" }, t("ui.menu_resume_later"));
  const resign = app.game && !app.game.over && (!app.table || app.game.status === "playing")
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
    body = await (app.table ? api.tableResign(state.id) : api.resign(state.id));
  } catch (error) {
    await recover(error);
    return;
  }
  if (app.table) {
    receive(body.state, body.events);
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
    load: (page) => (page.table ? api.tableReplay(page.arg) : api.replay(page.arg)),
    draw: (container, data, page) => renderReplay(container, data, page),
    missing: "page.no_replay",
  },
  review: {
    load: loadReview,
    draw: (container, data, page) => renderReview(container, data, page),
    missing: (page) => (page.table ? "page.no_table_review" : "page.no_review"),
    loading: "review.loading",
  },
};

/** A review and the replay its decisions link to (a practice match's from this device;
 * at a table between people, one seat's review and the table's replay). */
async function loadReview(page) {
  const id = page.arg;
  if (page.table) {
    const [review, replay] = await Promise.all([api.tableReview(id, page.seat), api.tableReplay(id)]);
    return { id, review, replay, table: true, seat: page.seat };
  }
  const [review, replay] = await Promise.all([api.review(id), api.replay(id)]);
  return { id, review, replay };
}

/** Show what the address asks for: a page, or the game (back to the table if it was left for a page). */
function route() {
  const wanted = parseRoute(location.hash, boardPresets());
  if (wanted && wanted.page === "table") {
    openTableRoute(wanted.arg);
    return;
  }
  if (!wanted && app.table) {
    showStart();
    return;
  }
  if (wanted && app.table) {
    closeTable(); // a page from a person's table: the way back is the table's link
    app.screen = "page";
  }
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
        if (event.seat === SEAT_YOU) view.bonus = koikoiBonus(view.rules, view.calls[SEAT_YOU]);
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

// -- tables between two people ------------------------------------------------------------
//
// One table page holds one live connection: a WebSocket whose first message is the
// whole state and every later one a change (the opponent's moves, the clock's, a
// rematch offer). Every state, whichever way it comes (the socket, the answer to one's
// own move, a poll), goes through receive(): only a newer version is taken, and its
// events are shown one batch after another, as the computer game shows its answers.

/** The other seat's name for the texts that speak of it ({name}). */
function named() {
  return { name: who(SEAT_CPU) };
}

/** What the table view adds at a person's table: the clock, timeouts, the live notice. */
function tableExtras() {
  const table = app.table;
  const info = app.game && app.game.table;
  if (!table || !info) return null;
  const playing = app.game.status === "playing";
  return {
    toMove: playing ? (app.game.your_turn ? SEAT_YOU : SEAT_CPU) : null,
    clock: playing && table.deadline !== null ? () => (table.deadline - performance.now()) / 1000 : null,
    timeouts: info.timeouts,
    max: info.max_timeouts,
    notice: table.notice ? t(table.notice) : null,
  };
}

/** The move clock, once a second: only its text changes, the table is not drawn again. */
function tickClock() {
  const table = app.table;
  if (!table || table.deadline === null) return;
  const left = (table.deadline - performance.now()) / 1000;
  for (const element of document.querySelectorAll("[data-clock]")) {
    element.textContent = clockText(left);
    element.classList.toggle("is-low", left <= 10);
  }
}

/** Start a table's session (its id): the clock's tick and the live connection. */
function openLive(id) {
  closeTable();
  const table = {
    id,
    socket: null,
    failures: 0,
    retryTimer: null,
    pollTimer: null,
    openTimer: null,
    clockTimer: setInterval(tickClock, 1000),
    deadline: null,
    notice: null, // a message key: the live connection is unavailable
    closed: false,
    own: null, // one's own move, shown before the server's answer
    sent: null, // one's move sent over the socket, until answered: {version, resolve, reject}
    chain: Promise.resolve(),
    summaryShown: false,
    showRematch: null,
  };
  app.table = table;
  connect(table);
  return table;
}

/** Leave the table's page: the socket closes, the timers stop. */
function closeTable() {
  const table = app.table;
  if (!table) return;
  table.closed = true;
  app.table = null;
  clearInterval(table.clockTimer);
  clearTimeout(table.retryTimer);
  clearTimeout(table.openTimer);
  stopPolling(table);
  if (table.socket) table.socket.close(1000);
  table.socket = null;
  setOpponent(null);
}

/** One's move over the table's open socket (cheaper and quicker than a request): the
 * answer is this seat's next update, or a refusal naming the version it was chosen in. */
function sendMove(table, action, version) {
  return new Promise((resolve, reject) => {
    table.sent = { version, resolve, reject };
    table.socket.send(JSON.stringify({ type: "move", action, version }));
  });
}

/** The move sent on the socket, now answered: taken off the table. */
function answered(table) {
  const sent = table.sent;
  table.sent = null;
  return sent;
}

/** Whether moves may go on the table's socket: it is open, and not given up on (one that
 * stayed silent has the notice, see fallBack). */
function socketOpen(table) {
  return table.socket !== null && table.notice === null && table.socket.readyState === WebSocket.OPEN;
}

function liveUrl(id) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tables/${encodeURIComponent(id)}/live`;
}

function connect(table) {
  if (table.closed) return;
  let socket;
  try {
    socket = new WebSocket(liveUrl(table.id));
  } catch {
    fallBack(table);
    return;
  }
  table.socket = socket;
  let heard = false;
  let openedAt = null;
  // A socket that says nothing for a while is as good as none: read the table meanwhile.
  table.openTimer = setTimeout(() => {
    if (!heard && table.socket === socket) fallBack(table);
  }, LIVE_OPEN_MS);
  socket.addEventListener("open", () => {
    openedAt = performance.now();
  });
  socket.addEventListener("message", (message) => {
    if (table.closed || table.socket !== socket) return;
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (data.type === "state") {
      heard = true;
      table.failures = 0;
      clearTimeout(table.openTimer);
      stopPolling(table);
      setNotice(table, null);
      receive(data.state, []); // after a reconnection: what is shown now
    } else if (data.type === "update") {
      receive(data.state, data.events || []);
      if (table.sent && data.state.version > table.sent.version) answered(table).resolve(data);
    } else if (data.type === "refused") {
      if (table.sent && data.version === table.sent.version) answered(table).reject(new ApiError(data.status, data.detail));
    } else if (data.type === "error") {
      table.refused = data.detail;
    }
  });
  socket.addEventListener("close", (event) => {
    if (table.closed || table.socket !== socket) return;
    table.socket = null;
    // A move sent and not answered: the table is read again (it may have been made).
    if (table.sent) answered(table).reject(new ApiError(0, "the live connection closed"));
    clearTimeout(table.openTimer);
    if (event.code === 4404) {
      tableGone("gone");
      return;
    }
    table.failures += 1;
    // Never opened, or closed at once: say so and read the table every few seconds.
    const brief = !heard || openedAt === null || performance.now() - openedAt < 3000;
    if (brief || event.code === 4403) fallBack(table);
    if (event.code === 4403) return; // not seated (the poll says what became of the table)
    const wait = Math.min(LIVE_RETRY_MAX_MS, 1000 * 2 ** Math.min(table.failures - 1, 5));
    table.retryTimer = setTimeout(() => connect(table), wait);
  });
}

function setNotice(table, key) {
  if (table.notice === key) return;
  table.notice = key;
  if (app.table === table && (app.screen === "lobby" || app.screen === "table")) render();
}

/** No live connection: a notice, and the table read again every few seconds. */
function fallBack(table) {
  if (table.closed) return;
  setNotice(table, "live.unavailable");
  if (table.pollTimer) return;
  const poll = async () => {
    let body;
    try {
      body = await api.table(table.id);
    } catch (error) {
      if (table.closed) return;
      if (error.status === 403) tableGone("full");
      else if (error.status === 404) tableGone("gone");
      return;
    }
    if (!table.closed && body.state) receive(body.state, []);
  };
  table.pollTimer = setInterval(poll, POLL_MS);
  poll();
}

function stopPolling(table) {
  clearInterval(table.pollTimer);
  table.pollTimer = null;
}

/** The table is gone or refuses this page: say so in the lobby. */
function tableGone(kind) {
  if (!app.table) return;
  closeTable();
  app.epoch += 1;
  closeAllModals();
  app.screen = "lobby";
  app.lobby = { kind };
  buildTools();
  render();
}

/** Run `task` after what the table is showing now, unless the table is left meanwhile. */
function enqueue(table, task) {
  const epoch = app.epoch;
  table.chain = table.chain
    .then(() => (epoch === app.epoch && app.table === table ? task() : null))
    .catch((error) => {
      if (!(error instanceof Abandoned)) console.error("koikoi:", error);
    });
  return table.chain;
}

/** A state of the table (and the events that led to it, from this seat's side). */
function receive(state, events) {
  const table = app.table;
  if (!table || !state || state.id !== table.id) return;
  if (app.game && app.game.id === state.id && state.version <= app.game.version) return;
  const before = app.game && app.game.id === state.id && app.game.table ? app.game.table.timeouts : null;
  if (!events.length && before && state.status === "playing") {
    // Read again without its events (a poll, a reconnection): a timeout the counts show
    // is still said, as the socket's event would have said it.
    events = [SEAT_YOU, SEAT_CPU].filter((seat) => state.table.timeouts[seat] > before[seat]).map((seat) => ({ type: "timeout", seat }));
  }
  app.game = state;
  const info = state.table;
  table.deadline = info.clock === null || info.clock === undefined ? null : performance.now() + info.clock * 1000;
  if (info.next) {
    location.hash = href.table(info.next); // the rematch: both go to the new table
    return;
  }
  if (app.screen === "lobby") {
    if (info.ending === "cancelled") tableGone("closed"); // closed elsewhere
    else if (state.status === "open") {
      app.lobby = { kind: "waiting", table: info };
      render();
    } else {
      startMatch(state, events);
    }
    return;
  }
  if (app.screen !== "table") return;
  setOpponent(info.players[1]);
  if (table.showRematch) table.showRematch(info);
  enqueue(table, async () => {
    const own = table.own;
    table.own = null;
    const first = events[0];
    const skip = own && first && first.type === own.type && first.seat === SEAT_YOU && first.card === own.card ? 1 : 0;
    app.ui.waiting = false;
    await runEvents(events, state, { skip });
  });
}

/** The match begins (or is taken up): the usual table, with the opponent's name. */
function startMatch(state, events) {
  const table = app.table;
  closeAllModals();
  setOpponent(state.table.players[1]);
  app.screen = "table";
  app.away = false;
  app.game = state;
  app.view = null;
  app.log = [];
  app.ui = freshUi();
  buildTools();
  enqueue(table, () => runEvents(events, state));
}

/** Open the table an address names: its lobby, its seat, or its match. */
async function openTableRoute(id) {
  if (app.table && app.table.id === id) return;
  app.epoch += 1;
  closeTable();
  closeAllModals();
  app.screen = "lobby";
  app.away = false;
  app.game = null;
  app.ui = freshUi();
  app.lobby = { kind: "loading" };
  buildTools();
  render();
  screen().focus({ preventScroll: true });
  const epoch = app.epoch;
  let body;
  try {
    body = await api.table(id);
  } catch (error) {
    if (epoch !== app.epoch) return;
    const kinds = { 403: "full", 410: "closed", 404: "gone", 422: "gone" };
    app.lobby = { kind: kinds[error.status] || "error" };
    render();
    return;
  }
  if (epoch !== app.epoch) return;
  if (!body.state) {
    app.lobby = { kind: "join", table: body.table };
    render();
    return;
  }
  seatAt(body.state);
}

/** Seated at a table (its state): its live connection, then its lobby or its match. */
function seatAt(state) {
  if (state.table.ending === "cancelled") {
    app.lobby = { kind: "closed" };
    render();
    return;
  }
  openLive(state.id);
  app.game = null;
  if (state.status === "open") {
    app.game = state;
    app.table.deadline = null;
    app.lobby = { kind: "waiting", table: state.table };
    render();
  } else {
    receive(state, []);
  }
}

/** The host closes the table nobody sat at yet, and goes back to the start screen. */
async function closeWaiting() {
  const { id } = app.lobby.table;
  try {
    await api.closeTable(id);
  } catch (error) {
    // Someone sat down meanwhile (409): the match comes over the live connection.
    toast(error.status === 409 ? "person.refused" : "error.network", { kind: "error", detail: error.detail });
    return;
  }
  app.tables = app.tables.filter((table) => table.id !== id);
  backToStart();
}

async function sitDown() {
  const info = app.lobby && app.lobby.table;
  if (!info) return;
  let body;
  try {
    body = await api.sit(info.id);
  } catch (error) {
    if (error.status === 409) app.lobby = { kind: "full" };
    else if (error.status === 403) toast("lobby.ranked_guest", { kind: "error" });
    else toast("error.network", { kind: "error" });
    render();
    return;
  }
  if (app.screen !== "lobby" || app.lobby.table !== info) return;
  seatAt(body.state);
}

/** Invite a friend: a table under the start screen's rules; its address is the invitation. */
async function inviteFriend(rules, ranked, moveSeconds) {
  let body;
  try {
    body = await api.openTable(rules, ranked, moveSeconds);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 422 || error.status === 403 || error.status === 409)) toast("person.refused", { kind: "error", detail: error.detail });
    else toast("error.network", { kind: "error" });
    return;
  }
  location.hash = href.table(body.state.id);
}

async function joinByCode(code) {
  let body;
  try {
    body = await api.findTable(code);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 422)) toast("person.no_code", { kind: "error", params: { code } });
    else if (error instanceof ApiError && error.status === 429) toast("person.code_wait", { kind: "error", params: { wait: waitText(error.retryAfter || 60) } });
    else toast("error.network", { kind: "error" });
    return;
  }
  location.hash = href.table(body.id);
}

/** A quick match: wait in the queue (asking every two seconds, which also pairs) until paired. */
async function quickMatch(preset) {
  if (app.queue) return;
  let body;
  try {
    body = await api.joinQueue(preset);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) toast("person.refused", { kind: "error", detail: error.detail });
    else toast("error.network", { kind: "error" });
    return;
  }
  if (body.status === "paired") {
    location.hash = href.table(body.table);
    return;
  }
  const queue = { timer: null, stopped: false, panel: null };
  app.queue = queue;
  const stop = () => {
    queue.stopped = true;
    clearTimeout(queue.timer);
    if (app.queue === queue) app.queue = null;
  };
  queue.panel = openQueuePanel({
    preset,
    onLeave: () => {
      stop();
      api.leaveQueue().catch(() => {});
    },
  });
  queue.panel.update(body.waited || 0);
  const poll = async () => {
    let answer = null;
    try {
      answer = await api.queue();
    } catch {
      // the next try
    }
    if (queue.stopped) return;
    if (answer && answer.status === "paired") {
      stop();
      queue.panel.close();
      location.hash = href.table(answer.table);
      return;
    }
    if (answer && answer.status === "none") {
      stop();
      queue.panel.close();
      toast("queue.lost", { kind: "error" });
      return;
    }
    if (answer && answer.status === "waiting") queue.panel.update(answer.waited);
    queue.timer = setTimeout(poll, QUEUE_POLL_MS);
  };
  queue.timer = setTimeout(poll, QUEUE_POLL_MS);
}

/** The end of a match between people: the summary, open while rematch offers come and go. */
function showTableSummary(state) {
  const table = app.table;
  if (!table || table.summaryShown) return;
  table.summaryShown = true;
  showMatchSummary({
    state,
    onNewGame: backToStart,
    rematch: {
      offer: () => offerRematch(table),
      bind: (show) => {
        table.showRematch = show;
      },
    },
  });
}

async function offerRematch(table) {
  let body;
  try {
    body = await api.tableRematch(table.id);
  } catch (error) {
    toast(error instanceof ApiError && error.status === 409 ? "person.refused" : "error.network", { kind: "error", detail: error.detail });
    if (table.showRematch && app.game) table.showRematch(app.game.table);
    return;
  }
  receive(body.state, []);
}

/** The card one's own action moves, to show before the server answers (null when the
 * answer alone can tell: a card that meets two on the field waits for a choice). */
function ownMove(action, state) {
  if (action.play) {
    const matches = matchesOf(action.play, app.view.field);
    return matches.length === 2 ? null : { type: "play", seat: SEAT_YOU, card: action.play, captured: matches };
  }
  if (action.capture) {
    return { type: state.phase === "hand-choice" ? "play" : "draw", seat: SEAT_YOU, card: state.pending, captured: [action.capture], fromPending: true };
  }
  return null;
}

/** One's own move at a table: shown at once, sent, and the answer shown (or the update
 * the socket brings first, whichever comes first). */
async function actAtTable(action) {
  const table = app.table;
  const state = app.game;
  const pre = ownMove(action, state);
  app.ui.selected = null;
  app.ui.busy = true;
  table.own = pre;
  const request = socketOpen(table) ? sendMove(table, action, state.version) : api.tableAct(state.id, action, state.version);
  request.catch(() => {}); // handled below
  enqueue(table, async () => {
    if (pre && table.own === pre) await moveCard(pre, { own: true });
    if (app.game.version === state.version) {
      app.ui.waiting = true;
      app.ui.status = null;
      render();
    }
  });
  let body;
  try {
    body = await request;
  } catch (error) {
    if (app.table !== table) return;
    enqueue(table, async () => {
      table.own = null;
      app.ui.waiting = false;
      app.ui.busy = false;
      if (error instanceof ApiError && error.status === 404) tableGone("gone");
      else await recover(error);
    });
    return;
  }
  if (app.table === table) receive(body.state, body.events);
}

// -- the coach (a practice match against the computer, played on the server) --------------

/** Whether the coach can help at this table: the computer's match, not ranked (a
 * practice match on this device, or a friendly one on the server). */
function coachable() {
  const state = app.game;
  return app.screen === "table" && !app.table && Boolean(state) && !state.ranked;
}

// The coach's answer for the state it was asked at: {id, version, loading, error, answer,
// shown (the hint was opened: its card is marked on the table), request}.
let coach = null;

const coachFresh = () => (coach && app.game && coach.id === app.game.id && coach.version === app.game.version ? coach : null);

/** What the table shows of the coach: the hint button, the card it picks, the risk meter. */
function coachShown() {
  if (!coachable()) return null;
  const state = app.game;
  const fresh = coachFresh();
  const turn = state.your_turn && !state.over && !app.ui.busy && !app.ui.waiting;
  return {
    canHint: turn && ["play", "hand-choice", "draw-choice"].includes(state.phase),
    pick: turn && fresh && fresh.shown && fresh.answer ? actionCard(fresh.answer.hint.best) : null,
    risk: turn && state.phase === "decision" ? fresh || { loading: true } : null,
  };
}

/** Ask the server's coach about the state as it is now (only on request: it costs). */
function askCoach() {
  const state = app.game;
  const entry = { id: state.id, version: state.version, loading: true, error: false, answer: null, shown: false };
  entry.request = api.hint(state.id).then(
    (answer) => {
      if (answer.version !== state.version) throw new ApiError(409, "the state moved on");
      entry.answer = answer;
      entry.loading = false;
      return answer;
    },
    (error) => {
      entry.loading = false;
      entry.error = true;
      throw error;
    },
  );
  entry.request.catch(() => {}); // whoever shows it says so
  coach = entry;
  return entry;
}

function redrawFor(entry) {
  if (coach === entry && app.screen === "table" && coachFresh() === entry) render();
}

/** At a stop-or-koi-koi decision: the risk meter's numbers, asked for once per decision. */
function askRisk() {
  const shown = app.ui.coach;
  if (!shown || !shown.risk || coachFresh()) return;
  const entry = askCoach();
  entry.request.then(() => redrawFor(entry), () => redrawFor(entry));
}

/** The hint: its panel at once, filled when the server answers; its card marked on the table. */
function showHint() {
  const shown = coachShown();
  if (!canAct() || !shown || !shown.canHint) return;
  const fresh = coachFresh();
  const entry = fresh && !fresh.error ? fresh : askCoach();
  openHint(entry.request, {
    onAnswer: () => {
      entry.shown = true;
      redrawFor(entry);
    },
    onSelect: (slug) => {
      if (!canAct()) return;
      const phase = app.game.phase;
      if (phase === "play" ? app.game.legal.some((action) => action.play === slug) : app.game.choices.includes(slug)) select(slug);
    },
    onClose: () => {
      const button = screen().querySelector("[data-testid=hint-button]");
      if (button) button.focus({ preventScroll: true }); // the table was drawn again meanwhile
    },
  });
}

// -- the player's moves --------------------------------------------------------------------

function canAct() {
  const state = app.game;
  return app.screen === "table" && state && state.your_turn && !state.over && !app.ui.busy && !app.ui.waiting && !modalOpen();
}

async function act(action) {
  if (!canAct()) return;
  if (app.table) {
    actAtTable(action);
    return;
  }
  const state = app.game;
  const pre = ownMove(action, state);
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
  if (app.table && error instanceof ApiError && error.status === 404) {
    tableGone("gone");
    return;
  }
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
    const body = await (app.table ? api.table(app.game.id) : api.game(app.game.id));
    if (body.state && body.state.version >= app.game.version) app.game = body.state;
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
  onHint: showHint,
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
  } else if (event.key === "h" || event.key === "H") {
    showHint();
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
  [app.games, app.tables] = await Promise.all([loadGames(), loadTables()]);
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
