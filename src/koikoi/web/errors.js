// The errors the page's parts throw to one another: a request the server (or the
// practice worker) refused or never answered, and a game flow whose table was left.

export class ApiError extends Error {
  constructor(status, detail, retryAfter = null) {
    super(detail || `HTTP ${status}`);
    this.status = status; // 0: the server could not be reached
    this.detail = detail;
    this.retryAfter = retryAfter; // seconds, when the server asked to wait (429)
  }
}

/** A game flow stopped: its table was left (menu, new game) while it waited. */
export class Abandoned extends Error {}
