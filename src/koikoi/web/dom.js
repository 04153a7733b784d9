// Small DOM helpers: element building, modal dialogs, announcements, icons.

import { t } from "./i18n.js";

/** h("button", {class: "x", onclick: f, "data-testid": "y"}, "text", child...) */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) element.style.setProperty(prop, v);
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(element) {
  while (element.firstChild) element.firstChild.remove();
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

/** svg("polyline", {points: "0,1 2,3"}, child...): an SVG element (attributes as given, text as text). */
export function svg(tag, attrs = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/** Inline icons (decorative: the control around them carries the label). */
const ICONS = {
  help: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 16.2a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6zm1.6-6.1c-.8.5-1 .8-1 1.6v.5h-2.2v-.6c0-1.5.5-2.2 1.6-2.9.9-.6 1.2-1 1.2-1.7 0-.8-.6-1.4-1.6-1.4-1 0-1.7.6-1.8 1.6H7.6C7.8 7 9.5 5.6 12 5.6s4.1 1.4 4.1 3.4c0 1.4-.8 2.3-2.5 3.1z",
  settings: "M19.4 13a7.6 7.6 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.4 7.4 0 0 0-1.7-1L15 3.3h-4l-.4 2.6a7.4 7.4 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.6 7.6 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.4 7.4 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7.4 7.4 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z",
  menu: "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z",
  hint: "M9 21h6v-1.5H9zm3-19a7 7 0 0 0-4 12.7V18h8v-3.3A7 7 0 0 0 12 2zm2.6 11.2-.6.4V16h-4v-2.4l-.6-.4a5 5 0 1 1 5.2 0z",
  close: "M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7 4.3 4.3l6.3 6.3 6.3-6.3z",
  globe: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm6.9 6h-2.9a15.7 15.7 0 0 0-1.4-3.6A8 8 0 0 1 18.9 8zM12 4a14 14 0 0 1 1.9 4h-3.8A14 14 0 0 1 12 4zM4.3 14a8.2 8.2 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4zm.8 2h2.9a15.7 15.7 0 0 0 1.4 3.6A8 8 0 0 1 5.1 16zM8 8H5.1a8 8 0 0 1 4.3-3.6A15.7 15.7 0 0 0 8 8zm4 12a14 14 0 0 1-1.9-4h3.8A14 14 0 0 1 12 20zm2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4zm.3 5.6a15.7 15.7 0 0 0 1.4-3.6h2.9a8 8 0 0 1-4.3 3.6zm1.7-5.6a16.5 16.5 0 0 0 0-4h3.4a8.2 8.2 0 0 1 0 4z",
  log: "M4 5h16v2H4zm0 4h16v2H4zm0 4h10v2H4zm0 4h10v2H4z",
  trophy: "M19 5h-2V3H7v2H5a2 2 0 0 0-2 2v1c0 2.5 1.9 4.6 4.4 4.9A5 5 0 0 0 11 15.9V19H7v2h10v-2h-4v-3.1a5 5 0 0 0 3.6-3C19.1 12.6 21 10.5 21 8V7a2 2 0 0 0-2-2zM5 8V7h2v3.8A3 3 0 0 1 5 8zm14 0a3 3 0 0 1-2 2.8V7h2z",
  person: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm0 2c-2.7 0-8 1.3-8 4v2h16v-2c0-2.7-5.3-4-8-4z",
  first: "M18.4 16.6 13.8 12l4.6-4.6L17 6l-6 6 6 6zM6 6h2v12H6z",
  prev: "M15.4 16.6 10.8 12l4.6-4.6L14 6l-6 6 6 6z",
  next: "M8.6 16.6 13.2 12 8.6 7.4 10 6l6 6-6 6z",
  last: "M5.6 7.4 10.2 12l-4.6 4.6L7 18l6-6-6-6zM16 6h2v12h-2z",
};

export function icon(name) {
  const drawing = document.createElementNS(SVG, "svg");
  drawing.setAttribute("viewBox", "0 0 24 24");
  drawing.setAttribute("aria-hidden", "true");
  drawing.setAttribute("focusable", "false");
  drawing.classList.add("icon");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name] || "");
  path.setAttribute("fill", "currentColor");
  drawing.append(path);
  return drawing;
}

/**
 * The arrow keys of a tablist: the next or previous tab (mirrored right to left).
 * `active()` is the index shown; `select(index)` shows another and focuses its tab.
 */
export function tabKeys(tablist, count, active, select) {
  tablist.addEventListener("keydown", (event) => {
    const forward = getComputedStyle(tablist).direction === "rtl" ? "ArrowLeft" : "ArrowRight";
    const back = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    if (event.key !== forward && event.key !== back) return;
    event.preventDefault();
    select((active() + (event.key === forward ? 1 : count - 1)) % count);
  });
}

// -- modal dialogs -----------------------------------------------------------------

const stack = [];

