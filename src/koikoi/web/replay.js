// The replay viewer: a finished match step by step, both hands face up. Each step is
// the table after one event (a deal, a play, a draw, a call, a round's end, a resignation
// or a forfeit).

import { currentUser } from "./account.js";
import { cardButton, cardName } from "./cards.js";
import { seatReviewLink, tableSeats } from "./coach.js";
import { h, icon } from "./dom.js";
import { isolate, list, num, plural, t } from "./i18n.js";
import { levelName, rulesName } from "./pages.js";
import { playerName } from "./person.js";
import { href } from "./routes.js";
import { SEAT_CPU, SEAT_YOU, moveText, piles, side, stockPile, who, yakuText } from "./table.js";

/** The player's name when someone else watches their match; null when it is "you". */
function otherPlayer(replay) {
  const user = currentUser();
  return replay.player && !(user && user.name === replay.player) ? replay.player : null;
}

/** A seat's name where it is not "you" or "the computer": either player's at a table
 * between people, the player's when someone else watches their match; else null. */
function seatLabel(replay, seat) {
  if (replay.players) return playerName(replay.players[seat]);
  const name = otherPlayer(replay);
  return seat === SEAT_YOU && name ? isolate(name) : null;
}

/**
 * What happened in a step, in words. The player's own moves read as the game's log
 * ("You play…"); a named seat's as "<name> plays…".
 */
function eventText(replay, step) {
  const event = step.event;
  const name = seatLabel(replay, event.type === "deal" ? step.dealer : event.type === "round-over" ? event.winner : event.seat);
  const they = (kind, params = {}) => t(`replay.they.${kind}`, { name, ...params });
  switch (event.type) {
    case "deal":
      return name ? they("deal", { round: step.round }) : t(`log.deal.${side(step.dealer)}`, { round: step.round });
    case "play":
    case "draw": {
      if (!name) return moveText(event);
      return they(`${event.type}.${event.captured.length ? "take" : "place"}`, { card: cardName(event.card), captured: list(event.captured.map(cardName)) });
    }
    case "koikoi":
    case "stop":
      return name ? they(event.type) : t(`log.${event.type}.${side(event.seat)}`);
    case "round-over": {
      if (event.winner === null) return t("log.round.draw", { round: step.round });
      const points = plural("points", event.points[event.winner]);
      return name ? they("round", { round: step.round, points }) : t(`log.round.${side(event.winner)}`, { round: step.round, points });
    }
    case "resign":
      return name ? they("resign") : t("log.resign.you");
    case "forfeit":
      return t("log.forfeit.opp", { name });
    default:
      return "";
  }
}

function seatName(replay, seat) {
  const name = seatLabel(replay, seat);
  return name ? h("bdi", {}, name) : who(seat);
}

/** A seat: name, match points, dealer mark, the hand face up, and the capture piles. */
function seatArea(replay, step, seat, moved) {
  const hand = step.hands[seat];
  const label = seatLabel(replay, seat) || who(seat);
  return h("section", { class: `side replay-side side-${side(seat)}`, "aria-label": label, "data-testid": `replay-${side(seat)}` },
    h("div", { class: "side-row" },
      h("div", { class: "side-head" },
        h("span", { class: "who" }, seatName(replay, seat)),
        h("span", { class: "match-points", title: t("ui.match_points") }, num(step.totals[seat])),
        step.dealer === seat ? h("span", { class: "tag tag-dealer", title: t("ui.dealer_hint") }, t("ui.dealer")) : null)),
    h("div", { class: "replay-hand", role: "group", "aria-label": t("replay.hand"), "data-testid": `replay-hand-${side(seat)}` },
      hand.map((slug) => cardButton(slug, { size: "mini", tabIndex: -1, noFlip: true, cls: moved.has(slug) ? "moved" : "" }))),
    piles(step.captured[seat], seat));
}

function stepView(replay, step) {
  const event = step.event;
  const moved = new Set(event.card ? [event.card, ...(event.captured || [])] : []);
  const yaku = event.type === "round-over" ? [SEAT_YOU, SEAT_CPU].filter((seat) => Object.keys(event.yaku[seat] || {}).length) : [];
  return [
    ...yaku.map((seat) => h("p", { class: "replay-yaku" }, h("span", { class: "who" }, seatName(replay, seat)), " ", yakuText(event.yaku[seat]))),
    h("div", { class: "scorebar" }, h("span", { "data-testid": "replay-round" }, t("ui.round_of", { round: step.round, rounds: replay.rules.rounds }))),
    seatArea(replay, step, SEAT_CPU, moved),
    h("section", { class: "board replay-table", "aria-label": t("ui.board") },
      stockPile({ stock: step.stock }),
      h("div", { class: "field", role: "group", "aria-label": plural("field", step.field.length), "data-testid": "replay-field" },
        step.field.map((slug) => cardButton(slug, { tabIndex: -1, noFlip: true, cls: moved.has(slug) ? "moved" : "" })))),
    seatArea(replay, step, SEAT_YOU, moved),
  ];
}

