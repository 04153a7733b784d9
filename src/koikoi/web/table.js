// The table: both players' areas, the field and the stock, the hand, and the sheets
// for a two-card choice and the stop/koi-koi decision. Rendered whole from a view
// (the state as shown, which events move step by step) and the local UI state.

import { cardBack, cardButton, cardName, matchesOf } from "./cards.js";
import { riskChoices, riskMeter } from "./coach.js";
import { h, icon } from "./dom.js";
import { sumValues } from "./engine/points.js";
import { isolate, list, num, plural, t } from "./i18n.js";
import { sortYaku } from "./rulesinfo.js";
import { PACES, pace, reducedMotion } from "./settings.js";

const KINDS = ["bright", "animal", "ribbon", "plain"];
export const SEAT_YOU = 0;
export const SEAT_CPU = 1;

// At a table between two people, the opponent ({name, guest}); null against the computer.
let person = null;

/** Play a person (`opponent`: {name, guest} from the table) or, with null, the computer:
 * the names and the texts that speak of the other seat follow. */
export function setOpponent(opponent) {
  person = opponent ? { name: opponent.name || null, guest: Boolean(opponent.guest) } : null;
}

/** Who, in the words of the table ("You", "Computer", the opponent's name or "Guest"). */
export function who(seat) {
  if (seat === SEAT_YOU) return t("ui.you");
  if (!person) return t("ui.computer");
  return person.name ? isolate(person.name) : t("ui.guest");
}

function yakuLabel(key, points) {
  return t("ui.yaku_chip", { yaku: t(`yaku.${key}`), points: plural("points", points) });
}

/** A seat's yaku with their points, as one list ("Red poems · 5 points and ..."). */
export function yakuText(yaku) {
  return list(sortYaku(yaku).map(([key, points]) => yakuLabel(key, points)));
}

/** The seat in message keys: "you", "cpu" (the computer) or "opp" (a person). */
export const side = (seat) => (seat === SEAT_YOU ? "you" : person ? "opp" : "cpu");

/** A play or a draw in words: who, which card, and what it took. */
export function moveText(event) {
  const key = `log.${side(event.seat)}.${event.type}.${event.captured.length ? "take" : "place"}`;
  return t(key, { card: cardName(event.card), captured: list(event.captured.map(cardName)), name: who(SEAT_CPU) });
}

// -- the parts --------------------------------------------------------------------

function descriptions() {
  // Texts that aria-describedby points at: a card's state, said after its name.
  return h(
    "div",
    { hidden: true },
    h("span", { id: "desc-can-capture" }, t("ui.card_state.can_capture")),
    h("span", { id: "desc-capturable" }, t("ui.card_state.capturable")),
    h("span", { id: "desc-must-capture" }, t("ui.card_state.must_capture")),
    h("span", { id: "desc-not-your-turn" }, t("ui.card_state.wait")),
  );
}

function kindIcon(kind) {
  return h("span", { class: `kind-icon kind-${kind}`, "aria-hidden": "true" });
}

function rovingKeys(event) {
  const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(event.key in keys)) return;
  const group = event.currentTarget;
  const items = [...group.querySelectorAll(".card")];
  const index = items.indexOf(document.activeElement);
  if (index < 0) return;
  let step = keys[event.key];
  if (getComputedStyle(group).direction === "rtl" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) step = -step;
  const next = items[(index + step + items.length) % items.length];
  for (const item of items) item.tabIndex = item === next ? 0 : -1;
  next.focus();
  event.preventDefault();
}

/** A capture pile by kind: counts, and the cards small and overlapping (one tab stop). */
export function piles(captured, seat) {
  const groups = KINDS.map((kind) => {
    const cards = captured[kind] || [];
    const label = t("ui.pile_label", { kind: t(`kind.${kind}`), count: cards.length });
    const minis = cards.map((slug, i) => h("span", { class: "pile-slot" }, cardButton(slug, { size: "mini", tabIndex: i === 0 ? 0 : -1 })));
    return h(
      "div",
      {
        class: `pile pile-${kind}`,
        role: "group",
        "aria-label": label,
        "data-kind": kind,
        "data-count": cards.length,
        "data-testid": `pile-${seat === SEAT_YOU ? "you" : "cpu"}-${kind}`,
        onkeydown: rovingKeys,
      },
      // The group's name says kind and count; the head shows them (the icon helps scanning).
      h("span", { class: "pile-head", title: t(`kind.${kind}`), "aria-hidden": "true" },
        kindIcon(kind), h("span", { class: "pile-kind" }, t(`kind.${kind}`)), h("b", { class: "pile-count" }, num(cards.length))),
      h("span", { class: "pile-cards" }, minis),
    );
  });
  return h("div", { class: "piles" }, groups);
}

