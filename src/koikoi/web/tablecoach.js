// The coach at the table (a match against the computer that is not ranked: practice on
// this device, or a friendly one on the server): the hint button and the card it picks,
// and the risk meter at a stop-or-koi-koi decision, each asked for only when wanted
// (coach.js draws them).

import { api } from "./api.js";
import { app, render, screen } from "./appstate.js";
import { actionCard, openHint } from "./coach.js";
import { ApiError } from "./errors.js";
import { canAct, select } from "./moves.js";

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
export function coachShown() {
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
export function askRisk() {
  const shown = app.ui.coach;
  if (!shown || !shown.risk || coachFresh()) return;
  const entry = askCoach();
  entry.request.then(() => redrawFor(entry), () => redrawFor(entry));
}

/** The hint: its panel at once, filled when the server answers; its card marked on the table. */
export function showHint() {
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
