// The end of a round (yaku, points, multiplier) and of the match (totals, winner).

import { currentUser } from "./account.js";
import { cardButton } from "./cards.js";
import { h, openModal } from "./dom.js";
import { roundGains } from "./engine/points.js";
import { num, plural, ratingChange, ratingText, t } from "./i18n.js";
import { href } from "./routes.js";
import { sortYaku } from "./rulesinfo.js";
import { SEAT_CPU, SEAT_YOU, side, who } from "./table.js";

function yakuRows(yaku) {
  return h(
    "ul",
    { class: "yaku-list" },
    sortYaku(yaku).map(([key, points]) =>
      h("li", { class: "yaku-row" }, h("span", { class: "yaku-name" }, t(`yaku.${key}`)), h("span", { class: "yaku-points" }, plural("points", points)))),
  );
}

function line(label, value, cls = "") {
  return h("div", { class: cls }, h("dt", {}, label), h("dd", {}, value));
}

/** How a scorer's points came about, as the server reports it: yaku total, doubling,
 * multiplier, the koi-koi bonus (multiplier = additive), points (or a hand yaku, or
 * the dealer's exhausted-round points). */
function breakdown(rules, event, seat) {
  const points = event.points[seat];
  const lines = [];
  if (event.scoring && event.winner === seat) {
    lines.push(line(t("summary.yaku_total"), plural("points", event.scoring.total)));
    if (event.scoring.doubled) lines.push(line(t("summary.doubled"), t("summary.doubled_value", { points: rules.double_at })));
    lines.push(line(t("summary.multiplier"), t("ui.multiplier_short", { n: event.scoring.multiplier })));
    if (event.scoring.bonus > 0) lines.push(line(t("summary.bonus"), t("ui.bonus_short", { n: event.scoring.bonus }), "summary-bonus"));
  } else if (event.reason === "hand-yaku") {
    lines.push(line(t("summary.hand_yaku"), t("summary.hand_yaku_value")));
  } else if (event.reason === "exhausted" && event.winner === seat) {
    lines.push(line(t("summary.exhausted_dealer"), plural("points", rules.exhausted_points)));
  }
  lines.push(line(t("summary.points"), plural("points", points), "summary-points"));
  return h("dl", { class: "stake-lines" }, lines);
}

/**
 * The match score once `rounds` rounds are over, from the finished rounds' results, as
 * the engine's Match books it: both start from `starting_points`, and each round adds
 * engine/match.js's roundGains (with starting points, zero-sum: a round's points move
 * from one player to the other, so a total can fall below zero).
 */
export function totalsAfter(results, rounds, rules = {}) {
  const start = Number(rules.starting_points) || 0;
  const totals = [start, start];
  for (const result of results.slice(0, Math.max(0, rounds))) {
    const won = roundGains(result.points, Boolean(start));
    totals[0] += won[0];
    totals[1] += won[1];
  }
  return totals;
}

/** The round summary; resolves when the player continues. */
export function showRoundSummary({ event, state, view }) {
  const rules = state.rules;
  const winner = event.winner;
  const scorers = [SEAT_YOU, SEAT_CPU].filter((seat) => event.points[seat] > 0 || seat === winner);
  let title;
  if (winner === SEAT_YOU) title = t("summary.round.you", { round: event.round });
  else if (winner === SEAT_CPU) title = t(`summary.round.${side(SEAT_CPU)}`, { round: event.round, name: who(SEAT_CPU) });
  else if (scorers.length) title = t("summary.round.both", { round: event.round });
  else title = t("summary.round.draw", { round: event.round });

  const sections = scorers.map((seat) =>
    h(
      "section",
      { class: `summary-side summary-${seat === SEAT_YOU ? "you" : "cpu"}` },
      h("h3", {}, who(seat)),
      yakuRows(event.yaku[seat] || {}),
      breakdown(rules, event, seat),
      event.calls[seat] ? h("p", { class: "summary-calls" }, plural("koikoi_calls", event.calls[seat])) : null,
    ));
  if (!scorers.length) {
    sections.push(h("p", { class: "summary-reason" }, rules.exhausted === "draw" ? t("summary.draw_reason") : t("summary.draw_reason_other")));
    for (const seat of [SEAT_YOU, SEAT_CPU]) {
      const held = event.yaku[seat] || {};
      if (Object.keys(held).length) {
        sections.push(h("section", { class: "summary-side summary-held" }, h("h3", {}, t(`summary.held.${side(seat)}`, { name: who(SEAT_CPU) })), yakuRows(held)));
      }
    }
  }
  let cards = null;
  if (view && winner !== null && winner !== undefined) {
    const pile = view.captured[winner];
    const slugs = [...pile.bright, ...pile.animal, ...pile.ribbon, ...pile.plain];
    if (slugs.length) {
      cards = h("div", { class: "summary-cards", role: "group", "aria-label": t(`summary.captured.${side(winner)}`, { name: who(SEAT_CPU) }) },
        slugs.map((slug) => cardButton(slug, { size: "mini", tabIndex: -1, noFlip: true })));
    }
  }
  const totals = totalsAfter(state.results, event.round, rules);
  return new Promise((resolve) => {
    const button = h("button", { type: "button", class: "btn btn-primary", "data-testid": "round-continue" }, t("summary.continue"));
    const panel = h(
      "div",
      { class: "summary round-summary", "data-testid": "round-summary", "data-winner": winner === null ? "none" : String(winner) },
      h("h2", { class: "summary-title", id: "round-summary-title" }, title),
      h("div", { class: "summary-body" }, sections),
      cards,
      h("p", { class: "summary-totals", "data-testid": "round-totals" },
        side(SEAT_CPU) === "opp" ? t("summary.totals_opp", { you: totals[0], them: totals[1], name: who(SEAT_CPU) }) : t("summary.totals", { you: totals[0], cpu: totals[1] })),
      h("div", { class: "sheet-actions" }, button),
    );
    panel.setAttribute("aria-labelledby", "round-summary-title");
    const modal = openModal(panel, { closable: false, initialFocus: "[data-testid=round-continue]" });
    button.addEventListener("click", () => {
      modal.close();
      resolve();
    });
  });
}