/** One step toward a yaku in words: "1 more ribbon: Tan", "needs the moon and the sake cup: Tsukimi". */
export function progressText(entry) {
  const yaku = t(`yaku.${entry.yaku}`);
  if (entry.cards && entry.cards.length) return t("progress.cards", { cards: list(entry.cards.map(cardName)), yaku });
  return plural(`progress_${entry.kind || "any"}`, entry.missing, { yaku });
}

/** The yaku a seat is nearest to (from the server's `progress`; nothing until it sends it). */
function progressList(view, seat) {
  const entries = view.progress ? view.progress[seat] || [] : [];
  if (!entries.length) return null;
  return h(
    "ul",
    { class: "progress", "aria-label": t(`progress.of.${side(seat)}`, { name: who(SEAT_CPU) }), "data-testid": `progress-${seat === SEAT_YOU ? "you" : "cpu"}` },
    entries.map((entry) => {
      const text = progressText(entry);
      return h("li", { class: "progress-item", "data-yaku": entry.yaku, title: text }, text);
    }),
  );
}

function yakuChips(yaku, seat) {
  const entries = sortYaku(yaku);
  const label = t(`ui.yaku_of.${side(seat)}`, { name: who(SEAT_CPU) });
  if (!entries.length) return h("ul", { class: "chips", "aria-label": label }, h("li", { class: "chip chip-empty" }, t("ui.no_yaku")));
  return h(
    "ul",
    { class: "chips", "aria-label": label, "data-testid": seat === SEAT_YOU ? "yaku-you" : "yaku-cpu" },
    entries.map(([key, points]) => h("li", { class: "chip", title: t(`yaku.${key}.desc`), "data-yaku": key }, yakuLabel(key, points))),
  );
}

/** A seat's move clock (a person's table): seconds left while it is to move, else nothing. */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return t("table.clock", { time: `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}` });
}

function seatClock(seat, table) {
  if (!table) return null;
  const parts = [];
  if (table.toMove === seat && table.clock !== null) {
    const left = table.clock();
    parts.push(h("span", {
      class: `tag tag-clock ${left <= 10 ? "is-low" : ""}`,
      "data-testid": seat === SEAT_YOU ? "clock-you" : "clock-cpu",
      "data-clock": "true",
      role: "timer",
      title: t("table.clock_hint"),
    }, clockText(left)));
  }
  const missed = table.timeouts[seat] || 0;
  if (missed) {
    parts.push(h("span", { class: "tag tag-timeouts", "data-testid": seat === SEAT_YOU ? "timeouts-you" : "timeouts-cpu", title: t("table.timeouts_hint", { max: table.max }) },
      t("table.timeouts", { n: missed, max: table.max })));
  }
  return parts;
}

function sideHead(view, seat, table) {
  const calls = view.calls[seat] || 0;
  return h(
    "div",
    { class: "side-head" },
    h("span", { class: "who" }, who(seat)),
    h("span", { class: "match-points", "data-testid": seat === SEAT_YOU ? "score-you" : "score-cpu", title: t("ui.match_points"), "aria-label": t("ui.match_points_of", { points: view.totals[seat] }) }, num(view.totals[seat])),
    view.dealer === seat ? h("span", { class: "tag tag-dealer", title: t("ui.dealer_hint") }, t("ui.dealer")) : null,
    calls ? h("span", { class: "tag tag-koikoi", "data-testid": seat === SEAT_YOU ? "calls-you" : "calls-cpu" }, plural("koikoi_calls", calls)) : null,
    seatClock(seat, table),
    yakuChips(view.yaku[seat], seat),
  );
}

