// The player's moves: whether the player may move now, the card picked, and a move:
// shown at once, sent (to the server, the practice worker, or a person's table) and the
// answer shown; a refused or failed one says why and shows the state as the server has it.

import { api } from "./api.js";
import { GAME_KEY, app, backToStart, render, screen } from "./appstate.js";
import { cardName, matchesOf } from "./cards.js";
import { announce, modalOpen, toast } from "./dom.js";
import { Abandoned, ApiError } from "./errors.js";
import { moveCard, runEvents, viewFromState } from "./gameflow.js";
import { plural, t } from "./i18n.js";
import { enqueue, receive, sendMove, socketOpen, tableGone } from "./persontable.js";
import { SEAT_YOU, updateChoice } from "./table.js";

export function canAct() {
  const state = app.game;
  return app.screen === "table" && state && state.your_turn && !state.over && !app.ui.busy && !app.ui.waiting && !modalOpen();
}

export async function act(action) {
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

export async function recover(error) {
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

export function select(slug) {
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
