// The coach (a practice match against the computer on the server): the hint for the
// player's move, the risk meter on the stop-or-koi-koi sheet, and the review of a
// finished match (against the computer, or one player's at a table between people). The server sends values only (koikoi.coach); every sentence is
// written here, in the page's language, from them.

import { currentUser } from "./account.js";
import { cardName } from "./cards.js";
import { h, icon, openModal, svg } from "./dom.js";
import { isolate, list, locale, percent, plural, t } from "./i18n.js";
import { playerName } from "./person.js";
import { href } from "./routes.js";

/** A share (0..1) the server sent, or null when it has none (a NaN, a missing value). */
function share(value) {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;
}

/** A share as a percentage; "—" when there is none. */
function pct(value) {
  const known = share(value);
  return known === null ? "—" : percent(known);
}

/** Percentage points of win chance (a share difference), whole, never below zero. */
function pctPoints(loss) {
  return Math.max(0, Math.round((share(loss) ?? 0) * 100));
}

/** An action in record form ({play}, {capture}, {koikoi}, {stop}) in words. */
export function moveName(action) {
  if (!action) return "";
  if (action.play) return t("coach.move.play", { card: cardName(action.play) });
  if (action.capture) return t("coach.move.capture", { card: cardName(action.capture) });
  if (action.koikoi) return t("coach.move.koikoi");
  if (action.stop) return t("coach.move.stop");
  return "";
}

/** The card an action puts forward (to play or to take), or null. */
export function actionCard(action) {
  return (action && (action.play || action.capture)) || null;
}

const cards = (slugs) => list((slugs || []).map(cardName));
const yakuName = (key) => t(`yaku.${key}`);

/** One of the coach's reasons in words (see koikoi.coach for the kinds and values). */
export function reasonText(reason) {
  switch (reason.kind) {
    case "takes":
      return t("coach.reason.takes", { cards: cards(reason.cards) });
    case "makes":
      return t("coach.reason.makes", { yaku: yakuName(reason.yaku) });
    case "toward":
      return plural("coach_toward", reason.missing, { yaku: yakuName(reason.yaku) });
    case "denies": {
      const held = reason.held || [];
      const key = reason.closes ? "coach.reason.denies_closes" : held.length ? "coach.reason.denies_held" : "coach.reason.denies";
      return t(key, { yaku: yakuName(reason.yaku), held: cards(held) });
    }
    case "discard":
      return t("coach.reason.discard", { card: cardName(reason.card) });
    case "discard-dead":
      return t("coach.reason.discard_dead", { card: cardName(reason.card) });
    case "gives-less":
      return t("coach.reason.gives_less", { card: cardName(reason.card), other: cardName(reason.other) });
    case "safer":
      return t("coach.reason.safer", { chance: pct(reason.chance), other: pct(reason.other) });
    case "stronger":
      return t("coach.reason.stronger", { chance: pct(reason.chance), other: pct(reason.other) });
    default:
      return "";
  }
}

function reasonList(reasons, testid) {
  const items = (reasons || []).map(reasonText).filter(Boolean);
  if (!items.length) return null;
  return h("ul", { class: "coach-reasons", "data-testid": testid }, items.map((text) => h("li", {}, text)));
}

/** How much worse the runner-up is, in words ("about as good" under one point). */
function runnerUpText(hint) {
  const points = Math.round((share(hint.loss) ?? 0) * 1000) / 10;
  if (points < 1) return t("coach.runner_up_close", { move: moveName(hint.runner_up) });
  return t("coach.runner_up", { move: moveName(hint.runner_up), points: plural("pct_points", pctPoints(hint.loss)) });
}

/** The hint itself: the best move, why, and the runner-up with what it gives away. */
function hintBody(hint, onSelect) {
  const chance = share(hint.chance);
  const pick = actionCard(hint.best);
  return [
    h("p", { class: "coach-best", "data-testid": "hint-best", "data-action": JSON.stringify(hint.best) }, t("coach.best", { move: moveName(hint.best) })),
    chance === null ? null : h("p", { class: "coach-chance", "data-testid": "hint-chance" }, t("coach.chance", { chance: percent(chance) })),
    reasonList(hint.reasons, "hint-reasons"),
    hint.runner_up
      ? h("div", { class: "coach-runner" },
          h("p", { class: "coach-runner-line", "data-testid": "hint-runner-up" }, runnerUpText(hint)),
          reasonList(hint.runner_up_reasons, "hint-runner-reasons"))
      : h("p", { class: "coach-runner-line", "data-testid": "hint-runner-up" }, t("coach.only")),
    pick && onSelect
      ? h("div", { class: "sheet-actions" },
          h("button", { type: "button", class: "btn btn-primary", "data-testid": "hint-select", onclick: () => onSelect(pick) }, t("coach.select", { card: cardName(pick) })))
      : null,
  ];
}