function opponentArea(view, table) {
  const n = view.opponent_hand;
  const backs = [];
  for (let i = 0; i < n; i += 1) backs.push(cardBack("opp-back"));
  const cpuMult = view.opponent_multiplier;
  return h(
    "section",
    { class: `side side-cpu ${view.turn === SEAT_CPU && !view.over ? "is-turn" : ""}`, "aria-label": t(person ? "ui.opponent_area" : "ui.computer_area", { name: who(SEAT_CPU) }) },
    h(
      "div",
      { class: "side-row" },
      sideHead(view, SEAT_CPU, table),
      cpuMult !== view.multiplier ? h("span", { class: "tag tag-mult", title: t(person ? "ui.multiplier_opp_hint" : "ui.multiplier_cpu_hint", { name: who(SEAT_CPU) }) }, t("ui.multiplier_short", { n: cpuMult })) : null,
      h("div", { class: "opp-hand", id: "opp-hand", role: "img", "data-testid": "opponent-hand", "data-count": n, "aria-label": plural(person ? "person_hand" : "opponent_hand", n, { name: who(SEAT_CPU) }) }, backs),
    ),
    piles(view.captured[SEAT_CPU], SEAT_CPU),
    progressList(view, SEAT_CPU),
  );
}

function playerArea(view, table) {
  return h(
    "section",
    { class: `side side-you ${view.turn === SEAT_YOU && !view.over ? "is-turn" : ""}`, "aria-label": t("ui.your_area") },
    h("div", { class: "side-row" }, sideHead(view, SEAT_YOU, table)),
    piles(view.captured[SEAT_YOU], SEAT_YOU),
    progressList(view, SEAT_YOU),
  );
}

/** The pace button: one tap to the next pace (instant, fast, normal, slow), remembered. */
function paceButton(handlers) {
  const index = Math.max(0, PACES.indexOf(pace()));
  const name = t(`settings.pace.${index}`);
  return h("button", {
    type: "button",
    class: "sb-btn sb-pace",
    "data-testid": "pace-button",
    "data-pace": String(PACES[index]),
    "aria-label": t("ui.pace_button", { pace: name }),
    title: t("ui.pace_button", { pace: name }),
    onclick: handlers.onPace,
  }, h("span", { class: "sb-pace-icon", "aria-hidden": "true" }), h("span", { class: "sb-btn-text" }, name));
}

/** The coach's hint button (a practice match on the server, the player to move). */
function hintButton(ui, handlers) {
  if (!ui.coach || !ui.coach.canHint) return null;
  return h("button", {
    type: "button",
    class: "sb-btn sb-hint",
    "data-testid": "hint-button",
    "aria-label": t("coach.hint_label"),
    "aria-keyshortcuts": "H",
    title: t("coach.hint_label"),
    onclick: handlers.onHint,
  }, icon("hint"), h("span", { class: "sb-btn-text" }, t("coach.hint")));
}

function scorebar(view, handlers, table, ui = {}) {
  const parts = [
    // At a person's table, a live connection in trouble says so first.
    table && table.notice ? h("span", { class: "live-notice", role: "status", "data-testid": "live-notice" }, table.notice) : null,
    h("span", { class: "sb-round", "data-testid": "round" }, t("ui.round_of", { round: view.round, rounds: view.rounds })),
  ];
  if (view.target_score) parts.push(h("span", { class: "sb-target" }, t("ui.target", { points: view.target_score })));
  // Ranked or not, throughout the match: whether its result moves the rating (unranked
  // is practice against the computer, friendly against a person).
  parts.push(h("span", { class: view.ranked ? "sb-kind is-ranked" : "sb-kind", "data-testid": "match-kind" }, t(view.ranked ? "match_kind.ranked" : table ? "match_kind.table_friendly" : "match_kind.friendly")));
  parts.push(h("span", { class: "sb-mult", "data-testid": "multiplier", title: t("ui.multiplier_hint") }, t("ui.multiplier", { n: view.multiplier })));
  // multiplier = additive: the points your own calls add to a stop.
  if (view.bonus > 0) parts.push(h("span", { class: "sb-mult sb-bonus", "data-testid": "bonus", title: t("ui.bonus_hint") }, t("ui.bonus", { n: view.bonus })));
  // The log as a drawer: on windows too small to show it beside the table (CSS hides the button where it is shown).
  parts.push(h("span", { class: "sb-tools" },
    hintButton(ui, handlers),
    paceButton(handlers),
    h("button", { type: "button", class: "sb-btn sb-log", "data-testid": "log-button", "aria-label": t("ui.log"), title: t("ui.log"), onclick: handlers.onLog },
      icon("log"), h("span", { class: "sb-btn-text" }, t("ui.log_short")))));
  return h("div", { class: "scorebar", role: "group", "aria-label": t("ui.scoreboard") }, parts);
}

