// The game server's JSON API. The server is authoritative: the browser only sends
// intentions with the state version they answer.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail || `HTTP ${status}`);
    this.status = status; // 0: the server could not be reached
    this.detail = detail;
  }
}

async function request(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
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
  if (!response.ok) {
    const detail = data && data.detail !== undefined ? data.detail : response.statusText;
    throw new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail));
  }
  return data;
}

export const api = {
  languages: () => request("GET", "/api/i18n"),
  catalog: (code) => request("GET", `/api/i18n/${encodeURIComponent(code)}`),
  rules: () => request("GET", "/api/rules"),
  cards: () => request("GET", "/api/cards"),
  newGame: (difficulty, rules) => request("POST", "/api/games", { difficulty, rules }),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  act: (id, action, version) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/actions`, { action, version }),
};
