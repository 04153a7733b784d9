// Practice matches, played on this device: the page's side of engine/worker.js.
//
// api.js sends every call about a practice match here (its id starts with "practice."),
// and the worker answers with the server API's own JSON, so the table never knows
// where a match is played. The record of each match (rules, seed, actions, difficulty)
// is stored in localStorage after every move and replayed by the worker for every
// request, so a reload or a closed tab loses nothing.
//
// A match that ends while a player is signed in here is theirs (`owner`): once online,
// gameflow.js sends its record to the server's history (POST /api/games/practice), which
// replays it, and marks it `saved` (the server's game id) so it is never sent twice.

import { ApiError } from "./errors.js";

export const PREFIX = "practice.";
const STORE_KEY = "koikoi.practice";
const PLAYER_KEY = "koikoi.practice.player";
const KEEP_FINISHED = 20; // finished matches kept for their replays

let worker = null;
let asked = 0;
const waiting = new Map();
let memory = {}; // where localStorage is refused (private mode)
let player = null; // who the server last said is signed in here (also kept for offline starts)

/** Remember who is signed in (null: a guest), from every session answer. Offline, the
 * page starts as a guest's, but the browser's session is still the last one seen. */
export function rememberPlayer(name) {
  player = name;
  try {
    if (name) localStorage.setItem(PLAYER_KEY, name);
    else localStorage.removeItem(PLAYER_KEY);
  } catch {
    // private mode
  }
}

function lastPlayer() {
  if (player) return player;
  try {
    return localStorage.getItem(PLAYER_KEY);
  } catch {
    return null;
  }
}

export function isPractice(id) {
  return typeof id === "string" && id.startsWith(PREFIX);
}

function load() {
  try {
    const text = localStorage.getItem(STORE_KEY);
    const data = text ? JSON.parse(text) : {};
    return data && typeof data === "object" ? data : {};
  } catch {
    return memory;
  }
}

function store(matches) {
  memory = matches;
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(matches));
  } catch {
    // private mode, or full: the match lives while the page does
  }
}

/** Whether a finished match still waits to be sent to its owner's history. */
const awaitingSave = (entry) => entry.over && entry.owner && !entry.saved && !entry.refused;

/** Keep a match's record (with when it last moved and whether it is over); a match
 * that ends now belongs to whoever is signed in here. */
function keep(record, over) {
  const matches = load();
  const before = matches[record.id] || {};
  const owner = before.owner || (over ? lastPlayer() || null : null);
  matches[record.id] = { ...record, over, owner, updated: new Date().toISOString() };
  // Matches still to be saved are kept however many there are.
  const finished = Object.values(matches)
    .filter((entry) => entry.over && !awaitingSave(entry))
    .sort((a, b) => (a.updated < b.updated ? 1 : -1));
  for (const entry of finished.slice(KEEP_FINISHED)) delete matches[entry.id];
  store(matches);
}

function theWorker() {
  if (worker) return worker;
  worker = new Worker(new URL("./engine/worker.js", import.meta.url), { type: "module" });
  worker.addEventListener("message", (event) => {
    const answer = event.data;
    const pending = waiting.get(answer.key);
    if (!pending) return;
    waiting.delete(answer.key);
    if (answer.error) pending.reject(new ApiError(answer.error.status, answer.error.detail));
    else pending.resolve(answer);
  });
  worker.addEventListener("error", (event) => {
    for (const pending of waiting.values()) pending.reject(new ApiError(500, event.message || "the practice worker failed"));
    waiting.clear();
    worker = null;
  });
  return worker;
}

function ask(message) {
  asked += 1;
  const key = asked;
  return new Promise((resolve, reject) => {
    waiting.set(key, { resolve, reject });
    theWorker().postMessage({ key, ...message });
  });
}

function recordOf(id) {
  const entry = load()[id];
  if (!entry) throw new ApiError(404, `no practice match ${id} on this device`);
  const { over, updated, owner, saved, refused, ...record } = entry;
  return record;
}

/** Ask the worker; store the record it answers with (a move made, a match begun). */
async function run(message) {
  const answer = await ask(message);
  if (answer.record) keep(answer.record, Boolean(answer.body.state && answer.body.state.over));
  return answer.body;
}

function newId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return PREFIX + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Mark a finished match as sent: `saved` the server's game id, or `refused` its reason. */
function mark(id, change) {
  const matches = load();
  if (!matches[id]) return;
  matches[id] = { ...matches[id], ...change };
  store(matches);
}

export const practice = {
  /** Finished matches of `name`'s still to be saved, oldest first: [{id, body}]. */
  unsaved: (name) =>
    Object.values(load())
      .filter((entry) => awaitingSave(entry) && entry.owner === name)
      .sort((a, b) => (a.updated < b.updated ? -1 : 1))
      .map((entry) => ({
        id: entry.id,
        body: { rules: entry.rules, seed: entry.seed, actions: entry.actions, difficulty: entry.difficulty, resigned: Boolean(entry.resigned) },
      })),
  /** Where a match stands with the server's history: "saved", "pending", "refused", or null (a guest's). */
  saveState: (id) => {
    const entry = load()[id];
    if (!entry || !entry.over || !entry.owner) return null;
    return entry.saved ? "saved" : entry.refused ? "refused" : "pending";
  },
  markSaved: (id, gameId) => mark(id, { saved: gameId }),
  markRefused: (id, detail) => mark(id, { refused: String(detail || "refused") }),
  newGame: (difficulty, rules) => run({ op: "create", id: newId(), difficulty, rules }),
  game: async (id) => run({ op: "state", record: recordOf(id) }),
  act: async (id, action, version) => run({ op: "act", record: recordOf(id), action, version }),
  resign: async (id) => run({ op: "resign", record: recordOf(id) }),
  replay: async (id) => run({ op: "replay", record: recordOf(id) }),
  // The coach, on the device as on the server (engine/coach.js).
  hint: async (id) => run({ op: "hint", record: recordOf(id) }),
  review: async (id) => run({ op: "review", record: recordOf(id) }),
  /** The practice matches in progress on this device, newest first (summary_json lines). */
  games: async () => {
    const open = Object.values(load()).filter((entry) => !entry.over).sort((a, b) => (a.updated < b.updated ? 1 : -1));
    const lines = [];
    for (const entry of open) {
      try {
        lines.push(await run({ op: "summary", record: recordOf(entry.id), updated: entry.updated }));
      } catch {
        // a record this engine cannot replay is left out
      }
    }
    return lines;
  },
};
