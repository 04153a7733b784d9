// The game server's JSON API. The server is authoritative: the browser only sends
// intentions with the state version they answer.
//
// Practice matches are played on this device (practice.js, engine/worker.js), which
// answers with the same JSON: newGame sends a match there unless it is ranked, and
// every call naming a practice match's id goes there, so the table has one code path.
//
// Every answer about the session ({user, csrf}) renews the CSRF token, which every
// request that changes something sends back as X-CSRF-Token. A refused or unanswered
// call throws errors.js's ApiError.

import { ApiError } from "./errors.js";
import { isPractice, practice } from "./practice.js";

let csrf = null;
let sessionListener = () => {};

/** Call `listener(session)` with every session answer ({user, csrf}) the server gives. */
export function onSession(listener) {
  sessionListener = listener;
}

async function request(method, url, body, { retried = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && csrf) headers["x-csrf-token"] = csrf;
  let response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, String(error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 403 && method !== "GET" && !retried) {
    // The session changed elsewhere (signed out in another tab, the password changed):
    // take the session as it is now, then try once more with its token.
    await request("GET", "/api/session");
    return request(method, url, body, { retried: true });
  }
  if (!response.ok) {
    const detail = data && data.detail !== undefined ? data.detail : response.statusText;
    const wait = Number(response.headers.get("retry-after"));
    throw new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail), wait > 0 ? wait : null);
  }
  if (data && typeof data.csrf === "string") {
    csrf = data.csrf;
    sessionListener(data);
  }
  return data;
}

const path = (part) => encodeURIComponent(part);

/** The server's matches in progress and this device's practice ones, newest first. */
async function games() {
  const local = await practice.games();
  let remote = [];
  try {
    remote = (await request("GET", "/api/games")).games;
  } catch (error) {
    if (!local.length) throw error;
  }
  const all = [...remote, ...local];
  all.sort((a, b) => (String(a.updated || "") < String(b.updated || "") ? 1 : -1));
  return { games: all };
}

export const api = {
  languages: () => request("GET", "/api/i18n"),
  catalog: (code) => request("GET", `/api/i18n/${path(code)}`),
  rules: () => request("GET", "/api/rules"),
  cards: () => request("GET", "/api/cards"),
  session: () => request("GET", "/api/session"),
  signIn: (name, password) => request("POST", "/api/session", { name, password }),
  signUp: (name, password) => request("POST", "/api/account", { name, password }),
  signOut: () => request("DELETE", "/api/session"),
  changePassword: (current, next) => request("POST", "/api/account/password", { current, new: next }),
  deleteAccount: (password) => request("DELETE", "/api/account", { password }),
  games,
  practiceGames: () => practice.games(),
  /** Save a finished practice match's record to the signed-in player's history. */
  savePractice: (body) => request("POST", "/api/games/practice", body),
  // Only a ranked match is dealt by the server; any other is practice, on this device.
  newGame: (difficulty, rules, ranked) =>
    ranked === true ? request("POST", "/api/games", { difficulty, rules, ranked }) : practice.newGame(difficulty, rules),
  game: (id) => (isPractice(id) ? practice.game(id) : request("GET", `/api/games/${path(id)}`)),
  act: (id, action, version) =>
    isPractice(id) ? practice.act(id, action, version) : request("POST", `/api/games/${path(id)}/actions`, { action, version }),
  resign: (id) => (isPractice(id) ? practice.resign(id) : request("POST", `/api/games/${path(id)}/resign`)),
  replay: (id) => (isPractice(id) ? practice.replay(id) : request("GET", `/api/games/${path(id)}/replay`)),
  // The coach: a hint (an unranked match, the player's turn) and a finished match's
  // review (the first may take a few seconds), from the device for a practice match.
  hint: (id) => (isPractice(id) ? practice.hint(id) : request("GET", `/api/games/${path(id)}/hint`)),
  review: (id) => (isPractice(id) ? practice.review(id) : request("GET", `/api/games/${path(id)}/review`)),
  // Tables between two people (never practice: the server deals and keeps the clock).
  openTable: (rules, ranked, moveSeconds) => request("POST", "/api/tables", { rules, ranked, ...(moveSeconds ? { move_seconds: moveSeconds } : {}) }),
  findTable: (code) => request("GET", `/api/tables/code/${path(code)}`),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${path(id)}`),
  closeTable: (id) => request("DELETE", `/api/tables/${path(id)}`),
  tableReplay: (id) => request("GET", `/api/tables/${path(id)}/replay`),
  /** The coach's review of one seat's play (0 opened the table) in a finished match. */
  tableReview: (id, seat) => request("GET", `/api/tables/${path(id)}/review?seat=${Number(seat)}`),
  sit: (id) => request("POST", `/api/tables/${path(id)}/seat`),
  tableAct: (id, action, version) => request("POST", `/api/tables/${path(id)}/actions`, { action, version }),
  tableResign: (id) => request("POST", `/api/tables/${path(id)}/resign`),
  tableRematch: (id) => request("POST", `/api/tables/${path(id)}/rematch`),
  joinQueue: (preset) => request("POST", "/api/queue", { preset }),
  queue: () => request("GET", "/api/queue"),
  leaveQueue: () => request("DELETE", "/api/queue"),
  leaderboard: (query) => request("GET", `/api/leaderboard?${new URLSearchParams(query)}`),
  player: (name) => request("GET", `/api/players/${path(name)}`),
};
