// Accounts: who is signed in (every session answer from the server says), the header's
// account area, and the dialogs: sign in or create an account, change the password,
// delete the account. Names are always put in the page as text.

import { api, onSession } from "./api.js";
import { h, icon, openModal, tabKeys, toast } from "./dom.js";
import { ApiError } from "./errors.js";
import { isolate, num, plural, t, waitText } from "./i18n.js";
import { rememberPlayer } from "./practice.js";
import { href } from "./routes.js";

let user = null; // {name, points}, or null for a guest
let points = {}; // what a won ranked match earns, by the computer's level (the server says)
let rankedPresets = []; // the presets a match is ranked under, as they stand (the server says)
let pointsPresets = []; // the ranked presets whose won matches earn ranking points (the server says)
let changed = () => {};

onSession((session) => {
  const before = JSON.stringify(user);
  user = session.user;
  rememberPlayer(user ? user.name : null);
  points = session.ranking_points;
  rankedPresets = session.ranked_presets;
  pointsPresets = session.points_presets;
  if (JSON.stringify(user) !== before) changed();
});

/** The ranking points beating the computer at `level` earns (the server awards them). */
export function rankingPoints(level) {
  return points[level];
}

/** Whether a match under `rules` (a preset plus the fields that differ) would be ranked. */
export function isRankable(rules) {
  return rankedPresets.includes(rules.preset) && Object.keys(rules).length === 1;
}

/** The rule sets that have a leaderboard (every preset a match can be ranked under). */
export function boardPresets() {
  return rankedPresets;
}

/** Whether winning a ranked match of `preset` earns ranking points (single-deal only moves the rating). */
export function earnsPoints(preset) {
  return pointsPresets.includes(preset);
}

/** The signed-in player ({name, points}), or null for a guest. */
export function currentUser() {
  return user;
}

/** Call `listener` whenever who is signed in, or their points, changes. */
export function onAccountChange(listener) {
  changed = listener;
}

// -- the header ------------------------------------------------------------------------

/** The header's account area: the leaderboard, and the player (or a way to sign in). */
export function renderAccountSlot(slot) {
  const board = h(
    "a",
    {
      class: "slot-link",
      href: href.leaderboard(),
      "data-testid": "leaderboard-link",
      "aria-label": t("ui.leaderboard"),
      title: t("ui.leaderboard"),
      "aria-current": location.hash.startsWith(href.leaderboard()) ? "page" : null,
    },
    icon("trophy"),
    h("span", { class: "slot-label" }, t("ui.leaderboard")),
  );
  let me;
  if (user) {
    const label = t("account.chip", { name: isolate(user.name), points: plural("ranking_points", user.points) });
    me = h(
      "a",
      {
        class: "account-chip",
        href: href.player(user.name),
        "data-testid": "account-chip",
        "aria-label": label,
        title: label,
        "aria-current": location.hash === href.player(user.name) ? "page" : null,
      },
      icon("person"),
      h("bdi", { class: "account-chip-name", "data-testid": "account-chip-name" }, user.name),
      h("span", { class: "account-chip-points", "data-testid": "account-chip-points" }, num(user.points)),
    );
  } else {
    me = h(
      "button",
      { type: "button", class: "slot-link", "data-testid": "sign-in-button", "aria-label": t("ui.sign_in"), title: t("ui.sign_in"), onclick: () => openSignIn() },
      icon("person"),
      h("span", { class: "slot-label" }, t("ui.sign_in")),
    );
  }
  slot.setAttribute("aria-label", t("ui.account"));
  slot.replaceChildren(board, me);
  slot.hidden = false;
}

/** Focus the header's account control (it replaced the one that had the focus). */
function focusAccount() {
  document.getElementById("account-slot").lastElementChild.focus();
}

// -- forms in dialogs --------------------------------------------------------------------

/** What went wrong with an account request, in words; `wrong` is the message for a 401. */
function problem(error, wrong) {
  if (!(error instanceof ApiError)) throw error;
  switch (error.status) {
    case 401:
      return [t(wrong)];
    case 409:
      return [t("account.error.taken")];
    case 422:
      return [t("account.error.invalid"), error.detail];
    case 429:
      return [t("account.error.too_many", { wait: waitText(error.retryAfter || 60) })];
    default:
      return [t("error.network")];
  }
}

/** A labelled input with an optional hint below it. */
function field({ id, label, hint = null, ...attrs }) {
  const hintId = hint ? `${id}-hint` : null;
  const input = h("input", { id, name: id, required: true, "data-testid": id, "aria-describedby": hintId, ...attrs });
  const row = h("div", { class: "form-field" }, h("label", { for: id }, label), input, hint ? h("p", { class: "form-hint", id: hintId }, hint) : null);
  return { input, row };
}

/**
 * A dialog holding a form: `fields`, a line for what went wrong, and a submit button.
 * `send()` makes the request; its answer closes the dialog and goes to `done(answer)`,
 * a refusal is shown (`wrong`: the message for a 401).
 */
