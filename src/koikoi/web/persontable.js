// Tables between two people, as played: inviting a friend, a table's code, the quick
// match's queue, sitting down, the live connection, the clock, the rematch and the
// summary (person.js draws the lobby and the queue; the match is the usual table).
//
// One table page holds one live connection: a WebSocket whose first message is the
// whole state and every later one a change (the opponent's moves, the clock's, a
// rematch offer). Every state, whichever way it comes (the socket, the answer to one's
// own move, a poll), goes through receive(): only a newer version is taken, and its
// events are shown one batch after another, as the computer game shows its answers.

import { api } from "./api.js";
import { app, backToStart, buildTools, freshUi, render, screen } from "./appstate.js";
import { closeAllModals, toast } from "./dom.js";
import { Abandoned, ApiError } from "./errors.js";
import { runEvents } from "./gameflow.js";
import { t, waitText } from "./i18n.js";
import { openQueuePanel } from "./person.js";
import { href } from "./routes.js";
import { showMatchSummary } from "./summary.js";
import { SEAT_CPU, SEAT_YOU, clockText, setOpponent } from "./table.js";

/** A table between people: how often a page without its WebSocket reads the table
 * again, how long the socket may take to say anything before that starts, and the
 * longest wait before trying the socket again after a drop. */
const POLL_MS = 3000;
const LIVE_OPEN_MS = 5000;
const LIVE_RETRY_MAX_MS = 30000;
const QUEUE_POLL_MS = 2000;

/** What the table view adds at a person's table: the clock, timeouts, the live notice. */
export function tableExtras() {
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
export function closeTable() {
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
export function sendMove(table, action, version) {
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
export function socketOpen(table) {
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
export function tableGone(kind) {
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
export function enqueue(table, task) {
  const epoch = app.epoch;
  table.chain = table.chain
    .then(() => (epoch === app.epoch && app.table === table ? task() : null))
    .catch((error) => {
      if (!(error instanceof Abandoned)) console.error("koikoi:", error);
    });
  return table.chain;
}

/** A state of the table (and the events that led to it, from this seat's side). */
export function receive(state, events) {
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
export async function openTableRoute(id) {
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
export async function closeWaiting() {
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

export async function sitDown() {
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
export async function inviteFriend(rules, ranked, moveSeconds) {
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

export async function joinByCode(code) {
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
export async function quickMatch(preset) {
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
export function showTableSummary(state) {
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