/** A rating's move ({before, after}) as "1500 → 1713 (+213)"'s parts. */
const moved = (rating) => ({ before: ratingText(rating.before), after: ratingText(rating.after), change: ratingChange(rating.after - rating.before) });

/** What a finished match meant for the ranking: the points it earned and the ratings it
 * moved (at a table, the opponent's too), or why none: given up too soon to count (an
 * aborted table), a friendly match a signed-in player chose or played under house rules,
 * a guest's. */
function rankingLines(state) {
  if (state.status === "aborted") {
    return h("p", { class: "summary-ranking is-aborted", "data-testid": "match-aborted" }, t("summary.aborted"));
  }
  const lines = [];
  if (state.points > 0) {
    lines.push(h("p", { class: "summary-ranking is-earned", "data-testid": "points-earned" }, t("summary.points_earned", { points: plural("ranking_points", state.points) })));
  }
  const players = state.table ? state.table.players : null;
  const mine = state.rating || (players && players[SEAT_YOU] && players[SEAT_YOU].rating);
  if (mine) lines.push(h("p", { class: "summary-ranking summary-rating", "data-testid": "rating-change" }, t("summary.rating_change", moved(mine))));
  const theirs = players && players[SEAT_CPU] && players[SEAT_CPU].rating;
  if (theirs) {
    lines.push(h("p", { class: "summary-ranking summary-rating", "data-testid": "rating-change-opp" }, t("summary.rating_change_opp", { name: who(SEAT_CPU), ...moved(theirs) })));
  }
  if (!state.ranked) lines.push(h("p", { class: "summary-ranking", "data-testid": "unranked" }, t(currentUser() ? "summary.friendly" : "summary.unranked")));
  return lines;
}

/** Where a practice match stands with the player's history, once `saving` (a promise of
 * "saved", "pending", "refused" or null: a guest's) says. */
function savingLine(saving) {
  if (!saving) return null;
  const note = h("p", { class: "summary-saved", "data-testid": "practice-save", hidden: true });
  saving.then(
    (where) => {
      if (!where) return;
      note.textContent = t(`summary.practice_${where}`);
      note.dataset.state = where;
      note.hidden = false;
    },
    () => {},
  );
  return note;
}

/** How a match between people ended, said on its summary: against whom, and a
 * resignation or a forfeit to the clock. */
function endingLine(state) {
  const table = state.table;
  const name = who(SEAT_CPU);
  const lines = [t("summary.against", { name })];
  if (table.ending === "resigned" || table.ending === "forfeit") {
    const loser = state.winner === SEAT_YOU ? "opp" : "you";
    lines.push(t(`summary.${table.ending}.${loser}`, { name, max: table.max_timeouts }));
  }
  return h("p", { class: "summary-reason", "data-testid": "match-ending", "data-ending": table.ending || "" }, lines.join(" "));
}

/** A table's rematch as it stands ([you, them] offers; `next`: the new table): the
 * button's label and whether it can be pressed, and the line below it. */
