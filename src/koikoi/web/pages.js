// The public pages: the leaderboard and a player's profile (with the account's own
// settings when it is yours). Each draws what the server answered; app.js fetches.

import { openChangePassword, openDeleteAccount, rankingPoints, signOut } from "./account.js";
import { h, icon } from "./dom.js";
import { date, num, percent, plural, t } from "./i18n.js";
import { sortYaku } from "./rulesinfo.js";
import { LEADERBOARD_CHOICES, href } from "./routes.js";

const LEVELS = ["easy", "normal", "expert"];

export const levelName = (level) => t(`difficulty.${level}`);
export const rulesName = (name) => t(`rule.preset.${name}`);
const rate = (share) => (share === null || share === undefined ? "–" : percent(share));

function pageHead(title, ...below) {
  return h("header", { class: "page-head" }, h("h1", { class: "page-title", "data-testid": "page-title" }, title), below);
}

/** While a page loads, or when it cannot: a line saying so (and a way back). */
export function renderPageStatus(container, { error = null, missing = "" } = {}) {
  let text = t("page.loading");
  if (error) text = (error.status === 404 || error.status === 409) && missing ? missing : t("error.network");
  container.replaceChildren(
    h("div", { class: "page", "data-testid": "page-status", "aria-busy": error ? null : "true" },
      h("p", { class: error ? "page-note is-error" : "page-note" }, text),
      error ? h("a", { class: "link-btn", href: href.game }, t("ui.menu")) : null),
  );
}

/** A table of numbers: the first column heads its row; `sorted` marks a column. */
function statsTable({ caption, columns, rows, sorted = null, testid }) {
  return h("div", { class: "stats-scroll" },
    h("table", { class: "stats-table", "data-testid": testid },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, columns.map(([key, label]) =>
        h("th", { scope: "col", class: key === "name" || key === "level" ? "text" : null, "aria-sort": key === sorted ? "descending" : null }, label)))),
      h("tbody", {}, rows)));
}

// -- the leaderboard -----------------------------------------------------------------------

const FILTER_LABELS = { difficulty: "leaderboard.filter.level", rules: "leaderboard.filter.rules", sort: "leaderboard.filter.sort" };

function choiceName(key, value) {
  if (value === "all") return t(`leaderboard.all.${key}`);
  if (key === "difficulty") return levelName(value);
  if (key === "rules") return rulesName(value);
  return t(`leaderboard.sort.${value}`);
}

export function renderLeaderboard(container, board, { query, user, onQuery }) {
  const filters = Object.entries(LEADERBOARD_CHOICES).map(([key, values]) => {
    const id = `leaderboard-${key}`;
    const select = h("select", { id, "data-testid": id }, values.map((value) => h("option", { value, selected: value === query[key] }, choiceName(key, value))));
    select.addEventListener("change", () => onQuery({ ...query, [key]: select.value }));
    return h("div", { class: "rule" }, h("label", { for: id }, t(FILTER_LABELS[key])), select);
  });
  const columns = [
    ["rank", t("stats.rank")], ["name", t("stats.player")], ["points", t("stats.points")], ["wins", t("stats.wins")],
    ["matches", t("stats.matches")], ["best", t("stats.best")], ["win_rate", t("stats.win_rate")],
  ];
  const rows = board.rows.map((row) =>
    h("tr", { class: user && user.name === row.name ? "is-you" : null, "data-testid": "leaderboard-row" },
      h("td", {}, num(row.rank)),
      h("th", { scope: "row", class: "text" }, h("a", { href: href.player(row.name), "data-testid": "player-link" }, h("bdi", {}, row.name))),
      h("td", { class: "strong" }, num(row.points)),
      h("td", {}, num(row.wins)),
      h("td", {}, num(row.matches)),
      h("td", {}, row.best === null ? "–" : num(row.best)),
      h("td", {}, rate(row.win_rate))));
  container.replaceChildren(
    h("div", { class: "page leaderboard", "data-testid": "leaderboard-page" },
      pageHead(t("ui.leaderboard"),
        h("p", { class: "page-sub" }, t("leaderboard.intro", { easy: rankingPoints("easy"), normal: rankingPoints("normal"), expert: rankingPoints("expert") }))),
      h("div", { class: "filters", role: "group", "aria-label": t("leaderboard.filters") }, filters),
      rows.length
        ? statsTable({ caption: t("ui.leaderboard"), columns, rows, sorted: query.sort, testid: "leaderboard-table" })
        : h("p", { class: "page-note", "data-testid": "leaderboard-empty" }, t("leaderboard.empty")),
      h("p", { class: "page-note" }, t("leaderboard.min_matches", { matches: plural("match_count", board.min_matches) }))),
  );
}

// -- a player's profile ----------------------------------------------------------------------

function tile(label, value, testid) {
  return h("div", { class: "stat-tile" }, h("dt", {}, label), h("dd", { "data-testid": testid }, value));
}

function historyItem(match) {
  return h("li", { class: "history-item", "data-testid": "history-item", "data-outcome": match.outcome },
    h("div", { class: "history-main" },
      h("span", { class: `outcome outcome-${match.outcome}` }, t(`outcome.${match.outcome}`)),
      h("span", { class: "history-score" }, t("stats.score", { you: match.totals[0], cpu: match.totals[1] })),
      match.points ? h("span", { class: "history-points" }, t("profile.points_earned", { points: plural("ranking_points", match.points) })) : null),
    h("p", { class: "history-meta" },
      h("time", { datetime: match.finished }, date(match.finished)), " · ", levelName(match.difficulty), " · ", rulesName(match.rules_name)),
    h("a", { class: "link-btn history-replay", href: href.replay(match.id), "data-testid": "replay-link" }, t("profile.replay")));
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
        tile(t("stats.win_rate"), rate(player.win_rate), "profile-win-rate")),
      h("p", { class: "page-note" },
        t("profile.record", { wins: player.wins, losses: player.losses, draws: player.draws, resigned: player.resigned })),
      h("section", { class: "panel", "aria-labelledby": "by-level-title" },
        h("h2", { class: "panel-title", id: "by-level-title", "data-testid": "section-title" }, t("profile.by_level")),
        statsTable({
          caption: t("profile.by_level"),
          columns: [["level", t("stats.level")], ["matches", t("stats.matches")], ["wins", t("stats.wins")], ["win_rate", t("stats.win_rate")], ["points", t("stats.points")]],
          rows: levels,
          testid: "by-level-table",
        })),
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