/**
 * The hint's panel, opened at once and filled when `request` (a promise of the server's
 * answer) settles. `onSelect(slug)` selects the card the coach plays or takes.
 * Resolves the modal's handle.
 */
export function openHint(request, { onSelect, onAnswer, onClose }) {
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "data-testid": "hint-close", "aria-label": t("ui.close"), title: t("ui.close") }, icon("close"));
  const body = h("div", { class: "coach-body", "data-testid": "hint-body", "aria-live": "polite", "aria-busy": "true" },
    h("p", { class: "coach-loading", "data-testid": "hint-loading" }, t("coach.loading")));
  const panel = h("div", { class: "dialog hint-dialog", "data-testid": "hint-panel", "aria-labelledby": "hint-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "hint-title" }, t("coach.title")), close),
    body);
  const modal = openModal(panel, { className: "modal-hint", onClose });
  close.addEventListener("click", () => modal.close());
  request.then(
    (answer) => {
      if (modal.closed) return;
      if (onAnswer) onAnswer(answer);
      body.removeAttribute("aria-busy");
      const select = onSelect
        ? (slug) => {
            modal.close();
            onSelect(slug);
          }
        : null;
      body.replaceChildren(...hintBody(answer.hint, select).filter(Boolean));
    },
    () => {
      if (modal.closed) return;
      body.removeAttribute("aria-busy");
      body.replaceChildren(h("p", { class: "coach-error", "data-testid": "hint-error" }, t("coach.error")));
    },
  );
  return modal;
}

// -- the risk meter (the stop-or-koi-koi sheet) ----------------------------------------

let signed = null;
let signedLocale = null;

/** Mean points, signed, one decimal at most ("+1", "−0.3"). */
function signedPoints(value) {
  if (signedLocale !== locale()) {
    signed = new Intl.NumberFormat(locale(), { maximumFractionDigits: 1, signDisplay: "exceptZero" });
    signedLocale = locale();
  }
  // Isolated, so the sign stays before the number in a right-to-left sentence.
  return plural("mean_points", Math.abs(value), { n: isolate(signed.format(value)) });
}

function bar(label, value, testid, kind) {
  const known = share(value);
  return h("div", { class: `risk-row risk-${kind} ${testid}`, "data-testid": testid },
    h("span", { class: "risk-label" }, label),
    h("span", { class: "risk-bar", "aria-hidden": "true" }, h("span", { class: "risk-fill", style: { "inline-size": `${Math.round((known ?? 0) * 100)}%` } })),
    h("b", { class: "risk-value", "data-testid": `${testid}-value` }, pct(value)));
}

/**
 * The risk meter: `coach` is {loading, error, answer} for this decision (answer: the
 * server's /hint answer): the computer's chances to score, and the coach's pick.
 */
export function riskMeter(coach, name) {
  if (coach.error) return null;
  if (coach.loading || !coach.answer || !coach.answer.risk) {
    return h("div", { class: "risk-meter is-loading", "data-testid": "risk-meter", "aria-busy": "true" }, h("p", { class: "risk-loading" }, t("risk.loading")));
  }
  const risk = coach.answer.risk;
  const best = coach.answer.hint && coach.answer.hint.best;
  return h("div", { class: "risk-meter", "data-testid": "risk-meter", role: "group", "aria-label": t("risk.title") },
    // Where there is no room for the bars, one line says the same.
    h("p", { class: "risk-short", "data-testid": "risk-short" }, t("risk.short", { name, next: pct(risk.next_turn), end: pct(risk.before_end) })),
    bar(t("risk.next_turn", { name }), risk.next_turn, "risk-next-turn", "cpu"),
    bar(t("risk.before_end", { name }), risk.before_end, "risk-before-end", "cpu"),
    bar(t("risk.own_later"), risk.own_later, "risk-own-later", "you"),
    best ? h("p", { class: "risk-pick", "data-testid": "risk-pick", "data-pick": best.stop ? "stop" : "koikoi" },
      t(best.stop ? "risk.pick_stop" : "risk.pick_koikoi"), " ",
      h("span", { class: "risk-worlds" }, risk.exact ? plural("risk_exact", risk.worlds) : plural("risk_worlds", risk.worlds))) : null);
}

/** What stopping and calling give, for the decision's two buttons (null: not known yet),
 * and which of them the coach picks. */
