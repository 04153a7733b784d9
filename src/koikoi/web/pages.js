// The public pages: the leaderboard and a player's profile (with the account's own
// settings when it is yours). Each draws what the server answered; screens.js fetches.

import { boardPresets, earnsPoints, openChangePassword, openDeleteAccount, rankingPoints, signOut } from "./account.js";
import { h, icon, svg } from "./dom.js";
import { date, isolate, num, percent, plural, ratingText, t } from "./i18n.js";
import { sortYaku } from "./rulesinfo.js";
import { LEADERBOARD_CHOICES, href } from "./routes.js";

const LEVELS = ["easy", "normal", "expert"];
const OPPONENTS = ["computer", "person", "practice"];

export const levelName = (level) => t(`difficulty.${level}`);
export const rulesName = (name) => t(`rule.preset.${name}`);
const rate = (share) => (share === null || share === undefined ? "–" : percent(share));

function pageHead(title, ...below) {
  return h("header", { class: "page-head" }, h("h1", { class: "page-title", "data-testid": "page-title" }, title), below);
}

/** While a page loads, or when it cannot: a line saying so (and a way back). */
export function renderPageStatus(container, { error = null, missing = "", loading = "" } = {}) {
  let text = loading || t("page.loading");
  if (error) text = (error.status === 404 || error.status === 409) && missing ? missing : t("error.network");
  container.replaceChildren(
    h("div", { class: "page", "data-testid": "page-status", "aria-busy": error ? null : "true" },
      h("p", { class: error ? "page-note is-error" : "page-note" }, text),
      error ? h("a", { class: "link-btn", href: href.game }, t("ui.menu")) : null),
  );
}

/** A table of numbers: the first column heads its row; `sorted` marks a column;
 * `foot`: rows set apart below the others. */
function statsTable({ caption, columns, rows, foot = [], sorted = null, testid }) {
  return h("div", { class: "stats-scroll" },
    h("table", { class: "stats-table", "data-testid": testid },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, columns.map(([key, label]) =>
        h("th", { scope: "col", class: key === "name" || key === "level" || key === "opponent" ? "text" : null, "data-col": key, "aria-sort": key === sorted ? "descending" : null }, label)))),
      h("tbody", {}, rows),
      foot.length ? h("tfoot", {}, foot) : null));
}

// -- the leaderboard -----------------------------------------------------------------------

const FILTER_LABELS = { rules: "leaderboard.filter.rules", sort: "leaderboard.filter.sort", difficulty: "leaderboard.filter.level" };

function choiceName(key, value) {
  if (key === "rules") return rulesName(value);
  if (key === "difficulty") return value === "all" ? t("leaderboard.all.difficulty") : levelName(value);
  return t(`leaderboard.sort.${value}`);
}

/** A rating, marked while it is provisional (still settling: the board lists it by rating later). */
function ratingCell(row, strong) {
  if (row.rating === null) return h("td", {}, "–");
  return h("td", { class: strong ? "strong" : null },
    ratingText(row.rating),
    row.settled ? null : h("abbr", { class: "provisional-mark", title: t("rating.provisional") }, t("rating.provisional_mark")));
}

function boardRow(row, { user, sort, testid }) {
  const you = Boolean(user && user.name === row.name);
  const cell = (key, text) => h("td", { class: key === sort ? "strong" : null, "data-col": key }, text);
  return h("tr", { class: you ? "is-you" : null, "data-testid": testid },
    h("td", { "data-testid": "leaderboard-rank" }, num(row.rank)),
    h("th", { scope: "row", class: "text" }, h("a", { href: href.player(row.name), "data-testid": "player-link" }, h("bdi", {}, row.name))),
    ratingCell(row, sort === "rating"),
    cell("points", num(row.points)),
    cell("wins", num(row.wins)),
    cell("matches", num(row.matches)),
    cell("best", row.best === null ? "–" : num(row.best)),
    cell("win_rate", rate(row.win_rate)));
}

/** Earlier and later pages of the board. The server gives no total: a full page may have more after it. */
function pager(board, query) {
  const earlier = board.offset > 0 ? Math.max(0, board.offset - board.page_size) : null;
  const later = board.more ? board.offset + board.page_size : null;
  if (earlier === null && later === null) return null;
  return h("nav", { class: "pager", "aria-label": t("leaderboard.pages") },
    earlier === null ? null : h("a", { class: "btn pager-prev", rel: "prev", href: href.leaderboard({ ...query, offset: earlier }), "data-testid": "leaderboard-prev" },
      icon("prev"), t("leaderboard.prev")),
    board.rows.length
      ? h("span", { class: "pager-range", "data-testid": "leaderboard-range" }, t("leaderboard.range", { first: board.offset + 1, last: board.offset + board.rows.length }))
      : null,
    later === null ? null : h("a", { class: "btn pager-next", rel: "next", href: href.leaderboard({ ...query, offset: later }), "data-testid": "leaderboard-next" },
      t("leaderboard.next"), icon("next")));
}

