// What the page's parts share: the app's state (the screen shown, the match and the
// table as shown, the table between people, the page), a few helpers on it, and the
// calls that go up the modules' order.
//
// The parts import one another one way only: app.js (boot) > screens.js > tablecoach.js
// > moves.js > persontable.js > gameflow.js > appstate.js. A few calls go the other way,
// to what screens.js and persontable.js define (draw the screen, the header, back to the
// start screen, the summary of a match between people): app.js hands those in
// (hookUp) before the page boots, and the parts below call them from here.

/** The localStorage key of the match last started here (a guest resumes it). */
export const GAME_KEY = "koikoi.game";

export const app = {
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

export const screen = () => document.getElementById("screen");

export const freshUi = () => ({ selected: null, busy: false, waiting: false, status: null, banner: null });

export function setBusyFlag() {
  document.body.dataset.busy = app.ui.busy || app.ui.waiting ? "true" : "false";
}

// -- calls up the modules' order ---------------------------------------------------------

const above = {
  render: null,
  buildTools: null,
  backToStart: null,
  showTableSummary: null,
};

/** Hand in the functions the calls below go to (app.js, once, before the page boots). */
export function hookUp(parts) {
  for (const key of Object.keys(above)) {
    if (typeof parts[key] !== "function") throw new Error(`koikoi: hookUp needs ${key}`);
    above[key] = parts[key];
  }
}

/** Draw the screen shown (screens.js). */
export const render = () => above.render();
/** The header's tools for the screen shown (screens.js). */
export const buildTools = () => above.buildTools();
/** Back to the start screen, with the matches in progress as they are now (screens.js). */
export const backToStart = () => above.backToStart();
/** The end of a match between people: its summary (persontable.js). */
export const showTableSummary = (state) => above.showTableSummary(state);
