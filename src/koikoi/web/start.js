// The start screen: the opponent's level, a rule preset with house rules (every field
// of the rule set, from /api/rules), match length, target score and starting points,
// and for a signed-in player whose rules can be ranked, a ranked match (online, on the
// server) or a practice one (on this device, offline too); a guest's is practice.

import { boardPresets, earnsPoints, isRankable, rankingPoints } from "./account.js";
import { h, icon } from "./dom.js";
import { date, has, plural, t } from "./i18n.js";
import { levelName, rulesName } from "./pages.js";
import { playerName } from "./person.js";
import { href } from "./routes.js";

const LEVELS = ["easy", "normal", "expert"];

/** The house-rules editor's groups; fields the server adds later land in "other". */
const GROUPS = [
  ["deal", ["hand_size", "field_size", "deal_in_pairs", "first_dealer", "next_dealer", "draw_dealer", "redeal_four_of_month", "redeal_three_of_month", "redeal_four_pairs", "forced_capture"]],
  ["hand_yaku", ["teshi", "redeal_hand_four_of_month", "kuttsuki", "redeal_hand_four_pairs", "both_hand_yaku"]],
  ["brights", ["goko", "shiko", "ame_shiko", "sanko", "brights_exclusive"]],
  ["sets", ["inoshikacho", "inoshikacho_extra", "akatan", "aotan", "akatan_aotan", "akatan_aotan_replaces", "kusatan", "ribbon_set_extra", "tsukimi", "hanami", "viewing_after_koikoi", "viewing", "viewing_in_season", "viewing_cancelled_by", "tsukifuda", "tsukifuda_month"]],
  ["counts", ["tane", "tane_min", "tane_extra", "tan", "tan_min", "tan_extra", "kasu", "kasu_min", "kasu_extra", "sake_cup", "lightning_is_kasu", "best_per_category"]],
  ["koikoi", ["decision", "max_koikoi", "koikoi_after_opponent", "multiplier", "double_at", "exhausted", "exhausted_points"]],
];
const MATCH_FIELDS = ["rounds", "target_score", "starting_points"];
/** A friendly table's choices of seconds a move (the server's); ranked tables play 30. */
const MOVE_SECONDS = [15, 30, 60, 120];
const CODE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/;

// The screen's choices (kept while the page lives; stored in localStorage by screens.js).
const form = { difficulty: "normal", preset: "classic", values: null, catalog: null, ranked: true, moveSeconds: 30, queuePreset: "classic", code: "" };

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function presetValues() {
  return form.catalog.presets[form.preset] || form.catalog.presets.classic;
}

/** The rules to send: the preset and only the fields that differ from it. */
function chosenRules() {
  const base = presetValues();
  const rules = { preset: form.preset };
  for (const [key, value] of Object.entries(form.values || {})) {
    if (key !== "preset" && !same(value, base[key])) rules[key] = value;
  }
  return rules;
}

/** Every field of the rules chosen on this screen (for the help). */
export function startRules() {
  if (!form.catalog) return {};
  return { ...presetValues(), ...(form.values || {}) };
}

function fieldLabel(spec) {
  const key = `rule.${spec.key}`;
  return has(key) ? t(key) : spec.help || spec.key;
}

function fieldHint(spec) {
  const key = `rule.${spec.key}.help`;
  return has(key) ? t(key) : "";
}

function choiceLabel(spec, value) {
  const key = `rule.${spec.key}.${value}`;
  return has(key) ? t(key) : value;
}