export function riskChoices(coach) {
  const risk = coach && !coach.error && coach.answer && coach.answer.risk;
  if (!risk) return null;
  const best = coach.answer.hint && coach.answer.hint.best;
  // The points and the win chance apart: on a phone on its side, the chance alone.
  const sub = (points, chance) => [h("span", { class: "risk-sub-points" }, points, h("span", { "aria-hidden": "true" }, " · ")), h("span", { class: "risk-sub-win" }, t("risk.win", { chance: pct(chance) }))];
  return {
    stop: sub(t("risk.stop", { points: plural("points", risk.stop_points) }), risk.stop_chance),
    call: sub(t("risk.call", { points: signedPoints(risk.call_points) }), risk.call_chance),
    pick: best ? (best.stop ? "stop" : "koikoi") : null,
  };
}

// -- the review page -------------------------------------------------------------------

/** The replay step a decision was made at: the last step whose `actions` is its index. */
export function stepOf(steps, index) {
  let found = -1;
  for (let i = 0; i < steps.length; i += 1) {
    if (steps[i].actions === index) found = i;
    else if (found < 0 && steps[i].actions > index) return Math.max(0, i - 1);
  }
  return found < 0 ? Math.max(0, steps.length - 1) : found;
}

/** The win chance through the match: a point per decision, round boundaries marked. */
function graph(decisions, label) {
  const width = 640;
  const height = 220;
  const left = 44;
  const pad = 14;
  const bottom = 26;
  const n = decisions.length;
  const x = (i) => (n <= 1 ? (left + width - pad) / 2 : left + (i * (width - pad - left)) / (n - 1));
  const y = (value) => pad + (1 - (share(value) ?? 0)) * (height - pad - bottom);
  const parts = [];
  for (const level of [0, 0.5, 1]) {
    parts.push(svg("line", { class: level === 0.5 ? "graph-rule graph-mid" : "graph-rule", x1: left, x2: width - pad, y1: y(level), y2: y(level) }));
    parts.push(svg("text", { class: "graph-scale", x: left - 6, y: y(level), "text-anchor": "end", "dominant-baseline": "middle" }, percent(level)));
  }
  decisions.forEach((decision, i) => {
    if (i === 0 || decisions[i - 1].round !== decision.round) {
      const at = i === 0 ? x(0) : (x(i - 1) + x(i)) / 2;
      if (i > 0) parts.push(svg("line", { class: "graph-round", "data-testid": "review-round-mark", x1: at, x2: at, y1: pad, y2: height - bottom }));
      parts.push(svg("text", { class: "graph-scale graph-round-label", x: i === 0 ? at : at + 3, y: height - 8, "text-anchor": "start" }, t("review.round_short", { round: decision.round })));
    }
  });
  const points = decisions.map((decision, i) => `${x(i).toFixed(1)},${y(decision.chance).toFixed(1)}`);
  if (n > 1) parts.push(svg("polyline", { class: "graph-line", points: points.join(" ") }));
  decisions.forEach((decision, i) => {
    parts.push(svg("circle", {
      class: `review-point mark-${decision.mark}`,
      "data-testid": "review-point",
      "data-mark": decision.mark,
      cx: x(i).toFixed(1),
      cy: y(decision.chance).toFixed(1),
      r: decision.mark === "good" ? 2.6 : 4,
    }, svg("title", {}, `${t("review.round_short", { round: decision.round })} · ${moveName(decision.action)} · ${pct(decision.chance)}`)));
  });
  // The graph reads left to right in every language (time runs that way on it).
  return svg("svg", { class: "review-graph", dir: "ltr", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, "data-testid": "review-graph" }, parts);
}

function stepLink(id, steps, index, testid, table = false) {
  const step = stepOf(steps, index);
  return h("a", { class: "review-step-link", href: href.replay(id, step, table), "data-testid": testid, "data-step": String(step) }, t("review.see_replay"));
}

/**
 * The two seats of a match between people, for their reviews: each player's name
 * ("Guest" without one), a note saying who opened the table where both names read
 * the same (two guests), and whether it is the signed-in viewer's own seat.
 */
export function tableSeats(replay) {
  const user = currentUser();
  const players = replay.players || [null, null];
  const names = [0, 1].map((seat) => playerName(players[seat]));
  return [0, 1].map((seat) => {
    const player = players[seat];
    return {
      seat,
      name: names[seat],
      note: names[0] === names[1] ? t(`review.seat_${seat}`) : null,
      own: Boolean(user && player && player.name && !player.guest && player.name === user.name),
    };
  });
}