export function renderLeaderboard(container, board, { query, user, onQuery }) {
  const choices = { rules: boardPresets(), ...LEADERBOARD_CHOICES };
  const filters = Object.entries(choices).map(([key, values]) => {
    const id = `leaderboard-${key}`;
    const select = h("select", { id, "data-testid": id }, values.map((value) => h("option", { value, selected: value === query[key] }, choiceName(key, value))));
    // Another board starts at its first page.
    select.addEventListener("change", () => onQuery({ [key]: select.value, offset: 0 }));
    return h("div", { class: "rule" }, h("label", { for: id }, t(FILTER_LABELS[key])), select);
  });
  const columns = [
    ["rank", t("stats.rank")], ["name", t("stats.player")], ["rating", t("stats.rating")], ["points", t("stats.points")], ["wins", t("stats.wins")],
    ["matches", t("stats.matches")], ["best", t("stats.best")], ["win_rate", t("stats.win_rate")],
  ];
  const rows = board.rows.map((row) => boardRow(row, { user, sort: query.sort, testid: "leaderboard-row" }));
  // The signed-in player's own place, when it is on another page.
  const own = board.you && !board.rows.some((row) => row.rank === board.you.rank) ? [boardRow(board.you, { user, sort: query.sort, testid: "leaderboard-you" })] : [];
  const ratings = board.computer_ratings;
  let table;
  if (rows.length) table = statsTable({ caption: t("ui.leaderboard"), columns, rows, foot: own, sorted: query.sort, testid: "leaderboard-table" });
  else table = h("p", { class: "page-note", "data-testid": "leaderboard-empty" }, t(board.offset ? "leaderboard.past_end" : "leaderboard.empty"));
  container.replaceChildren(
    h("div", { class: "page leaderboard", "data-testid": "leaderboard-page" },
      pageHead(t("ui.leaderboard"),
        h("p", { class: "page-sub" }, earnsPoints(query.rules)
          ? t("leaderboard.intro", { easy: rankingPoints("easy"), normal: rankingPoints("normal"), expert: rankingPoints("expert") })
          : t("leaderboard.intro_no_points", { rules: rulesName(query.rules) }))),
      h("div", { class: "filters", role: "group", "aria-label": t("leaderboard.filters") }, filters),
      table,
      pager(board, query),
      h("p", { class: "page-note", "data-testid": "leaderboard-ratings-note" },
        t("leaderboard.ratings_note", { easy: ratingText(ratings.easy), normal: ratingText(ratings.normal), expert: ratingText(ratings.expert), mark: t("rating.provisional_mark") })),
      h("p", { class: "page-note" }, t("leaderboard.min_matches", { matches: plural("match_count", board.min_matches) }))),
  );
}

// -- a player's profile ----------------------------------------------------------------------

function tile(label, value, testid, note = null) {
  return h("div", { class: "stat-tile" }, h("dt", {}, label), h("dd", { "data-testid": testid }, value),
    note ? h("dd", { class: "stat-note", "data-testid": `${testid}-note` }, note) : null);
}

/** Why a profile shows no win rate yet: it needs a number of matches (the server's, once it says). */
function winRateNote(player) {
  if (player.win_rate !== null && player.win_rate !== undefined) return null;
  return Number.isInteger(player.min_matches)
    ? t("stats.win_rate_pending", { matches: plural("match_count", player.min_matches) })
    : t("stats.win_rate_pending_some");
}

/** Whom a match in the history was against: the person's name (a guest's has none),
 * or the computer's level. */
function opponentText(match) {
  if (match.table) return t("profile.versus", { name: match.opponent_name ? isolate(match.opponent_name) : t("ui.guest") });
  return match.difficulty ? levelName(match.difficulty) : "";
}

/** The rating after the match, and from what where the server says both. */
function historyRating(match) {
  if (match.rating === null || match.rating === undefined) return null;
  const text = match.rating_before === null || match.rating_before === undefined
    ? t("profile.rating_after", { rating: ratingText(match.rating) })
    : t("profile.rating_change", { before: ratingText(match.rating_before), after: ratingText(match.rating) });
  return h("span", { class: "history-rating", "data-testid": "history-rating" }, text);
}