function control(spec, onChange) {
  const id = `rule-${spec.key}`;
  const value = form.values[spec.key];
  const base = presetValues()[spec.key];
  const changed = !same(value, base);
  const hint = fieldHint(spec);
  const hintId = hint ? `${id}-hint` : null;
  let input;
  if (spec.kind === "bool") {
    input = h("input", { type: "checkbox", id, checked: Boolean(value), "aria-describedby": hintId, "data-rule": spec.key });
    input.addEventListener("change", () => onChange(spec.key, input.checked));
    return h("div", { class: `rule rule-bool ${changed ? "is-changed" : ""}`, "data-rule-wrap": spec.key },
      input, h("label", { for: id }, fieldLabel(spec)), hint ? h("p", { class: "rule-hint", id: hintId }, hint) : null);
  }
  if (spec.kind === "choice") {
    input = h("select", { id, "aria-describedby": hintId, "data-rule": spec.key },
      (spec.choices || []).map((choice) => h("option", { value: choice, selected: choice === value }, choiceLabel(spec, choice))));
    input.addEventListener("change", () => onChange(spec.key, input.value));
  } else if (spec.kind === "choices") {
    const chosen = new Set(value || []);
    const boxes = (spec.choices || []).map((choice) => {
      const boxId = `${id}-${choice}`;
      const box = h("input", { type: "checkbox", id: boxId, checked: chosen.has(choice), value: choice, "data-choice-of": spec.key });
      box.addEventListener("change", () => {
        const all = [...document.querySelectorAll(`[data-choice-of="${spec.key}"]`)];
        onChange(spec.key, all.filter((b) => b.checked).map((b) => b.value));
      });
      return h("span", { class: "rule-option" }, box, h("label", { for: boxId }, choiceLabel(spec, choice)));
    });
    return h("fieldset", { class: `rule rule-choices ${changed ? "is-changed" : ""}`, "data-rule": spec.key, "data-rule-wrap": spec.key, "aria-describedby": hintId },
      h("legend", {}, fieldLabel(spec)), h("div", { class: "rule-choice-list" }, boxes), hint ? h("p", { class: "rule-hint", id: hintId }, hint) : null);
  } else {
    const min = spec.kind === "count" ? 1 : 0;
    const max = spec.maximum; // the rule set's own bound (/api/rules)
    input = h("input", { type: "number", id, inputmode: "numeric", min: String(min), max: String(max), step: "1", value: String(value), "aria-describedby": hintId, "data-rule": spec.key });
    // Taken as typed (so Start sees it without leaving the field), tidied on change.
    input.addEventListener("input", () => {
      const n = Number(input.value);
      if (input.value !== "" && Number.isInteger(n) && n >= min && n <= max) onChange(spec.key, n);
    });
    input.addEventListener("change", () => {
      const n = Math.floor(Number(input.value));
      const clamped = Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : min;
      input.value = String(clamped);
      onChange(spec.key, clamped);
    });
  }
  return h("div", { class: `rule rule-${spec.kind} ${changed ? "is-changed" : ""}`, "data-rule-wrap": spec.key },
    h("label", { for: id }, fieldLabel(spec)), input, hint ? h("p", { class: "rule-hint", id: hintId }, hint) : null);
}

function problems() {
  const v = form.values;
  const out = [];
  if (2 * v.hand_size + v.field_size > 48) out.push(t("start.error.too_many_cards", { hand: v.hand_size, field: v.field_size }));
  // A hand that is redealt for a hand yaku can never score it (the server refuses both).
  for (const [redeal, yaku] of [["redeal_hand_four_of_month", "teshi"], ["redeal_hand_four_pairs", "kuttsuki"]]) {
    if (v[redeal] && Number(v[yaku]) > 0) out.push(t("start.error.redeal_hand_yaku", { yaku: t(`yaku.${yaku}`) }));
  }
  return out;
}

/** A match in progress: its score, what it is, and a button to take it up again. */
function resumeItem(line, meta, updated, testid, onclick) {
  return h("li", { class: "resume-item" },
    h("div", {},
      h("p", {}, line),
      h("p", { class: "resume-meta" }, meta, updated ? [" · ", h("time", { datetime: updated }, date(updated, { time: true }))] : null)),
    h("button", { type: "button", class: "btn", "data-testid": testid, onclick }, t("start.resume")));
}

/** The tables between people (whose turn it is, or the code of one still open) and the
 * matches against the computer in progress. */
function inProgress(games, tables, onResume) {
  if (!games.length && !tables.length) return null;
  return h("section", { class: "resume", "data-testid": "in-progress", "aria-labelledby": "in-progress-title" },
    h("h2", { class: "panel-title", id: "in-progress-title" }, t("start.in_progress")),
    h("ul", { class: "resume-list" },
      tables.map((table) => {
        const name = playerName(table.opponent);
        const open = table.status === "open";
        return resumeItem(
          open ? t("lobby.code_label", { code: table.code }) : t("start.in_progress_table", { round: table.round, rounds: table.rounds, you: table.totals[0], name, them: table.totals[1] }),
          [h("b", { "data-testid": "table-turn" }, open ? t("lobby.waiting_wait") : table.your_turn ? t("start.table_you") : t("start.table_opp", { name })), " · ", rulesName(table.rules_name)],
          table.updated, "table-resume", () => {
            location.hash = href.table(table.id);
          });
      }),
      games.map((game) =>
        resumeItem(t("start.in_progress_item", { round: game.round, rounds: game.rounds, you: game.totals[0], cpu: game.totals[1] }),
          [levelName(game.difficulty), " · ", rulesName(game.rules_name)], game.updated, "resume-button", () => onResume(game.id)))));
}

