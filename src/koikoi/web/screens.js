// The page's screens and the routes between them: the header's tools, the start screen,
// the table (its buttons and keys), a table between people's lobby, and the pages (the
// leaderboard, a profile, a replay, a review) an address names.

import { boardPresets, currentUser, openSignIn, renderAccountSlot } from "./account.js";
import { api } from "./api.js";
import { GAME_KEY, app, freshUi, screen, setBusyFlag } from "./appstate.js";
import { matchesOf } from "./cards.js";
import { renderReview } from "./coach.js";
import { clear, closeAllModals, confirmDialog, h, icon, modalOpen, openModal, retranslateToast, toast } from "./dom.js";
import { ApiError } from "./errors.js";
import { enterTable, resumeGame, runEvents, startGame, syncPractice } from "./gameflow.js";
import { openHelp } from "./help.js";
import { isolate, loadLanguage, t } from "./i18n.js";
import { act, canAct, recover, select } from "./moves.js";
import { renderLeaderboard, renderPageStatus, renderProfile } from "./pages.js";
import { renderLobby } from "./person.js";
import { closeTable, closeWaiting, inviteFriend, joinByCode, openTableRoute, quickMatch, receive, sitDown, tableExtras } from "./persontable.js";
import { renderReplay } from "./replay.js";
import { href, parseRoute } from "./routes.js";
import { PACES, pace, save } from "./settings.js";
import { openSettings } from "./settingsdialog.js";
import { renderStart, startRules } from "./start.js";
import { logList, renderTable } from "./table.js";
import { askRisk, coachShown, showHint } from "./tablecoach.js";

const SETUP_KEY = "koikoi.setup";

// -- the header -----------------------------------------------------------------------

export function buildTools() {
  const tools = clear(document.getElementById("tools"));
  if (app.screen === "table") {
    tools.append(
      h("button", { type: "button", class: "icon-btn", "data-testid": "menu-button", "aria-label": t("ui.table_menu"), title: t("ui.table_menu"), onclick: openTableMenu }, icon("menu")),
    );
  }
  const chooser = h(
    "select",
    { class: "lang-select", "data-testid": "language-select", "aria-label": t("ui.language"), title: t("ui.language") },
    app.languages.map((lang) => h("option", { value: lang.code, lang: lang.code, dir: lang.dir, selected: lang.code === document.documentElement.lang }, lang.name)),
  );
  chooser.addEventListener("change", () => changeLanguage(chooser.value));
  tools.append(
    h("label", { class: "lang-wrap" }, icon("globe"), chooser),
    h("button", { type: "button", class: "icon-btn", "data-testid": "help-button", "aria-label": t("ui.help"), title: t("ui.help"), onclick: () => showHelp() }, icon("help")),
    h("button", { type: "button", class: "icon-btn", "data-testid": "settings-button", "aria-label": t("ui.settings"), title: t("ui.settings"), onclick: () => openSettings({ onChange: render }) }, icon("settings")),
  );
  renderAccountSlot(document.getElementById("account-slot"));
}

/** Signed in, out, or the points changed: the header, and whatever shows the account. */
export function accountChanged() {
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

export function render() {
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
export function backToStart() {
  showStart();
  refreshGames();
}

/** The matches in progress: the account's (from any device) and this device's practice ones. */
export async function loadGames() {
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

export const loadTables = () => api.tables().then((body) => body.tables, () => []);

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
export function route() {
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

// -- the table's buttons and keys ---------------------------------------------------------

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
    // Towards faster first (PACES runs from instant to slow): normal, fast, instant, then
    // round to slow; someone who taps it wants the table quicker.
    const index = Math.max(0, PACES.indexOf(pace()));
    save({ pace: PACES[(index + PACES.length - 1) % PACES.length] });
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
