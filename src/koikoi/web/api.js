// The game server's JSON API. The server is authoritative: the browser only sends
// intentions with the state version they answer.
//
// Every answer about the session ({user, csrf}) renews the CSRF token, which every
// request that changes something sends back as X-CSRF-Token.

export class ApiError extends Error {
  constructor(status, detail, retryAfter = null) {
    super(detail || `HTTP ${status}`);
    this.status = status; // 0: the server could not be reached
    this.detail = detail;
    this.retryAfter = retryAfter; // seconds, when the server asked to wait (429)
  }
}

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
  games: () => request("GET", "/api/games"),
  newGame: (difficulty, rules, ranked) => request("POST", "/api/games", { difficulty, rules, ranked }),
  game: (id) => request("GET", `/api/games/${path(id)}`),
  act: (id, action, version) => request("POST", `/api/games/${path(id)}/actions`, { action, version }),
  resign: (id) => request("POST", `/api/games/${path(id)}/resign`),
  replay: (id) => request("GET", `/api/games/${path(id)}/replay`),
  leaderboard: (query) => request("GET", `/api/leaderboard?${new URLSearchParams(query)}`),
  player: (name) => request("GET", `/api/players/${path(name)}`),
};
