// Tables between two people, before and around the match: the host's waiting screen
// (the link and the code to share), an open table's seat for whoever has its link, a
// full or missing table, and the quick match's waiting panel. The match itself is the
// usual table (table.js), driven by persontable.js.

import { h, icon, openModal } from "./dom.js";
import { isolate, num, t } from "./i18n.js";
import { rulesName } from "./pages.js";
import { href } from "./routes.js";

/** A table's address to share: this site, then the table's route. */
export function tableLink(id) {
  return `${location.origin}/${href.table(id)}`;
}

/** A seat's player in words: their name, or "Guest" (the host of an open table: `who`). */
export function playerName(player) {
  if (!player) return t("ui.guest");
  return player.name ? isolate(player.name) : t("ui.guest");
}

/** Seconds as m:ss. */
export function minutes(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function facts(info, { host = false } = {}) {
  const row = (label, value, testid) => h("div", {}, h("dt", {}, label), h("dd", { "data-testid": testid }, value));
  return h("dl", { class: "lobby-facts", "data-testid": "table-facts" },
    host ? null : row(t("lobby.host"), playerName(info.players[0]), "table-host"),
    row(t("start.preset"), rulesName(info.rules_name), "table-rules"),
    row(t("lobby.rounds"), num(info.rules.rounds), "table-rounds"),
    row(t("start.match_kind"), t(info.ranked ? "match_kind.ranked" : "match_kind.table_friendly"), "table-kind"),
    row(t("person.move_clock"), t("person.seconds", { n: info.move_seconds }), "table-clock"));
}

async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard (an insecure page, a refused permission): select it for a manual copy.
    input.focus();
    input.select();
    return false;
  }
}

/**
 * Draw a table's screen before its match: `lobby` is {kind, table, notice} with kind
 * "loading", "waiting" (the host, until the friend sits), "join" (an open table, someone
 * else's), "full", "closed" (by its host), "gone" or "error".
 */
export function renderLobby(container, lobby, { onSit, onBack, onClose }) {
  const back = h("button", { type: "button", class: "btn btn-ghost", "data-testid": "lobby-back", onclick: onBack }, t("ui.menu"));
  let body;
  if (lobby.kind === "waiting") {
    const info = lobby.table;
    const link = tableLink(info.id);
    const input = h("input", { type: "text", readonly: true, value: link, "data-testid": "table-link", "aria-label": t("lobby.link") });
    const copied = h("p", { class: "lobby-note", role: "status", "data-testid": "copy-status" });
    const copy = h("button", { type: "button", class: "btn", "data-testid": "copy-link" }, t("lobby.copy"));
    copy.addEventListener("click", async () => {
      copied.textContent = (await copyText(link, input)) ? t("lobby.copied") : t("lobby.copy_manual");
    });
    body = [
      h("h1", { class: "lobby-title", "data-testid": "lobby-title" }, t("lobby.waiting_title")),
      h("p", { class: "lobby-note" }, t("lobby.waiting_note")),
      h("div", { class: "lobby-link" }, input, copy),
      copied,
      h("p", { class: "lobby-note" }, t("lobby.code_note")),
      h("p", { class: "lobby-code", "data-testid": "table-code", "aria-label": t("lobby.code_label", { code: info.code.split("").join(" ") }) }, info.code),
      facts(info, { host: true }),
      lobby.notice ? h("p", { class: "live-notice", role: "status", "data-testid": "live-notice" }, lobby.notice) : null,
      h("p", { class: "lobby-note", "aria-live": "polite" }, t("lobby.waiting_wait")),
      h("div", { class: "lobby-actions" }, back,
        h("button", { type: "button", class: "btn btn-danger-ghost", "data-testid": "close-table", onclick: onClose }, t("lobby.close"))),
    ];
  } else if (lobby.kind === "join") {
    const info = lobby.table;
    const sit = h("button", { type: "button", class: "btn btn-primary", "data-testid": "sit-button", onclick: onSit }, t("lobby.sit"));
    body = [
      h("h1", { class: "lobby-title", "data-testid": "lobby-title" }, t("lobby.join_title", { name: playerName(info.players[0]) })),
      facts(info),
      h("p", { class: "lobby-note" }, t("lobby.join_note")),
      h("div", { class: "lobby-actions" }, sit, back),
    ];
  } else {
    const text = { loading: "page.loading", full: "lobby.full", closed: "lobby.closed", gone: "lobby.gone" }[lobby.kind] || "error.network";
    body = [
      h("p", { class: lobby.kind === "loading" ? "page-note" : "page-note is-error", "data-testid": `lobby-${lobby.kind}` }, t(text)),
      lobby.kind === "loading" ? null : h("div", { class: "lobby-actions" }, back),
    ];
  }
  container.replaceChildren(h("div", { class: "lobby", "data-testid": "lobby", "data-kind": lobby.kind, "aria-busy": lobby.kind === "loading" ? "true" : null }, body));
}

/**
 * The quick match's waiting panel: the preset, the time waited (ticking here, set
 * again by each answer), and one button to leave the queue. Returns {update(waited), close()}.
 */
export function openQueuePanel({ preset, onLeave }) {
  let base = 0;
  let since = performance.now();
  const clock = h("p", { class: "queue-wait", "data-testid": "queue-waited", role: "timer" });
  const tick = () => {
    clock.textContent = t("queue.waited", { time: minutes(base + (performance.now() - since) / 1000) });
  };
  tick();
  const timer = setInterval(tick, 1000);
  const leave = h("button", { type: "button", class: "btn btn-primary", "data-testid": "leave-queue" }, t("queue.leave"));
  const panel = h(
    "div",
    { class: "dialog queue-dialog", "data-testid": "queue-panel", "aria-labelledby": "queue-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "queue-title" }, icon("person"), " ", t("queue.title"))),
    h("p", { class: "dialog-text" }, t("queue.text", { rules: rulesName(preset) })),
    clock,
    h("div", { class: "sheet-actions" }, leave),
  );
  let left = false;
  // Closed any way (the button, or the screen changing under it): the wait ends.
  const modal = openModal(panel, {
    closable: false,
    initialFocus: "[data-testid=leave-queue]",
    onClose: () => {
      clearInterval(timer);
      if (!left) onLeave();
    },
  });
  const close = () => {
    left = true;
    modal.close();
  };
  leave.addEventListener("click", () => modal.close());
  return {
    update(waited) {
      base = waited;
      since = performance.now();
      tick();
    },
    close,
  };
}