/** What the match will be, as one line under the choice (or in its place). */
function note(text, { ranked = false, extra = null } = {}) {
  return h("p", { class: ranked ? "ranked-note is-ranked" : "ranked-note", id: "ranked-note", "data-testid": "ranked-note" },
    icon("trophy"), h("span", {}, text), extra);
}

/**
 * Ranked (online) or practice (on this device; "friendly" in the code). A signed-in player whose rules can be ranked chooses, and the
 * line below says what the choice means: a rating that moves and the points a win
 * earns, or neither. Otherwise there is no choice, and the line says why: house rules
 * or a changed match length are friendly, a guest can sign in.
 */
function rankedPart(user, onSignIn, remember) {
  if (!user) {
    return h("div", { class: "ranked", id: "ranked-part" },
      note(t("start.unranked"), { extra: h("button", { type: "button", class: "link-btn", "data-testid": "ranked-sign-in", onclick: onSignIn }, t("ui.sign_in")) }));
  }
  if (!isRankable(chosenRules())) return h("div", { class: "ranked", id: "ranked-part" }, note(t("start.friendly")));
  const chosen = () => {
    if (!form.ranked) return note(t("start.friendly_chosen"));
    // A ranked match is played on the server, which alone knows the hidden cards.
    const online = (text) => [text, " ", h("span", { class: "ranked-online", "data-testid": "ranked-online" }, t("start.ranked_online"))];
    if (!earnsPoints(form.preset)) return note(online(t("start.ranked_no_points", { rules: rulesName(form.preset) })), { ranked: true });
    return note(online(t("start.ranked", { points: plural("ranking_points", rankingPoints(form.difficulty)) })), { ranked: true });
  };
  let line = chosen();
  const options = ["ranked", "friendly"].map((kind) => {
    const id = `ranked-choice-${kind}`;
    const input = h("input", { type: "radio", name: "ranked-choice", id, value: kind, checked: form.ranked === (kind === "ranked") });
    input.addEventListener("change", () => {
      form.ranked = kind === "ranked";
      remember();
      const next = chosen();
      line.replaceWith(next);
      line = next;
    });
    return h("span", { class: "seg" }, input, h("label", { for: id, "data-testid": id }, t(`match_kind.${kind}`)));
  });
  return h("div", { class: "ranked", id: "ranked-part" },
    h("fieldset", { class: "ranked-choice", "data-testid": "ranked-choice", "aria-describedby": "ranked-note" },
      h("legend", { class: "sr-only" }, t("start.match_kind")), options),
    line);
}

/** Whether a table opened with the rules chosen here would be ranked. */
function tableRanked(user) {
  return Boolean(user) && isRankable(chosenRules()) && form.ranked;
}

/**
 * Play a person: invite a friend (a table under the rules chosen above, ranked as
 * chosen; a friendly one with its move clock), join one by its code, or a quick match
 * against whoever waits under a preset.
 */
