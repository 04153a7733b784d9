// The 48 cards: their facts (from /api/cards), their buttons, and names on hover
// (title) and on a long press (touch).

import { h } from "./dom.js";
import { num, t } from "./i18n.js";

const BY_SLUG = new Map();
export const ALL = [];

export function setCards(list) {
  BY_SLUG.clear();
  ALL.length = 0;
  for (const card of list) {
    BY_SLUG.set(card.slug, card);
    ALL.push(card);
  }
}

export function info(slug) {
  return BY_SLUG.get(slug) || { slug, month: 0, flower: "", kind: "plain", id: 999 };
}

export function byId(a, b) {
  return info(a).id - info(b).id;
}

export function month(slug) {
  return info(slug).month;
}

/** The same-month field cards a card would meet. */
export function matchesOf(slug, field) {
  const m = info(slug).month;
  return field.filter((other) => other && info(other).month === m);
}

export function cardName(slug) {
  return t(`card.${slug}`);
}

/** Ribbon colour, for the stand-in card face: poetry (red, written), blue, or plain red. */
function ribbonTone(slug) {
  if (slug.endsWith("-poetry")) return "poetry";
  if (slug.endsWith("-blue")) return "blue";
  return "red";
}

/** The stand-in face shown until (or unless) the card art loads. */
function face(slug) {
  const card = info(slug);
  const tone = card.kind === "ribbon" ? ribbonTone(slug) : "";
  return h(
    "span",
    { class: "face", "aria-hidden": "true", "data-month": card.month, "data-kind": card.kind, "data-tone": tone || null },
    h("span", { class: "face-month" }, card.month ? num(card.month) : ""),
    h("span", { class: "face-motif" }),
    h("span", { class: "face-badge" }),
  );
}

function art(slug, alt) {
  const img = h("img", { class: "art", src: `/cards/${slug}.svg`, alt, draggable: "false", decoding: "async" });
  img.addEventListener("error", () => img.remove(), { once: true });
  return img;
}

/**
 * A card as a focusable button: aria-label and title carry its translated name.
 * options: testid, cls, pressed (true/false: a toggle), describedBy, disabled,
 * onClick, tabIndex, noFlip, size ("hand" | "field" | "mini" | "big").
 */
export function cardButton(slug, options = {}) {
  const name = cardName(slug);
  const card = info(slug);
  const button = h(
    "button",
    {
      type: "button",
      class: `card card-${options.size || "field"} ${options.cls || ""}`.trim(),
      "data-slug": slug,
      "data-testid": options.testid || null,
      "data-month": card.month,
      "data-kind": card.kind,
      "data-noflip": options.noFlip ? "true" : null,
      "aria-label": name,
      title: name,
      "aria-pressed": options.pressed === undefined ? null : String(Boolean(options.pressed)),
      "aria-describedby": options.describedBy || null,
      "aria-disabled": options.disabled ? "true" : null,
      tabindex: options.tabIndex === undefined ? null : String(options.tabIndex),
      onclick: options.onClick
        ? (event) => {
            if (button.getAttribute("aria-disabled") === "true") return;
            options.onClick(event, slug);
          }
        : null,
    },
    face(slug),
    art(slug, name),
  );
  return button;
}

/** A face-down card (decorative: its container says what it is). */
export function cardBack(cls = "") {
  const back = h("span", { class: `card-back ${cls}`.trim(), "aria-hidden": "true" });
  const img = h("img", { class: "art", src: "/cards/back.svg", alt: "", draggable: "false", decoding: "async" });
  img.addEventListener("error", () => img.remove(), { once: true });
  back.append(img);
  return back;
}

// -- long press: the card's name in a tooltip (touch screens have no hover) ------------

let tooltip = null;
let pressTimer = null;
let pressStart = null;
let suppressClick = false;

function hideTooltip() {
  if (tooltip) tooltip.hidden = true;
}

function showTooltip(card) {
  if (!tooltip) {
    tooltip = h("div", { class: "card-tooltip", role: "tooltip", id: "card-tooltip" });
    document.getElementById("layer").append(tooltip);
  }
  tooltip.textContent = card.getAttribute("aria-label");
  tooltip.hidden = false;
  const rect = card.getBoundingClientRect();
  const box = tooltip.getBoundingClientRect();
  const left = Math.min(Math.max(8, rect.left + rect.width / 2 - box.width / 2), window.innerWidth - box.width - 8);
  let top = rect.top - box.height - 10;
  if (top < 8) top = rect.bottom + 10;
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}

/** Install the long-press behaviour once for the whole page. */
export function installLongPress() {
  document.addEventListener("pointerdown", (event) => {
    hideTooltip();
    suppressClick = false;
    const card = event.target.closest && event.target.closest(".card");
    if (!card || event.pointerType === "mouse") return;
    pressStart = { x: event.clientX, y: event.clientY };
    clearTimeout(pressTimer);
    // A gesture timer: it reacts to a finger held down, the game never waits on it.
    pressTimer = setTimeout(() => {
      suppressClick = true;
      showTooltip(card);
    }, 500);
  });
  const cancel = () => clearTimeout(pressTimer);
  document.addEventListener("pointerup", cancel);
  document.addEventListener("pointercancel", () => {
    cancel();
    hideTooltip();
  });
  document.addEventListener("pointermove", (event) => {
    if (pressStart && Math.hypot(event.clientX - pressStart.x, event.clientY - pressStart.y) > 12) cancel();
  });
  document.addEventListener(
    "click",
    (event) => {
      if (suppressClick) {
        suppressClick = false;
        if (event.target.closest && event.target.closest(".card")) {
          event.preventDefault();
          event.stopPropagation();
        }
      }
    },
    true,
  );
  document.addEventListener("contextmenu", (event) => {
    if (event.target.closest && event.target.closest(".card")) event.preventDefault();
  });
  window.addEventListener("scroll", hideTooltip, true);
}