export function stockPile(view) {
  const n = view.stock;
  return h(
    "div",
    { class: "stock", id: "stock", role: "img", "aria-label": plural("stock", n) },
    n > 0 ? cardBack("stock-back") : h("span", { class: "stock-empty", "aria-hidden": "true" }),
    n > 1 ? cardBack("stock-back stock-back-2") : null,
    h("span", { class: "stock-count", "data-testid": "stock-count", "data-count": n, "aria-hidden": "true" }, num(n)),
  );
}

/** The card the coach's hint plays or takes, marked where it lies (null: none). */
const pickOf = (ui) => (ui.coach && ui.coach.pick) || null;

function field(view, ui, handlers) {
  const selected = ui.selected && view.phase === "play" ? ui.selected : null;
  const targets = new Set();
  if (selected) for (const slug of matchesOf(selected, view.field)) targets.add(slug);
  if (view.staged) for (const slug of view.staged.targets || []) targets.add(slug);
  const choosing = !ui.busy && view.your_turn && (view.phase === "hand-choice" || view.phase === "draw-choice");
  if (choosing) for (const slug of view.choices || []) targets.add(slug);
  const cards = view.field.map((slug) => {
    if (!slug) return h("span", { class: "field-slot", "aria-hidden": "true" });
    const isTarget = targets.has(slug);
    return cardButton(slug, {
      testid: "field-card",
      cls: `${isTarget ? "target" : ""} ${choosing && ui.selected === slug ? "selected" : ""} ${pickOf(ui) === slug ? "coach-pick" : ""}`,
      describedBy: isTarget ? "desc-capturable" : null,
      onClick: handlers.onFieldCard,
    });
  });
  return h("div", { class: "field", id: "field", role: "group", "data-testid": "field", "aria-label": plural("field", view.field.filter(Boolean).length) }, cards);
}

function stage(view) {
  if (!view.staged) return null;
  const { slug, seat, source } = view.staged;
  const caption = t(`ui.staged.${side(seat)}.${source}`, { name: who(SEAT_CPU) });
  return h(
    "div",
    { class: `staged staged-${source} staged-seat-${seat}`, "data-testid": "staged" },
    h("span", { class: "staged-caption" }, caption),
    cardButton(slug, { size: "big", cls: "staged-card", tabIndex: -1 }),
  );
}

function handArea(view, ui, handlers) {
  const playing = view.phase === "play" && view.your_turn && !ui.busy && !view.over;
  const legal = new Set((view.legal || []).filter((a) => a.play).map((a) => a.play));
  const cards = view.hand.map((slug) => {
    const canCapture = matchesOf(slug, view.field).length > 0;
    const allowed = playing && legal.has(slug);
    const describedBy = !playing ? "desc-not-your-turn" : !allowed ? "desc-must-capture" : canCapture ? "desc-can-capture" : null;
    return cardButton(slug, {
      size: "hand",
      testid: "hand-card",
      pressed: ui.selected === slug && playing,
      cls: `${ui.selected === slug && playing ? "selected" : ""} ${canCapture ? "can-capture" : ""} ${playing && !allowed ? "illegal" : ""} ${pickOf(ui) === slug ? "coach-pick" : ""}`,
      describedBy,
      disabled: !allowed,
      onClick: handlers.onHandCard,
    });
  });
  const columns = view.hand.length > 8 ? Math.ceil(view.hand.length / Math.ceil(view.hand.length / 8)) : Math.max(view.hand.length, 1);
  return h("div", { class: "hand", id: "hand", role: "group", "data-testid": "hand", "aria-label": plural("hand", view.hand.length), style: { "--cols": String(columns) } }, cards);
}