function personPart(user, { onInvite, onJoinCode, onQuickMatch }, remember) {
  const clockSelect = h("select", { id: "move-seconds", "data-testid": "move-seconds" },
    MOVE_SECONDS.map((n) => h("option", { value: String(n), selected: n === form.moveSeconds }, t("person.seconds", { n }))));
  clockSelect.addEventListener("change", () => {
    form.moveSeconds = Number(clockSelect.value);
    remember();
  });
  const invite = h("button", {
    type: "button",
    class: "btn btn-primary",
    "data-testid": "invite-button",
    onclick: () => {
      const ranked = tableRanked(user);
      onInvite(chosenRules(), ranked, ranked ? null : form.moveSeconds);
    },
  }, t("person.invite"));

  const codeInput = h("input", {
    type: "text",
    id: "table-code",
    class: "code-input",
    "data-testid": "code-input",
    maxlength: "6",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    value: form.code,
    "aria-describedby": "table-code-hint",
  });
  const join = h("button", { type: "button", class: "btn", "data-testid": "join-code-button", disabled: !CODE.test(form.code) }, t("person.join"));
  const typed = () => {
    form.code = codeInput.value.toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 6);
    join.disabled = !CODE.test(form.code);
  };
  codeInput.addEventListener("input", typed);
  const send = () => {
    typed();
    if (CODE.test(form.code)) onJoinCode(form.code);
  };
  codeInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") send();
  });
  join.addEventListener("click", send);

  // Signed in, a quick match is ranked: the ranked presets; guests play any preset, friendly.
  const presets = user ? boardPresets() : Object.keys(form.catalog.presets);
  if (!presets.includes(form.queuePreset)) form.queuePreset = presets[0];
  const queueSelect = h("select", { id: "queue-preset", "data-testid": "queue-preset" },
    presets.map((name) => h("option", { value: name, selected: name === form.queuePreset }, rulesName(name))));
  queueSelect.addEventListener("change", () => {
    form.queuePreset = queueSelect.value;
    remember();
  });
  const quick = h("button", { type: "button", class: "btn", "data-testid": "quick-match-button", onclick: () => onQuickMatch(form.queuePreset) }, t("person.quick"));

  return h("section", { class: "panel person", "data-testid": "play-person", "aria-labelledby": "person-title" },
    h("h2", { class: "panel-title", id: "person-title" }, t("person.title")),
    h("div", { class: "person-part" },
      h("h3", {}, t("person.invite_title")),
      h("p", { class: "person-note" }, t("person.invite_note")),
      h("div", { class: "person-row" },
        h("div", { class: "rule" }, h("label", { for: "move-seconds" }, t("person.move_clock")), clockSelect),
        invite),
      h("p", { class: "rule-hint" }, t("person.clock_note"))),
    h("div", { class: "person-part" },
      h("h3", {}, t("person.join_title")),
      h("div", { class: "person-row" },
        h("div", { class: "rule rule-code" }, h("label", { for: "table-code" }, t("person.code")), codeInput),
        join),
      h("p", { class: "rule-hint", id: "table-code-hint" }, t("person.code_hint"))),
    h("div", { class: "person-part" },
      h("h3", {}, t("person.quick_title")),
      h("p", { class: "person-note" }, t(user ? "person.quick_ranked" : "person.quick_guest")),
      h("div", { class: "person-row" },
        h("div", { class: "rule" }, h("label", { for: "queue-preset" }, t("start.preset")), queueSelect),
        quick)));
}