/** A link to one seat's review of table `id` (`seats`: tableSeats), its note beside it. */
export function seatReviewLink(id, seats, seat, attrs = {}) {
  const { name, note } = seats[seat];
  return h("span", { class: "review-seat" },
    h("a", { href: href.review(id, seat), "data-seat": String(seat), ...attrs }, t("review.table_link", { name })),
    note ? [" ", h("span", { class: "review-seat-note" }, note)] : null);
}

/** The review page: counts, the graph, the biggest swings and the moves that cost. */
export function renderReview(container, data, page) {
  const { review, replay, id, table = false } = data;
  // At a table between people: whose play this is, named in the third person unless it
  // is the signed-in viewer's own.
  const seats = table ? tableSeats(replay) : null;
  const seat = table ? seats[data.seat === 1 ? 1 : 0] : null;
  const say = (key, params = {}) => (seat && !seat.own ? t(`${key}_of`, { ...params, name: seat.name }) : t(key, params));
  const decisions = review.decisions || [];
  const steps = replay.steps || [];
  const counts = review.counts || {};
  const countItem = (mark) => h("li", { class: `review-count mark-${mark}`, "data-testid": `review-count-${mark}`, "data-count": String(counts[mark] || 0) },
    plural(`review_${mark}`, counts[mark] || 0));
  const first = decisions.length ? decisions[0].chance : null;
  const last = decisions.length ? decisions[decisions.length - 1].chance : null;
  const label = say("review.graph_label", { count: plural("decisions", decisions.length), first: pct(first), last: pct(last) });
  const swings = (review.swings || []).filter((i) => i >= 0 && i < decisions.length);
  const costly = decisions.filter((decision) => decision.mark === "inaccuracy" || decision.mark === "mistake");
  container.replaceChildren(
    h("div", { class: "page review", "data-testid": "review-page" },
      h("header", { class: "page-head" },
        h("h1", { class: "page-title", "data-testid": "page-title", "data-seat": seat ? String(seat.seat) : null },
          seat ? t("review.table_title", { name: seat.name }) : t("review.title")),
        seat && seat.note ? h("p", { class: "page-sub review-seat-note", "data-testid": "review-seat-note" }, seat.note) : null,
        h("p", { class: "page-sub review-links" },
          h("a", { href: href.replay(page.arg, 0, table), "data-testid": "review-replay-link" }, t("review.whole_replay")),
          // The other player's review, a click away.
          seat ? [h("span", { "aria-hidden": "true" }, " · "), seatReviewLink(id, seats, 1 - seat.seat, { "data-testid": "review-other-link" })] : null)),
      h("ul", { class: "review-counts", "data-testid": "review-counts" }, ["good", "inaccuracy", "mistake"].map(countItem)),
      h("section", { class: "review-section" },
        h("h2", {}, say("review.graph_title")),
        decisions.length ? graph(decisions, label) : h("p", { class: "page-note" }, say("review.no_decisions"))),
      swings.length
        ? h("section", { class: "review-section" },
            h("h2", {}, t("review.swings")),
            h("ol", { class: "review-list", "data-testid": "review-swings" },
              swings.map((i) => {
                const decision = decisions[i];
                const before = i > 0 ? decisions[i - 1].chance : null;
                return h("li", { class: "review-item", "data-testid": "review-swing", "data-index": String(decision.index), "data-action": JSON.stringify(decision.action) },
                  h("span", {}, say(before === null ? "review.swing_first" : "review.swing", {
                    round: decision.round, move: moveName(decision.action), before: pct(before), after: pct(decision.chance),
                  })), " ", stepLink(id, steps, decision.index, "review-swing-link", table));
              })))
        : null,
      h("section", { class: "review-section" },
        h("h2", {}, t("review.costly")),
        costly.length
          ? h("ol", { class: "review-list", "data-testid": "review-costly" },
              costly.map((decision) =>
                h("li", { class: `review-item mark-${decision.mark}`, "data-testid": "review-costly-item", "data-mark": decision.mark, "data-index": String(decision.index), "data-action": JSON.stringify(decision.action) },
                  h("span", { class: `review-tag mark-${decision.mark}` }, t(`review.mark.${decision.mark}`)), " ",
                  h("span", {}, say("review.costly_line", {
                    round: decision.round,
                    move: moveName(decision.action),
                    best: moveName(decision.best),
                    points: plural("pct_points", pctPoints(decision.loss)),
                  })), " ", stepLink(id, steps, decision.index, "review-costly-link", table))))
          : h("p", { class: "page-note", "data-testid": "review-clean" }, t("review.clean")))),
  );
}