function focusables(root) {
  return [...root.querySelectorAll("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")].filter(
    (el) => !el.disabled && !el.closest("[hidden]") && !el.closest("[inert]") && el.offsetParent !== null,
  );
}

function syncInert() {
  const top = stack[stack.length - 1];
  for (const id of ["topbar", "screen"]) {
    const element = document.getElementById(id);
    if (element) element.inert = Boolean(top);
  }
  for (const entry of stack) entry.element.inert = entry !== top;
}

/**
 * Show `panel` (an element holding role=dialog content) as a modal over the page.
 * Returns a handle whose close() removes it; Escape closes it when `closable`.
 */
export function openModal(panel, { label, closable = true, onClose = null, initialFocus = null, className = "" } = {}) {
  const layer = document.getElementById("layer");
  const previous = document.activeElement;
  const element = h("div", { class: `modal ${className}`.trim() }, h("div", { class: "modal-backdrop" }), panel);
  panel.setAttribute("role", panel.getAttribute("role") || "dialog");
  panel.setAttribute("aria-modal", "true");
  if (label) panel.setAttribute("aria-label", label);
  panel.classList.add("modal-panel");
  panel.tabIndex = -1;
  const entry = { element, closable, onClose, closed: false };
  entry.close = () => {
    if (entry.closed) return;
    entry.closed = true;
    const index = stack.indexOf(entry);
    if (index >= 0) stack.splice(index, 1);
    element.remove();
    syncInert();
    if (onClose) onClose();
    if (previous && previous.isConnected && typeof previous.focus === "function") previous.focus();
  };
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && entry.closable) {
      event.preventDefault();
      event.stopPropagation();
      entry.close();
    } else if (event.key === "Tab") {
      const items = focusables(panel);
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  if (closable) {
    element.querySelector(".modal-backdrop").addEventListener("click", () => entry.close());
  }
  stack.push(entry);
  layer.append(element);
  syncInert();
  const target = initialFocus ? panel.querySelector(initialFocus) : null;
  (target || focusables(panel)[0] || panel).focus();
  return entry;
}

/** A yes-or-no question in a dialog; resolves true when the `confirm` button is chosen. */
export function confirmDialog({ title, text, confirm, cancel, testid }) {
  return new Promise((resolve) => {
    let confirmed = false;
    const no = h("button", { type: "button", class: "btn", "data-testid": "confirm-no" }, cancel);
    const yes = h("button", { type: "button", class: "btn btn-danger", "data-testid": "confirm-yes" }, confirm);
    const panel = h(
      "div",
      { class: "dialog confirm-dialog", role: "alertdialog", "data-testid": testid, "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
      h("div", { class: "dialog-head" }, h("h2", { id: "confirm-title" }, title)),
      h("p", { class: "dialog-text", id: "confirm-text" }, text),
      h("div", { class: "sheet-actions two" }, no, yes),
    );
    const modal = openModal(panel, { onClose: () => resolve(confirmed), initialFocus: "[data-testid=confirm-no]" });
    no.addEventListener("click", () => modal.close());
    yes.addEventListener("click", () => {
      confirmed = true;
      modal.close();
    });
  });
}

export function modalOpen() {
  return stack.length > 0;
}

export function closeAllModals() {
  for (const entry of [...stack]) entry.close();
}

// -- announcements and messages ------------------------------------------------------

/** Say something to screen-reader users (polite). */
export function announce(text) {
  const live = document.getElementById("live");
  if (!live) return;
  const line = h("p", {}, text);
  live.append(line);
  while (live.childElementCount > 4) live.firstElementChild.remove();
}

let toastTimer = null;
let shown = null; // the toast's message as a key and parameters, written again in a new language

/** A short message on screen (and to screen readers, as an alert): the catalog's `key`
 * with `params`; `detail` is the server's own words, shown as they are. */
export function toast(key, { params = {}, kind = "info", detail = null } = {}) {
  const layer = document.getElementById("layer");
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", class: "toast", role: "status" });
    layer.append(box);
  }
  shown = { key, params, detail };
  writeToast(box);
  box.dataset.kind = kind;
  box.hidden = false;
  const alert = document.getElementById("alert");
  if (alert && kind === "error") alert.textContent = t(key, params);
  clearTimeout(toastTimer);
  // A message's lifetime is for people, not part of the game flow (nothing waits on it).
  toastTimer = setTimeout(() => {
    box.hidden = true;
    shown = null;
  }, 6000);
}

function writeToast(box) {
  box.replaceChildren(h("p", { "data-testid": "toast-text" }, t(shown.key, shown.params)));
  if (shown.detail) box.append(h("p", { class: "toast-detail", dir: "ltr" }, shown.detail));
}

/** The language changed: the toast on screen says its message in the new one. */
export function retranslateToast() {
  const box = document.getElementById("toast");
  if (box && shown && !box.hidden) writeToast(box);
}