/** Draw the start screen into `container`. */
export function renderStart(container, options) {
  const { catalog, setup, games, tables = [], user, onStart, onResume, onHelp, onChange, onSignIn } = options;
  form.catalog = catalog;
  if (!form.values) {
    if (setup && catalog.presets[setup.preset]) {
      form.preset = setup.preset;
      form.difficulty = LEVELS.includes(setup.difficulty) ? setup.difficulty : "normal";
      form.ranked = setup.ranked !== false;
      if (MOVE_SECONDS.includes(setup.moveSeconds)) form.moveSeconds = setup.moveSeconds;
      if (typeof setup.queuePreset === "string") form.queuePreset = setup.queuePreset;
      form.values = { ...catalog.presets[setup.preset], ...(setup.overrides || {}) };
    } else {
      form.values = { ...catalog.presets.classic };
    }
  }
  const specs = new Map(catalog.fields.map((spec) => [spec.key, spec]));
  const remember = () =>
    onChange({ difficulty: form.difficulty, preset: form.preset, overrides: chosenRules(), ranked: form.ranked, moveSeconds: form.moveSeconds, queuePreset: form.queuePreset });
  const redraw = () => {
    remember();
    const scroll = container.scrollTop;
    const focusedRule = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.rule || document.activeElement.id : null;
    renderStart(container, options);
    container.scrollTop = scroll;
    if (focusedRule) {
      const again = container.querySelector(`[data-rule="${focusedRule}"]`) || document.getElementById(focusedRule);
      if (again) again.focus({ preventScroll: true });
    }
  };
  const setValue = (key, value) => {
    form.values = { ...form.values, [key]: value };
    refresh();
  };
  // After a value changes: the marks, the count of changes, the errors and Start.
  const refresh = () => {
    remember();
    const base = presetValues();
    for (const wrap of container.querySelectorAll("[data-rule-wrap]")) {
      const key = wrap.dataset.ruleWrap;
      wrap.classList.toggle("is-changed", !same(form.values[key], base[key]));
    }
    const count = Object.keys(chosenRules()).filter((key) => key !== "preset").length;
    const badge = container.querySelector("#changes-badge");
    badge.hidden = count === 0;
    badge.textContent = count ? plural("changed", count) : "";
    container.querySelector("[data-testid=reset-rules]").disabled = count === 0;
    container.querySelector("#ranked-part").replaceWith(rankedPart(user, onSignIn, remember));
    const errors = problems();
    const box = container.querySelector("#start-errors");
    box.hidden = errors.length === 0;
    box.replaceChildren(...errors.map((e) => h("p", {}, e)));
    const start = container.querySelector("[data-testid=start-button]");
    start.disabled = errors.length > 0;
    if (errors.length) start.setAttribute("aria-describedby", "start-errors");
    else start.removeAttribute("aria-describedby");
  };

  // The opponent.
  const levels = h(
    "div",
    { class: "levels", role: "group", "aria-labelledby": "levels-title" },
    LEVELS.map((level) =>
      h("button", {
        type: "button",
        class: `level level-${level}`,
        "data-testid": `difficulty-${level}`,
        "aria-pressed": String(form.difficulty === level),
        onclick: () => {
          form.difficulty = level;
          redraw();
        },
      },
      h("span", { class: "level-name" }, levelName(level)),
      h("span", { class: "level-desc" }, t(`difficulty.${level}.desc`)))),
  );

  // The rules.
  const presetSelect = h(
    "select",
    { id: "preset", "data-testid": "preset-select", "aria-describedby": "preset-desc" },
    Object.keys(catalog.presets).map((name) => h("option", { value: name, selected: name === form.preset }, rulesName(name))),
  );
  presetSelect.addEventListener("change", () => {
    form.preset = presetSelect.value;
    form.values = { ...catalog.presets[form.preset] };
    redraw();
  });
  const overrides = Object.keys(chosenRules()).filter((key) => key !== "preset");
  const matchFields = MATCH_FIELDS.filter((key) => specs.has(key)).map((key) => control(specs.get(key), setValue));

  const listed = new Set([...GROUPS.flatMap(([, keys]) => keys), ...MATCH_FIELDS]);
  const groups = [...GROUPS, ["other", catalog.fields.map((spec) => spec.key).filter((key) => !listed.has(key))]]
    .filter(([, keys]) => keys.some((key) => specs.has(key)))
    .map(([group, keys]) =>
      h("fieldset", { class: "rule-group" },
        h("legend", {}, t(`start.group.${group}`)),
        keys.filter((key) => specs.has(key)).map((key) => control(specs.get(key), setValue))));

  const house = h(
    "details",
    { class: "house-rules", "data-testid": "house-rules", open: form.houseOpen || null },
    h("summary", {}, h("span", {}, t("start.house_rules")),
      h("span", { class: "badge", id: "changes-badge", hidden: overrides.length === 0 }, overrides.length ? plural("changed", overrides.length) : "")),
    h("p", { class: "house-note" }, t("start.house_note")),
    h("div", { class: "rule-groups" }, groups),
    h("button", {
      type: "button",
      class: "btn btn-ghost",
      "data-testid": "reset-rules",
      disabled: !overrides.length,
      onclick: () => {
        form.values = { ...presetValues() };
        redraw();
      },
    }, t("start.reset_rules")),
  );
  house.addEventListener("toggle", () => {
    form.houseOpen = house.open;
  });

  const errors = problems();
  const start = h("button", {
    type: "button",
    class: "btn btn-primary btn-start",
    "data-testid": "start-button",
    disabled: errors.length > 0,
    "aria-describedby": errors.length ? "start-errors" : null,
    // The choice counts only where it was offered; elsewhere the server decides (friendly).
    onclick: () => onStart(form.difficulty, chosenRules(), user && isRankable(chosenRules()) ? form.ranked : null),
  }, t("start.start"));

  container.replaceChildren(
    h(
      "div",
      { class: "start" },
      h("div", { class: "hero" },
        h("div", { class: "hero-cards", "aria-hidden": "true" }, h("span", { class: "hc hc1" }), h("span", { class: "hc hc2" }), h("span", { class: "hc hc3" })),
        h("h1", { class: "hero-title" }, t("ui.title")),
        h("p", { class: "hero-tagline" }, t("start.tagline"))),
      inProgress(games, tables, onResume),
      h("section", { class: "panel" },
        h("h2", { id: "levels-title", class: "panel-title" }, t("start.opponent")),
        levels),
      h("section", { class: "panel" },
        h("h2", { class: "panel-title" }, t("start.rules")),
        h("div", { class: "rule rule-preset" },
          h("label", { for: "preset" }, t("start.preset")),
          presetSelect),
        h("p", { class: "preset-desc", id: "preset-desc" }, t(`rule.preset.${form.preset}.desc`)),
        h("div", { class: "match-fields" }, matchFields),
        house,
        h("button", { type: "button", class: "link-btn", "data-testid": "rules-help", onclick: () => onHelp("rules") }, t("start.read_rules"))),
      h("div", { class: "form-errors", id: "start-errors", role: "alert", hidden: errors.length === 0 }, errors.map((e) => h("p", {}, e))),
      rankedPart(user, onSignIn, remember),
      h("div", { class: "start-actions" }, start),
      options.onInvite ? personPart(user, options, remember) : null,
      h("p", { class: "start-foot" }, t("start.foot")),
    ),
  );
}