/** A panel of a player's tallies, a row per group (`first`: the group's column key and heading). */
function talliesPanel(name, title, first, rows) {
  return h("section", { class: "panel", "aria-labelledby": `${name}-title` },
    h("h2", { class: "panel-title", id: `${name}-title`, "data-testid": "section-title" }, title),
    statsTable({
      caption: title,
      columns: [first, ["matches", t("stats.matches")], ["wins", t("stats.wins")], ["win_rate", t("stats.win_rate")], ["points", t("stats.points")]],
      rows,
      testid: `${name}-table`,
    }));
}

function historyItem(match) {
  const against = opponentText(match);
  return h("li", { class: "history-item", "data-testid": "history-item", "data-outcome": match.outcome, "data-opponent": match.opponent || null },
    h("div", { class: "history-main" },
      h("span", { class: `outcome outcome-${match.outcome}` }, t(`outcome.${match.outcome}`)),
      h("span", { class: "history-score" }, t("stats.score", { you: match.totals[0], cpu: match.totals[1] })),
      match.points ? h("span", { class: "history-points" }, t("profile.points_earned", { points: plural("ranking_points", match.points) })) : null,
      historyRating(match),
      match.ranked ? null : h("span", { class: "tag tag-friendly" }, t(match.table ? "match_kind.table_friendly" : "match_kind.friendly"))),
    h("p", { class: "history-meta" },
      h("time", { datetime: match.finished }, date(match.finished)), " · ", against ? [h("span", { class: "history-opponent" }, against), " · "] : null, rulesName(match.rules_name)),
    h("p", { class: "history-links" },
      h("a", { class: "link-btn history-replay", href: href.replay(match.id, 0, Boolean(match.table)), "data-testid": "replay-link" }, t("profile.replay")),
      // The coach's review of this player's own decisions (at a table: their seat's).
      h("a", { class: "link-btn history-review", href: href.review(match.id, match.table ? match.seat : null), "data-testid": "history-review-link" }, t("review.link"))));
}

// The graph's drawing box (it scales to the width it gets), the room kept around the
// line, and at its start for the highest and lowest ratings.
const GRAPH = { width: 320, height: 96, pad: 8, scale: 34 };

/**
 * A rating's history as a line, oldest to newest from left to right in every
 * language, the way its numbers read (the figure is left to right in CSS too).
 */