function rematchShown(table, button, note) {
  const [mine, theirs] = table.rematch;
  const name = who(SEAT_CPU);
  button.disabled = mine || Boolean(table.next);
  button.textContent = theirs && !mine ? t("rematch.accept") : t("rematch.play_again");
  let text = "";
  if (table.next) text = t("rematch.starting");
  else if (mine) text = t("rematch.waiting", { name });
  else if (theirs) text = t("rematch.wanted", { name });
  note.textContent = text;
  note.hidden = !text;
  note.dataset.state = table.next ? "starting" : mine ? "waiting" : theirs ? "wanted" : "none";
}

/**
 * The match summary: totals, winner, ranking points, the replay, a new game. At a
 * table between people (`rematch`: {offer(), bind(show)}), "Play again" offers a
 * rematch and the summary stays open; `bind` receives the function that shows each
 * newer state's rematch offers (persontable.js calls it as they come).
 */
export function showMatchSummary({ state, onNewGame, onRematch, saving = null, rematch = null }) {
  const winner = state.winner;
  const opp = Boolean(state.table);
  let title = winner === SEAT_YOU ? t("summary.match.you") : winner === SEAT_CPU ? t(`summary.match.${side(SEAT_CPU)}`, { name: who(SEAT_CPU) }) : t("summary.match.draw");
  if (state.status === "resigned") title = t("summary.match.resigned");
  const rows = state.results.map((result, index) =>
    h("tr", {},
      h("th", { scope: "row" }, num(index + 1)),
      h("td", {}, result.winner === null ? t("summary.nobody") : who(result.winner)),
      h("td", {}, num(result.points[0])),
      h("td", {}, num(result.points[1]))));
  return new Promise((resolve) => {
    let modal = null;
    const newGame = h("button", { type: "button", class: "btn btn-primary", "data-testid": "new-game-button" }, t("summary.new_game"));
    const again = h("button", { type: "button", class: "btn", "data-testid": "rematch-button" }, t("summary.rematch"));
    const rematchLine = rematch ? h("p", { class: "rematch-status", role: "status", "data-testid": "rematch-status", hidden: true }) : null;
    newGame.addEventListener("click", () => {
      modal.close();
      resolve();
      onNewGame();
    });
    again.addEventListener("click", () => {
      if (rematch) {
        again.disabled = true;
        rematch.offer();
        return;
      }
      modal.close();
      resolve();
      onRematch();
    });
    if (rematch) {
      const show = (table) => rematchShown(table, again, rematchLine);
      show(state.table);
      rematch.bind(show);
    }
    // Following the link leaves the table for the replay's page.
    const replay = h("a", { class: "link-btn", href: href.replay(state.id, 0, opp), "data-testid": "replay-link" }, t("summary.replay"));
    replay.addEventListener("click", () => {
      modal.close();
      resolve();
    });
    // The coach's review of a match against the computer (a practice one's from the device).
    const review = opp ? null : h("a", { class: "link-btn", href: href.review(state.id), "data-testid": "review-link" }, t("review.link"));
    if (review) {
      review.addEventListener("click", () => {
        modal.close();
        resolve();
      });
    }
    const panel = h(
      "div",
      { class: `summary match-summary ${winner === SEAT_YOU ? "is-win" : ""}`, "data-testid": "match-summary", "data-winner": winner === null ? "none" : String(winner) },
      h("h2", { class: "summary-title", id: "match-summary-title" }, title),
      h("p", { class: "match-score" },
        h("span", { class: "ms-you" }, who(SEAT_YOU), h("b", {}, num(state.totals[0]))),
        h("span", { class: "ms-sep", "aria-hidden": "true" }, "–"),
        h("span", { class: "ms-cpu" }, who(SEAT_CPU), h("b", {}, num(state.totals[1])))),
      opp ? endingLine(state) : h("p", { class: "summary-reason" }, t(`summary.difficulty.${state.difficulty}`)),
      rankingLines(state),
      savingLine(saving),
      rows.length
        ? h("div", { class: "table-scroll" },
            h("table", { class: "rounds-table" },
              h("caption", { class: "sr-only" }, t("summary.rounds")),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("summary.col.round")), h("th", { scope: "col" }, t("summary.col.winner")),
                h("th", { scope: "col" }, who(SEAT_YOU)), h("th", { scope: "col" }, who(SEAT_CPU)))),
              h("tbody", {}, rows)))
        : null,
      h("div", { class: "sheet-actions two" }, again, newGame),
      rematchLine,
      h("p", { class: "summary-links" }, replay, review),
    );
    panel.setAttribute("aria-labelledby", "match-summary-title");
    modal = openModal(panel, { closable: false, initialFocus: "[data-testid=new-game-button]" });
  });
}