export function statusText(view, ui) {
  // A status set by the game flow is a function: written anew in the language of the moment.
  if (ui.status) return ui.status();
  if (view.over) return t("status.over");
  if (ui.waiting) return t(person ? "status.sending" : "status.thinking");
  if (ui.busy) return "";
  if (!view.your_turn) return person ? t("status.opp_turn", { name: who(SEAT_CPU) }) : t("status.cpu_turn");
  switch (view.phase) {
    case "play":
      return ui.selected ? t("status.confirm_play", { card: cardName(ui.selected) }) : t("status.your_turn");
    case "over":
      return t("status.round_over");
    case "hand-choice":
      return t("status.hand_choice", { card: cardName(view.pending) });
    case "draw-choice":
      return t("status.draw_choice", { card: cardName(view.pending) });
    case "decision":
      return t("status.decision");
    default:
      return "";
  }
}

function actionbar(view, ui, handlers) {
  const playing = view.phase === "play" && view.your_turn && !ui.busy && !view.over;
  return h(
    "div",
    { class: "actionbar" },
    h("p", { class: `status ${ui.waiting ? "is-waiting" : ""}`, "data-testid": "status" },
      statusText(view, ui),
      playing && ui.selected ? h("span", { class: "status-hint" }, t("status.confirm_hint")) : null),
    playing
      ? h("div", { class: "actions" },
          ui.selected ? h("button", { type: "button", class: "btn btn-ghost", onclick: handlers.onCancel, "data-testid": "cancel-button" }, t("ui.cancel")) : null,
          h("button", {
            type: "button",
            class: "btn btn-primary",
            "data-testid": "confirm-button",
            disabled: !ui.selected,
            onclick: handlers.onConfirm,
            "aria-label": ui.selected ? t("ui.play_card", { card: cardName(ui.selected) }) : t("ui.play"),
          }, t("ui.play")))
      : null,
  );
}

// -- sheets -----------------------------------------------------------------------

function choiceSheet(view, ui, handlers) {
  const pending = view.pending;
  const title = view.phase === "hand-choice" ? t("choice.title.hand", { card: cardName(pending) }) : t("choice.title.draw", { card: cardName(pending) });
  const sheet = h(
    "section",
    { class: "sheet sheet-choice", role: "region", "aria-labelledby": "choice-title", "data-testid": "choice-sheet", "data-key": `${view.phase}:${pending}` },
    h("div", { class: "sheet-in" },
    h("h2", { id: "choice-title", class: "sheet-title" }, title),
    h(
      "div",
      { class: "choice-row" },
      h("div", { class: "choice-pending" },
        h("span", { class: "choice-caption" }, view.phase === "hand-choice" ? t("choice.played") : t("choice.drawn")),
        cardButton(pending, { size: "big", cls: "pending-card", testid: "pending-card", noFlip: true })),
      h("span", { class: "choice-arrow", "aria-hidden": "true" }),
      h("div", { class: "choice-options", role: "group", "aria-label": t("choice.options") },
        view.choices.map((slug) =>
          cardButton(slug, {
            size: "big",
            testid: "choice-card",
            pressed: false,
            noFlip: true,
            cls: pickOf(ui) === slug ? "coach-pick" : "",
            onClick: handlers.onChoice,
          }))),
    ),
    h("p", { class: "sheet-note" }),
    h("div", { class: "sheet-actions" },
      h("button", { type: "button", class: "btn btn-primary", "data-testid": "confirm-button", onclick: handlers.onConfirm }, t("choice.take")))),
  );
  showChoice(sheet, view, ui);
  return sheet;
}

/** Mark the option chosen (on the sheet and the field) without drawing anything anew:
 * the sheet stays the same element, so its entrance does not play again. */
