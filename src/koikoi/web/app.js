// koikoi in the browser: the module the page loads. It boots the game (the session,
// the languages, rules and cards, the matches in progress, then the screen the address
// names) and ties the parts together: screens.js (the header, screens, pages and
// routes), tablecoach.js (the coach at the table), moves.js (the player's moves),
// persontable.js (tables between people), gameflow.js (a match's events, one by one)
// and appstate.js (what they share). The server decides every move; the browser shows
// its events one by one, then the state it answered with.

import { onAccountChange } from "./account.js";
import { api } from "./api.js";
import { app, hookUp } from "./appstate.js";
import { installLongPress, setCards } from "./cards.js";
import { syncPractice } from "./gameflow.js";
import { loadLanguage } from "./i18n.js";
import { showTableSummary } from "./persontable.js";
import { accountChanged, backToStart, buildTools, loadGames, loadTables, render, route } from "./screens.js";
import { apply as applySettings, delay, pace, save, setDelay, settings, urlLang } from "./settings.js";

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

// The calls that go up the modules' order (appstate.js), to where they are defined.
hookUp({ render, buildTools, backToStart, showTableSummary });

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
