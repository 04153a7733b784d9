// The pages' addresses, kept in the URL's hash so links, reloads and the back button
// work: #/leaderboard?rules=…&sort=…&difficulty=…&offset=…, #/player/<name>,
// #/replay/[table/]<id>[/<step>] (a match against the computer or, after table/, between
// people; the step counted from 1, the first has no number),
// #/review/<id> (the coach's review of a finished match against the computer),
// #/review/table/<id>/<seat> (one player's play in a match between people: seat 0
// opened the table),
// #/table/<id> (a table between two people: its waiting screen, its seat, its match).
// Any other address is the game (the start screen or the table).

/** The leaderboard's choices besides its rule set (a ranked preset, which the server lists). */
export const LEADERBOARD_CHOICES = {
  sort: ["rating", "points", "wins", "best", "win_rate"],
  difficulty: ["all", "easy", "normal", "expert"],
};

/**
 * The leaderboard's filters from an address: known values only, the first by default
 * (`presets`: the boards there are; the server lists classic, its default, first),
 * and the offset of the page of rows.
 */
function leaderboardQuery(search, presets) {
  const params = new URLSearchParams(search);
  const query = { rules: presets.includes(params.get("rules")) ? params.get("rules") : presets[0] };
  for (const [key, values] of Object.entries(LEADERBOARD_CHOICES)) {
    query[key] = values.includes(params.get(key)) ? params.get(key) : values[0];
  }
  const offset = Number(params.get("offset"));
  query.offset = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
  return query;
}

export const href = {
  game: "#/",
  leaderboard: (query) => {
    if (!query) return "#/leaderboard";
    const { offset, ...filters } = query; // the first page's address has no offset
    return `#/leaderboard?${new URLSearchParams(offset ? query : filters)}`;
  },
  player: (name) => `#/player/${encodeURIComponent(name)}`,
  table: (id) => `#/table/${encodeURIComponent(id)}`,
  /** A review: a match against the computer's, or with a seat (0, 1) one player's at a table. */
  review: (id, seat = null) => (seat === null ? `#/review/${encodeURIComponent(id)}` : `#/review/table/${encodeURIComponent(id)}/${seat}`),
  replay: (id, step = 0, table = false) => `#/replay/${table ? "table/" : ""}${encodeURIComponent(id)}${step > 0 ? `/${step + 1}` : ""}`,
};

/** A table's id as the server gives them. */
const TABLE_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The page an address asks for ({page, query} or {page, arg}, a replay's {step} too,
 * {table: true} at a table between people, a table review's {seat}); null for the game.
 * `presets`: the rule sets that have a leaderboard. */
export function parseRoute(hash, presets) {
  const [path, search = ""] = hash.replace(/^#\/?/, "").split("?");
  const [page, ...rest] = path.split("/");
  if (page === "leaderboard") return { page, query: leaderboardQuery(search, presets) };
  if (page === "table") return TABLE_ID.test(rest.join("/")) ? { page, arg: rest.join("/") } : null;
  if (page !== "player" && page !== "replay" && page !== "review") return null;
  if (page === "replay" && rest[0] === "table" && rest.length > 1) {
    const route = parseRoute(`#/replay/${rest.slice(1).join("/")}`, presets);
    return route && { ...route, table: true };
  }
  if (page === "review" && rest[0] === "table" && rest.length > 1) {
    const ok = rest.length === 3 && TABLE_ID.test(rest[1]) && /^[01]$/.test(rest[2]);
    return ok ? { page, arg: rest[1], table: true, seat: Number(rest[2]) } : null;
  }
  if (page === "replay" && rest.length === 2 && /^[1-9][0-9]{0,5}$/.test(rest[1])) {
    const route = parseRoute(`#/replay/${rest[0]}`, presets);
    return route && { ...route, step: Number(rest[1]) - 1 };
  }
  try {
    const arg = decodeURIComponent(rest.join("/"));
    return arg ? { page, arg } : null;
  } catch {
    return null; // a malformed address: the game
  }
}