function ratingGraph(history) {
  const values = history.map((point) => point.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const { width, height, pad, scale } = GRAPH;
  const left = pad + scale;
  // One rating (or one value throughout) stands on the top rule, beside its label.
  const x = (i) => (values.length > 1 ? left + (i * (width - pad - left)) / (values.length - 1) : left);
  const y = (value) => (high === low ? pad : pad + ((high - value) * (height - 2 * pad)) / (high - low));
  const points = values.map((value, i) => `${x(i).toFixed(1)},${y(value).toFixed(1)}`);
  const last = values.length - 1;
  const label = t("profile.rating_graph", { first: ratingText(values[0]), last: ratingText(values[last]), low: ratingText(low), high: ratingText(high) });
  return svg("svg", { class: "rating-graph", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, "data-testid": "rating-graph" },
    svg("line", { class: "graph-rule", x1: left, x2: width - pad, y1: pad, y2: pad }),
    svg("line", { class: "graph-rule", x1: left, x2: width - pad, y1: height - pad, y2: height - pad }),
    svg("text", { class: "graph-scale", x: pad, y: pad, "dominant-baseline": "middle" }, ratingText(high)),
    high === low ? null : svg("text", { class: "graph-scale", x: pad, y: height - pad, "dominant-baseline": "middle" }, ratingText(low)),
    svg("polyline", { class: "graph-line", points: points.join(" ") }),
    svg("circle", { class: "graph-dot", cx: x(last).toFixed(1), cy: y(values[last]).toFixed(1), r: 3.5 }));
}

/** Each rule set the player has a rating in: the rating, whether it is settled yet, its graph. */
function ratingsPanel(ratings) {
  const presets = boardPresets().filter((preset) => ratings[preset]);
  if (!presets.length) return null;
  return h("section", { class: "panel", "aria-labelledby": "ratings-title" },
    h("h2", { class: "panel-title", id: "ratings-title", "data-testid": "section-title" }, t("profile.ratings")),
    h("ul", { class: "ratings" }, presets.map((preset) => {
      const rating = ratings[preset];
      return h("li", { class: "rating-item", "data-testid": "rating", "data-rules": preset },
        h("div", { class: "rating-head" },
          h("span", { class: "rating-rules" }, rulesName(preset)),
          h("span", { class: "rating-value", "data-testid": "rating-value" }, ratingText(rating.rating)),
          rating.settled ? null : h("span", { class: "tag tag-provisional", "data-testid": "rating-provisional", title: t("rating.provisional_hint") }, t("rating.provisional"))),
        h("p", { class: "rating-meta" }, t("profile.rating_matches", { matches: plural("match_count", rating.matches) })),
        rating.history.length ? ratingGraph(rating.history) : null);
    })));
}

function accountPanel() {
  return h("section", { class: "panel", "data-testid": "account-panel", "aria-labelledby": "account-title" },
    h("h2", { class: "panel-title", id: "account-title" }, t("profile.account")),
    h("div", { class: "account-actions" },
      h("button", { type: "button", class: "btn", "data-testid": "change-password-button", onclick: openChangePassword }, t("account.change_password")),
      h("button", { type: "button", class: "btn", "data-testid": "sign-out-button", onclick: signOut }, t("account.sign_out")),
      h("button", { type: "button", class: "btn btn-danger-ghost", "data-testid": "delete-account-button", onclick: openDeleteAccount }, t("account.delete"))));
}

export function renderProfile(container, player, { user }) {
  const own = Boolean(user && user.name === player.name);
  const levels = LEVELS.map((level) => {
    const stats = player.by_difficulty[level];
    return h("tr", {},
      h("th", { scope: "row", class: "text" }, levelName(level)),
      h("td", {}, num(stats.matches)), h("td", {}, num(stats.wins)), h("td", {}, rate(stats.win_rate)), h("td", {}, num(stats.points)));
  });
  // By opponent: only where the player has met more than one kind (else it repeats the totals).
  const byOpponent = player.by_opponent || {};
  const opponents = OPPONENTS.filter((kind) => byOpponent[kind] && byOpponent[kind].matches > 0);
  const opponentRows = opponents.map((kind) => {
    const stats = byOpponent[kind];
    return h("tr", { "data-opponent": kind },
      h("th", { scope: "row", class: "text" }, t(`opponent.${kind}`)),
      h("td", {}, num(stats.matches)), h("td", {}, num(stats.wins)), h("td", {}, rate(stats.win_rate)), h("td", {}, num(stats.points)));
  });
  const record = { wins: player.wins, losses: player.losses, draws: player.draws, resigned: player.resigned, aborted: player.aborted || 0 };
  const yaku = sortYaku(player.yaku).sort((a, b) => b[1] - a[1]);
  container.replaceChildren(
    h("div", { class: "page profile", "data-testid": "profile-page" },
      pageHead(h("bdi", {}, player.name),
        h("p", { class: "page-sub" },
          t("profile.joined", { date: date(player.joined) }),
          own ? h("span", { class: "tag tag-you" }, t("ui.you")) : null)),
      h("dl", { class: "stat-tiles" },
        tile(t("stats.points"), num(player.points), "profile-points"),
        tile(t("stats.matches"), num(player.matches), "profile-matches"),
        tile(t("stats.wins"), num(player.wins), "profile-wins"),
        tile(t("stats.win_rate"), rate(player.win_rate), "profile-win-rate", winRateNote(player))),
      h("p", { class: "page-note", "data-testid": "profile-record" }, t(record.aborted ? "profile.record_aborted" : "profile.record", record)),
      ratingsPanel(player.ratings),
      talliesPanel("by-level", t("profile.by_level"), ["level", t("stats.level")], levels),
      // Shown where it says more than the headline: two kinds of opponent, or practice
      // (which the headline leaves out: the server cannot check who played it).
      opponents.length > 1 || opponents.includes("practice") ? talliesPanel("by-opponent", t("profile.by_opponent"), ["opponent", t("stats.opponent")], opponentRows) : null,
      h("section", { class: "panel", "aria-labelledby": "yaku-title" },
        h("h2", { class: "panel-title", id: "yaku-title", "data-testid": "section-title" }, t("profile.yaku")),
        yaku.length
          ? h("ul", { class: "chips profile-yaku", "data-testid": "profile-yaku" },
              yaku.map(([key, count]) => h("li", { class: "chip", "data-yaku": key }, t("profile.yaku_count", { yaku: t(`yaku.${key}`), count }))))
          : h("p", { class: "page-note" }, t("ui.no_yaku"))),
      h("section", { class: "panel", "aria-labelledby": "history-title" },
        h("h2", { class: "panel-title", id: "history-title", "data-testid": "section-title" }, t("profile.history")),
        player.history.length
          ? h("ol", { class: "history", "data-testid": "history" }, player.history.map(historyItem))
          : h("p", { class: "page-note" }, t("profile.no_history"))),
      own ? accountPanel() : null,
      h("p", { class: "page-foot" }, h("a", { class: "link-btn", href: href.leaderboard() }, icon("trophy"), t("profile.to_leaderboard")))),
  );
}