function formDialog({ testid, title, text = null, above = null, fields, submit, danger = false, wrong, send, done }) {
  const error = h("div", { class: "form-error", role: "alert", "data-testid": "form-error", hidden: true });
  const button = h("button", { type: "submit", class: `btn ${danger ? "btn-danger" : "btn-primary"}`, "data-testid": "form-submit" }, submit);
  const cancel = h("button", { type: "button", class: "btn" }, t("ui.cancel"));
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "aria-label": t("ui.close"), title: t("ui.close") }, icon("close"));
  const form = h(
    "form",
    { class: "dialog-form", id: `${testid}-form` },
    text ? h("p", { class: "dialog-text" }, text) : null,
    fields.map((f) => f.row),
    error,
    h("div", { class: "sheet-actions two" }, cancel, button),
  );
  const panel = h(
    "div",
    { class: "dialog form-dialog", "data-testid": testid, "aria-labelledby": `${testid}-title` },
    h("div", { class: "dialog-head" }, h("h2", { id: `${testid}-title` }, title), close),
    above,
    form,
  );
  const modal = openModal(panel, { initialFocus: "input" });
  close.addEventListener("click", () => modal.close());
  cancel.addEventListener("click", () => modal.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.hidden = true;
    let answer;
    try {
      answer = await send();
    } catch (failure) {
      const [message, detail] = problem(failure, wrong);
      error.replaceChildren(h("p", {}, message));
      if (detail) error.append(h("p", { class: "form-detail", dir: "auto" }, detail));
      error.hidden = false;
      return;
    } finally {
      button.disabled = false;
    }
    modal.close();
    done(answer);
  });
  return { panel, form, button };
}

// -- the dialogs -----------------------------------------------------------------------

const MODES = ["sign-in", "sign-up"];

/** Sign in, or create an account (the two tabs of one dialog). */
export function openSignIn() {
  let mode = "sign-in";
  const name = field({ id: "account-name", label: t("account.name"), hint: t("account.name_hint"), type: "text", autocomplete: "username", autocapitalize: "none", spellcheck: "false", maxlength: "20", dir: "auto" });
  const password = field({ id: "account-password", label: t("account.password"), hint: t("account.password_hint"), type: "password", maxlength: "128" });
  const tabs = MODES.map((m) =>
    h("button", { type: "button", role: "tab", id: `account-tab-${m}`, "aria-controls": "account-dialog-form", "data-testid": `account-tab-${m}`, onclick: () => setMode(m) }, t(`account.tab.${m}`)));
  const tablist = h("div", { class: "tabs", role: "tablist", "aria-label": t("ui.account") }, tabs);
  const { panel, form, button } = formDialog({
    testid: "account-dialog",
    title: t("ui.account"),
    above: tablist,
    fields: [name, password],
    submit: "",
    wrong: "account.error.wrong",
    send: () => (mode === "sign-in" ? api.signIn : api.signUp)(name.input.value.trim(), password.input.value),
    done: (session) => {
      focusAccount();
      toast(mode === "sign-in" ? "account.signed_in" : "account.created", { params: { name: isolate(session.user.name) } });
    },
  });
  form.setAttribute("role", "tabpanel");
  function setMode(next, focus = false) {
    mode = next;
    MODES.forEach((m, i) => {
      tabs[i].setAttribute("aria-selected", String(m === mode));
      tabs[i].tabIndex = m === mode ? 0 : -1;
    });
    const creating = mode === "sign-up";
    form.setAttribute("aria-labelledby", `account-tab-${mode}`);
    for (const f of [name, password]) {
      const hint = f.row.querySelector(".form-hint");
      hint.hidden = !creating;
      if (creating) f.input.setAttribute("aria-describedby", hint.id);
      else f.input.removeAttribute("aria-describedby");
    }
    password.input.autocomplete = creating ? "new-password" : "current-password";
    if (creating) password.input.minLength = 8;
    else password.input.removeAttribute("minlength");
    button.textContent = t(`account.submit.${mode}`);
    panel.querySelector(".form-error").hidden = true;
    if (focus) tabs[MODES.indexOf(mode)].focus();
  }
  tabKeys(tablist, MODES.length, () => MODES.indexOf(mode), (i) => setMode(MODES[i], true));
  setMode(mode);
}

export function openChangePassword() {
  const current = field({ id: "password-current", label: t("account.password_current"), type: "password", autocomplete: "current-password", maxlength: "128" });
  const next = field({ id: "password-new", label: t("account.password_new"), hint: t("account.password_hint"), type: "password", autocomplete: "new-password", minlength: "8", maxlength: "128" });
  formDialog({
    testid: "password-dialog",
    title: t("account.change_password"),
    fields: [current, next],
    submit: t("account.change_password"),
    wrong: "account.error.wrong_password",
    send: () => api.changePassword(current.input.value, next.input.value),
    done: () => toast("account.password_changed"),
  });
}

export function openDeleteAccount() {
  const password = field({ id: "delete-password", label: t("account.password"), type: "password", autocomplete: "current-password", maxlength: "128" });
  formDialog({
    testid: "delete-dialog",
    title: t("account.delete"),
    text: t("account.delete_text", { name: isolate(user.name) }),
    fields: [password],
    submit: t("account.delete_confirm"),
    danger: true,
    wrong: "account.error.wrong_password",
    send: () => api.deleteAccount(password.input.value),
    done: () => {
      toast("account.deleted");
      location.hash = href.game;
    },
  });
}

export async function signOut() {
  try {
    await api.signOut();
  } catch {
    toast("error.network", { kind: "error" });
    return;
  }
  focusAccount();
  toast("account.signed_out");
}