function showChoice(root, view, ui) {
  const selected = ui.selected && view.choices.includes(ui.selected) ? ui.selected : null;
  for (const card of root.querySelectorAll("[data-testid=choice-card], [data-testid=field-card].target")) {
    const on = card.dataset.slug === selected;
    card.classList.toggle("selected", on);
    if (card.dataset.testid === "choice-card") card.setAttribute("aria-pressed", String(on));
  }
  const note = root.querySelector(".sheet-choice .sheet-note");
  if (note) note.textContent = selected ? t("choice.confirm_hint", { card: cardName(selected) }) : t("choice.hint");
  const confirm = root.querySelector(".sheet-choice [data-testid=confirm-button]");
  if (confirm) {
    confirm.disabled = !selected;
    confirm.setAttribute("aria-label", selected ? t("choice.take_card", { card: cardName(selected) }) : t("choice.take"));
  }
}

/** A choice selected or cleared: only the marks change; false when there is no sheet to update. */
export function updateChoice(container, view, ui) {
  const sheet = container.querySelector("[data-testid=choice-sheet]");
  if (!sheet || sheet.dataset.key !== `${view.phase}:${view.pending}`) return false;
  showChoice(container, view, ui);
  return true;
}

/** A key that does the same as a button, shown where there is a keyboard (CSS). */
function keyHint(key) {
  return h("kbd", { class: "key-hint", "aria-hidden": "true" }, key);
}

function decisionSheet(view, ui, handlers) {
  const mine = view.yaku[SEAT_YOU] || {};
  const base = sumValues(mine);
  const rules = view.rules;
  const doubled = view.stake_doubled;
  const nextMult = view.koikoi_multiplier;
  const bonus = view.bonus || 0;
  const nextBonus = view.koikoi_bonus || 0;
  // What one more call would change: a higher multiplier (which may replace the
  // additive bonus), or a higher bonus.
  let next = "";
  if (nextMult > view.multiplier && bonus > nextBonus) next = t("decision.bonus_to_multiplier", { bonus, n: nextMult });
  else if (nextMult > view.multiplier) next = t("decision.next_multiplier", { n: nextMult });
  else if (nextBonus > bonus) next = t("decision.next_bonus", { n: nextBonus });
  // The coach's risk meter (a practice match on the server): what each choice gives.
  const coach = ui.coach && ui.coach.risk ? ui.coach.risk : null;
  const choices = riskChoices(coach);
  const badge = (which) => (choices && choices.pick === which ? h("span", { class: "pick-badge", "data-testid": "pick-badge" }, t("risk.pick")) : null);
  const rows = sortYaku(mine).map(([key, points]) =>
    h("li", { class: "yaku-row" }, h("span", { class: "yaku-name" }, t(`yaku.${key}`)), h("span", { class: "yaku-points" }, plural("points", points))));
  return h(
    "section",
    { class: coach ? "sheet sheet-decision has-risk" : "sheet sheet-decision", role: "region", "aria-labelledby": "decision-title", "data-testid": "decision-sheet", "data-key": `decision:${view.round}:${view.hand.length}` },
    h("div", { class: "sheet-in" },
    h("h2", { id: "decision-title", class: "sheet-title" }, t("decision.title")),
    h("ul", { class: "yaku-list decision-yaku" }, rows),
    h("dl", { class: "stake-lines" },
      h("div", {}, h("dt", {}, t("decision.total")), h("dd", {}, plural("points", base))),
      doubled ? h("div", {}, h("dt", {}, t("decision.doubled")), h("dd", {}, t("decision.doubled_value", { points: rules.double_at }))) : null,
      h("div", {}, h("dt", {}, t("decision.multiplier")), h("dd", { "data-testid": "decision-multiplier" }, t("ui.multiplier_short", { n: view.multiplier }))),
      bonus > 0 ? h("div", {}, h("dt", {}, t("decision.bonus")), h("dd", { "data-testid": "decision-bonus" }, t("ui.bonus_short", { n: bonus }))) : null,
      h("div", { class: "stake" }, h("dt", {}, t("decision.stake")), h("dd", { "data-testid": "stake" }, plural("points", view.stake ?? 0)))),
    coach ? riskMeter(coach, who(SEAT_CPU)) : null,
    h("p", { class: "sheet-note", id: "decision-risk" }, t(person ? "decision.risk_opp" : "decision.risk", { name: who(SEAT_CPU) }), " ", next),
    view.hand.length
      ? h("div", { class: "decision-hand", role: "group", "aria-label": plural("hand", view.hand.length) },
          h("span", { class: "decision-hand-label", "aria-hidden": "true" }, t("decision.hand")),
          h("span", { class: "decision-hand-cards" }, view.hand.map((slug) => cardButton(slug, { size: "mini", tabIndex: -1, noFlip: true }))))
      : null,
    h("div", { class: "sheet-actions two" },
      h("button", { type: "button", class: `btn btn-stop ${choices && choices.pick === "stop" ? "is-coach-pick" : ""}`, "data-testid": "stop-button", onclick: handlers.onStop, "aria-keyshortcuts": "S" },
        badge("stop"),
        h("span", { class: "btn-main" }, t("decision.stop"), keyHint("S")),
        choices
          ? h("span", { class: "btn-sub", "data-testid": "risk-stop" }, choices.stop)
          : h("span", { class: "btn-sub" }, t("decision.stop_sub", { points: plural("points", view.stake ?? 0) }))),
      h("button", { type: "button", class: `btn btn-koikoi ${choices && choices.pick === "koikoi" ? "is-coach-pick" : ""}`, "data-testid": "koikoi-button", onclick: handlers.onKoikoi, "aria-keyshortcuts": "K", "aria-describedby": "decision-risk" },
        badge("koikoi"),
        h("span", { class: "btn-main" }, t("decision.koikoi"), keyHint("K")),
        choices
          ? h("span", { class: "btn-sub", "data-testid": "risk-call" }, choices.call)
          : h("span", { class: "btn-sub" }, t("decision.koikoi_sub"))))),
  );
}

