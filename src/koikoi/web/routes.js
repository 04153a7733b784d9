// The pages' addresses, kept in the URL's hash so links, reloads and the back button
// work: #/leaderboard?difficulty=…&rules=…&sort=…, #/player/<name>, #/replay/<id>.
// Any other address is the game (the start screen or the table).

export const LEADERBOARD_CHOICES = {
  difficulty: ["all", "easy", "normal", "expert"],
  rules: ["all", "classic", "ten-card", "single-deal", "traditional", "house"],
  sort: ["points", "wins", "best", "win_rate"],
};

/** The leaderboard's filters from an address: known values only, the first by default. */
function leaderboardQuery(search) {
  const params = new URLSearchParams(search);
  const query = {};
  for (const [key, values] of Object.entries(LEADERBOARD_CHOICES)) {
    query[key] = values.includes(params.get(key)) ? params.get(key) : values[0];
  }
  return query;
}

export const href = {
  game: "#/",
  leaderboard: (query) => (query ? `#/leaderboard?${new URLSearchParams(query)}` : "#/leaderboard"),
  player: (name) => `#/player/${encodeURIComponent(name)}`,
  replay: (id) => `#/replay/${encodeURIComponent(id)}`,
};

/** The page an address asks for ({page, query} or {page, arg}); null for the game. */
export function parseRoute(hash) {
  const [path, search = ""] = hash.replace(/^#\/?/, "").split("?");
  const [page, ...rest] = path.split("/");
  if (page === "leaderboard") return { page, query: leaderboardQuery(search) };
  if (page !== "player" && page !== "replay") return null;
  try {
    const arg = decodeURIComponent(rest.join("/"));
    return arg ? { page, arg } : null;
  } catch {
    return null; // a malformed address: the game
  }
}