/** The coach's reviews of the match: one against the computer's, or at a table between
 * people one per player (the signed-in viewer's own first). */
function reviewLinks(replay, position) {
  if (!position.table && !replay.players) {
    return h("p", { class: "page-sub" }, h("a", { class: "link-btn", href: href.review(position.arg), "data-testid": "review-link" }, t("review.link")));
  }
  if (!position.table) return null; // (a table's match is reviewed by its table's id)
  const seats = tableSeats(replay);
  const order = seats[1].own && !seats[0].own ? [1, 0] : [0, 1];
  return h("ul", { class: "page-sub review-seat-links", "data-testid": "review-links" },
    order.map((seat) => h("li", {}, seatReviewLink(position.arg, seats, seat, { class: "link-btn", "data-testid": "review-link" }))));
}

/** Draw the viewer; `position.step` (kept by the caller) is the step shown. */
export function renderReplay(container, replay, position) {
  const steps = replay.steps;
  const last = steps.length - 1;
  const line = h("p", { class: "replay-event", "aria-live": "polite", "data-testid": "replay-event" });
  const board = h("div", { class: "replay-board", "data-testid": "replay-board" });
  const counter = h("output", { class: "replay-count", for: "replay-slider", "data-testid": "replay-step" });
  const slider = h("input", { type: "range", id: "replay-slider", min: "0", max: String(Math.max(last, 0)), step: "1", "aria-label": t("replay.slider"), "data-testid": "replay-slider" });
  const button = (name, target) =>
    h("button", { type: "button", class: "icon-btn replay-btn", "data-testid": `replay-${name}`, "aria-label": t(`replay.${name}`), title: t(`replay.${name}`), onclick: () => show(target()) }, icon(name));
  const buttons = {
    first: button("first", () => 0),
    prev: button("prev", () => position.step - 1),
    next: button("next", () => position.step + 1),
    last: button("last", () => last),
  };
  // The first step of each round, for the round picker.
  const starts = new Map();
  steps.forEach((step, index) => {
    if (!starts.has(step.round)) starts.set(step.round, index);
  });
  const picker = h("select", { class: "replay-rounds", "data-testid": "replay-round-picker", "aria-label": t("replay.round_picker"), title: t("replay.round_picker") },
    [...starts.keys()].map((round) => h("option", { value: String(round) }, t("replay.round_option", { round }))));
  picker.addEventListener("change", () => show(starts.get(Number(picker.value))));
  function show(index) {
    position.step = Math.max(0, Math.min(last, index));
    const step = steps[position.step];
    picker.value = String(step.round);
    // The step in the address: a link or a reload comes back to it.
    history.replaceState(null, "", href.replay(position.arg, position.step, position.table));
    line.textContent = eventText(replay, step);
    board.replaceChildren(...stepView(replay, step));
    counter.textContent = t("replay.step", { step: position.step + 1, steps: steps.length });
    slider.value = String(position.step);
    slider.setAttribute("aria-valuetext", counter.textContent);
    // aria-disabled, not disabled: the button keeps the focus at either end.
    for (const name of ["first", "prev"]) buttons[name].setAttribute("aria-disabled", String(position.step === 0));
    for (const name of ["next", "last"]) buttons[name].setAttribute("aria-disabled", String(position.step === last));
  }
  slider.addEventListener("input", () => show(Number(slider.value)));

  const link = (name) => h("a", { href: href.player(name), "data-testid": "replay-player" }, h("bdi", {}, name));
  // Between people: both players (seat 0 opened the table) and who won; no level.
  const players = replay.players;
  const won = { won: 0, lost: 1 }[replay.outcome];
  const aborted = replay.outcome === "aborted"; // given up too soon to count: no winner named
  const names = players
    ? players.flatMap((player, seat) => [seat ? " – " : "", player && player.name && !player.guest ? link(player.name) : playerName(player)])
    : [replay.player ? link(replay.player) : who(SEAT_YOU), " · ", levelName(replay.difficulty)];
  container.replaceChildren(
    h("div", { class: "page replay", "data-testid": "replay-page" },
      h("header", { class: "page-head" },
        h("h1", { class: "page-title", "data-testid": "page-title" }, t("replay.title")),
        h("p", { class: "page-sub" },
          names, " · ", rulesName(replay.rules_name)),
        h("p", { class: "replay-result" },
          h("span", { class: `outcome outcome-${players && !aborted ? "drawn" : replay.outcome}`, "data-testid": "replay-outcome" },
            !players || aborted ? t(`outcome.${replay.outcome}`) : won === undefined ? t("summary.match.draw") : t("summary.match.opp", { name: seatLabel(replay, won) })),
          h("span", {}, t("stats.score", { you: replay.totals[0], cpu: replay.totals[1] }))),
        reviewLinks(replay, position)),
      steps.length
        ? [board,
            h("div", { class: "replay-dock" },
              line,
              h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
                buttons.first, buttons.prev, slider, buttons.next, buttons.last),
              h("div", { class: "replay-foot" }, picker, counter))]
        : h("p", { class: "page-note" }, t("replay.empty"))),
  );
  if (steps.length) show(position.step);
}