function banner(ui) {
  if (!ui.banner) return null;
  return h("div", { class: `banner banner-${ui.banner.kind}`, "data-testid": "banner" }, ui.banner.text());
}

export function logList(log) {
  return h("ol", { class: "log-list", "data-testid": "log" }, log.slice(-60).reverse().map((entry) => h("li", { class: `log-${entry.kind || "info"}` }, entry.text())));
}

function logPanel(log) {
  return h("aside", { class: "log", "aria-label": t("ui.log") }, h("h2", { class: "log-title" }, t("ui.log")), logList(log));
}

// -- the whole table --------------------------------------------------------------

/**
 * The table is one grid whose areas the stylesheet arranges by the space there is:
 * stacked on phones (a sheet takes the hand's place), the two sides beside the board on
 * phones held sideways (a sheet takes the bottom row), and on wider windows the sides in
 * a column, the board and hand in the middle and a rail with the sheet and the log.
 * `extras`, at a table between two people: {toMove (the seat whose clock runs), clock()
 * (its seconds left, or null), timeouts, max, notice (the live connection's trouble)}.
 */
export function renderTable(container, view, ui, handlers, log, extras = null) {
  const board = h(
    "section",
    { class: "board", "aria-label": t("ui.board") },
    stockPile(view),
    field(view, ui, handlers),
    stage(view),
    banner(ui),
  );
  const sheetWanted = !ui.busy && view.your_turn && !view.over;
  let sheet = null;
  if (sheetWanted && (view.phase === "hand-choice" || view.phase === "draw-choice") && view.pending) sheet = choiceSheet(view, ui, handlers);
  else if (sheetWanted && view.phase === "decision") sheet = decisionSheet(view, ui, handlers);
  const table = h(
    "div",
    { class: "table", "data-phase": view.phase, "data-turn": view.turn, "data-busy": ui.busy ? "true" : "false", "data-sheet": sheet ? "true" : "false" },
    descriptions(),
    scorebar(view, handlers, extras, ui),
    opponentArea(view, extras),
    board,
    playerArea(view, extras),
    actionbar(view, ui, handlers),
    handArea(view, ui, handlers),
    h("div", { class: "rail" }, sheet, logPanel(log)),
  );
  const before = animating() ? snapshot(container) : null;
  const focusKey = focusedKey();
  // A sheet enters once, when it comes: drawn again (a language, a setting), it just stays.
  const old = container.querySelector(".sheet");
  if (sheet && !(old && old.dataset.key === sheet.dataset.key)) sheet.classList.add("is-entering");
  container.replaceChildren(table);
  fitField(table);
  restoreFocus(container, focusKey, sheet);
  if (before) flip(container, before);
}

// -- the field's cards as large as its box allows ------------------------------------------

const fitted = new ResizeObserver((entries) => {
  for (const entry of entries) fitField(entry.target.closest(".table"));
});

/**
 * The field's card width: the largest at which all its cards (and the stock beside them)
 * fit the board in some number of rows, so the field never scrolls and fills what the
 * layout leaves it, whatever the window.
 */
function fitField(table) {
  if (!table || !table.isConnected) return;
  const board = table.querySelector(".board");
  const fieldBox = table.querySelector(".field");
  if (!board || !fieldBox) return;
  fitted.observe(board);
  const style = getComputedStyle(board);
  const gap = parseFloat(style.columnGap) || 6;
  const width = board.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const height = board.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const count = Math.max(fieldBox.children.length, 1);
  let best = 0;
  for (let rows = 1; rows <= count; rows += 1) {
    const cols = Math.ceil(count / rows);
    // The stock takes one card's width (and a little) beside the field; the field pads 6px.
    const byWidth = (width - 10 - gap - cols * gap) / (cols + 1);
    const byHeight = (height - 14 - (rows - 1) * gap) / rows / 1.6;
    best = Math.max(best, Math.min(byWidth, byHeight));
  }
  const size = `${Math.max(18, Math.min(Math.floor(best), 130))}px`;
  if (board.style.getPropertyValue("--field-w") !== size) board.style.setProperty("--field-w", size);
  board.style.setProperty("--board-h", `${Math.floor(height)}px`);
}

// -- focus kept across re-renders ---------------------------------------------------

function focusedKey() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  const testid = active.getAttribute("data-testid");
  const slug = active.getAttribute("data-slug");
  return { testid, slug };
}

function restoreFocus(container, key, sheet) {
  const sheetControls = ["choice-card", "confirm-button", "stop-button", "koikoi-button"];
  if (sheet && !(key && sheetControls.includes(key.testid))) {
    // A choice to make: focus goes to it.
    const first = sheet.querySelector("[data-testid=choice-card], [data-testid=stop-button]");
    if (first) {
      first.focus({ preventScroll: true });
      return;
    }
  }
  if (!key) return;
  let target = null;
  if (key.slug && key.testid) target = container.querySelector(`[data-testid="${key.testid}"][data-slug="${CSS.escape(key.slug)}"]`);
  else if (key.testid) target = container.querySelector(`[data-testid="${key.testid}"]`);
  if (!target && (key.testid === "hand-card" || key.testid === "confirm-button" || key.testid === "choice-card")) {
    target = container.querySelector("[data-testid=hand-card]");
  }
  if (target) target.focus({ preventScroll: true });
}

// -- movement: cards glide from where they were to where they are now (FLIP) ----------

function animating() {
  return pace() > 0 && !reducedMotion();
}

function snapshot(container) {
  const rects = new Map();
  for (const element of container.querySelectorAll(".card[data-slug]:not([data-noflip])")) {
    if (!rects.has(element.dataset.slug)) rects.set(element.dataset.slug, element.getBoundingClientRect());
  }
  const from = {};
  for (const id of ["opp-hand", "stock", "hand"]) {
    const element = container.querySelector(`#${id}`);
    if (element) from[id] = element.getBoundingClientRect();
  }
  return { rects, from };
}

function flip(container, before) {
  const duration = 380 * Math.min(pace(), 1.4);
  for (const element of container.querySelectorAll(".card[data-slug]:not([data-noflip])")) {
    let old = before.rects.get(element.dataset.slug);
    if (!old && element.classList.contains("staged-card")) {
      const stagedFrom = element.closest(".staged-seat-1.staged-play") ? before.from["opp-hand"] : element.closest(".staged-draw") ? before.from.stock : null;
      old = stagedFrom;
    }
    if (!old) continue;
    const now = element.getBoundingClientRect();
    if (!now.width || !old.width) continue;
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(old.width - now.width) < 1) continue;
    const sx = old.width / now.width;
    const sy = old.height / now.height;
    element.animate(
      [
        { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
        { transformOrigin: "0 0", transform: "none" },
      ],
      { duration, easing: "cubic-bezier(.2,.7,.2,1)" },
    );
  }
}
