// Help inside the game: the rules written out from the rule set being played (so they
// never disagree with it), the yaku with pictures of their cards, tips, and questions
// and answers. Every text is a catalog template.

import { ALL, cardButton } from "./cards.js";
import { h, icon, openModal, tabKeys } from "./dom.js";
import { listOr, locale, plural, t } from "./i18n.js";
import { KUTTSUKI, TESHI, YAKU_KEYS } from "./engine/points.js";
import { yakuCards, yakuPoints } from "./rulesinfo.js";

const TIPS = 10; // the last one: the keyboard's keys
const FAQ = 9;

const pts = (n) => plural("points", Number(n));

/** viewing_in_season: the month in which each viewing yaku can score, and so the
 * first round that can score it (round 1 is played in January). */
const SEASON = { hanami: 3, tsukimi: 8 };

/** The yaku a dealt hand scores (engine/yaku.js's handYaku), not a pile. */
const HAND_YAKU = new Set([TESHI, KUTTSUKI]);

// -- the rules, from the rule set -------------------------------------------------------

function section(title, ...items) {
  return { title, items: items.flat().filter(Boolean) };
}

/** How a yaku scores under `r`, in words. */
function yakuScoreText(key, r) {
  const p = yakuPoints(r, key);
  const counted = { tane: ["animals", "tane"], tan: ["ribbons", "tan"], kasu: ["plains", "kasu"] };
  if (counted[key]) {
    const [noun, field] = counted[key];
    const min = Number(r[`${field}_min`]);
    const extra = Number(r[`${field}_extra`]);
    const base = t("help.yaku.counted", { points: pts(p), count: plural(noun, min) });
    return extra ? `${base} ${t("help.yaku.counted_extra", { points: pts(extra) })}` : base;
  }
  const parts = [t("help.yaku.score", { points: pts(p) })];
  if (key === "inoshikacho" && r.inoshikacho_extra) parts.push(t("help.yaku.extra_animal"));
  if (["akatan", "aotan", "kusatan"].includes(key) && r.ribbon_set_extra) parts.push(t("help.yaku.extra_ribbon"));
  if (key === "akatan-aotan") {
    if (r.akatan_aotan_replaces && r.ribbon_set_extra) parts.push(t("help.yaku.extra_ribbon_six"));
    const names = { akatan: t("yaku.akatan"), aotan: t("yaku.aotan") };
    parts.push(r.akatan_aotan_replaces ? t("help.yaku.akatan_aotan.replaces", names) : t("help.yaku.akatan_aotan.adds", names));
  }
  if (key === "tsukifuda") parts.push(t(`help.yaku.tsukifuda.${r.tsukifuda_month}`));
  if (["goko", "shiko", "ame-shiko"].includes(key) && r.brights_exclusive === false) parts.push(t("help.yaku.brights_add"));
  if (key === "tsukimi" || key === "hanami") {
    if (r.viewing === "with-other-yaku") parts.push(t("help.yaku.viewing_with_other"));
    if (Number(r.viewing_after_koikoi) > 0) parts.push(t("help.yaku.viewing_after_koikoi", { points: pts(r.viewing_after_koikoi) }));
    if (r.viewing_in_season) parts.push(t(`help.yaku.in_season.${key}`));
  }
  if (HAND_YAKU.has(key)) parts.push(t("help.yaku.hand_yaku"));
  return parts.join(" ");
}

function enabledYaku(r) {
  return YAKU_KEYS.filter((key) => {
    if (yakuPoints(r, key) <= 0) return false;
    if ((key === "tsukimi" || key === "hanami") && r.viewing === "off") return false;
    // In season only, and the match ends before its month comes round: never scores.
    if (SEASON[key] && r.viewing_in_season && Number(r.rounds) < SEASON[key]) return false;
    return true;
  });
}

function rulesSections(r) {
  const stock = 48 - 2 * Number(r.hand_size) - Number(r.field_size);
  const handYaku = ["teshi", "kuttsuki"].filter((key) => Number(r[key]) > 0);
  const sections = [];

  sections.push(section(t("help.rules.h.aim"), t("help.rules.deck"), t("help.rules.aim")));

  sections.push(section(
    t("help.rules.h.deal"),
    t("help.rules.deal", { hand: plural("cards", Number(r.hand_size)), field: plural("cards", Number(r.field_size)), stock: plural("cards", stock) }),
    r.deal_in_pairs ? t("help.rules.deal_pairs") : null,
    t(`help.rules.first_dealer.${r.first_dealer}`),
    t("help.rules.dealer_leads"),
    Number(r.rounds) > 1 ? [t(`help.rules.next_dealer.${r.next_dealer}`), t(`help.rules.draw_dealer.${r.draw_dealer}`)] : null,
    // Three of a month redeals four of a month as well: one sentence says both.
    r.redeal_three_of_month ? t("help.rules.redeal_three") : r.redeal_four_of_month ? t("help.rules.redeal_month") : null,
    r.redeal_four_pairs ? t("help.rules.redeal_pairs") : null,
    r.redeal_hand_four_of_month ? t("help.rules.redeal_hand_month") : null,
    r.redeal_hand_four_pairs ? t("help.rules.redeal_hand_pairs") : null,
    handYaku.map((key) => t(`help.rules.${key}`, { points: pts(r[key]) })),
    handYaku.length ? [t("help.rules.hand_yaku_flat"), t(`help.rules.both_hand_yaku.${r.both_hand_yaku}`)] : null,
  ));

  sections.push(section(
    t("help.rules.h.turn"),
    t("help.rules.turn"),
    { list: [t("help.rules.match.none"), t("help.rules.match.one"), t("help.rules.match.two"), t("help.rules.match.three")] },
    r.forced_capture ? t("help.rules.forced_capture") : t("help.rules.free_play"),
    t("help.rules.draw_step"),
    t("help.rules.turn_end"),
  ));

  const calls = Number(r.max_koikoi);
  sections.push(section(
    t("help.rules.h.koikoi"),
    t("help.rules.decision.first"),
    t(`help.rules.decision.${r.decision}`),
    t("help.rules.stop_risk"),
    calls > 0 ? t("help.rules.max_koikoi", { calls: plural("times", calls) }) : null,
    r.koikoi_after_opponent ? null : t("help.rules.no_koikoi_after_opponent"),
    t("help.rules.final_turn"),
    r.exhausted === "dealer" ? t("help.rules.exhausted.dealer", { points: pts(r.exhausted_points) }) : t("help.rules.exhausted.draw"),
  ));

  const cancelled = (r.viewing_cancelled_by || []).map((value) => t(`help.rules.canceller.${value}`));
  const viewing = r.viewing !== "off" && (Number(r.tsukimi) > 0 || Number(r.hanami) > 0);
  sections.push(section(
    t("help.rules.h.scoring"),
    t("help.rules.score"),
    t(`help.rules.multiplier.${r.multiplier}`),
    Number(r.double_at) > 0 ? t("help.rules.double_at", { points: pts(r.double_at) }) : null,
    r.brights_exclusive === false ? t("help.rules.brights_independent") : t("help.rules.brights_exclusive"),
    t(`help.rules.sake_cup.${r.sake_cup}`),
    r.lightning_is_kasu ? null : t("help.rules.lightning_not_plain"),
    r.best_per_category === "animals" || r.best_per_category === "both"
      ? t("help.rules.best.animals", { tane: t("yaku.tane"), inoshikacho: t("yaku.inoshikacho") })
      : null,
    r.best_per_category === "ribbons" || r.best_per_category === "both" ? t("help.rules.best.ribbons", { tan: t("yaku.tan") }) : null,
    r.viewing === "off" ? t("help.rules.viewing.off") : null,
    cancelled.length && r.viewing !== "off" ? t("help.rules.viewing.cancelled", { cards: listOr(cancelled) }) : null,
    viewing && Number(r.viewing_after_koikoi) > 0 ? t("help.rules.viewing_after_koikoi", { points: pts(r.viewing_after_koikoi) }) : null,
    viewing && r.viewing_in_season ? t("help.rules.viewing_in_season") : null,
  ));

  sections.push(section(
    t("help.rules.h.yaku"),
    {
      defs: enabledYaku(r).filter((key) => !HAND_YAKU.has(key)).map((key) => ({
        term: t(`yaku.${key}`),
        detail: `${t(`yaku.${key}.desc`)} ${yakuScoreText(key, r)}`,
      })),
    },
  ));

  const rounds = Number(r.rounds);
  sections.push(section(
    t("help.rules.h.match"),
    rounds === 1 ? t("help.rules.match.single") : t("help.rules.match.rounds", { rounds: plural("rounds", rounds) }),
    Number(r.target_score) > 0 ? t("help.rules.match.target", { points: pts(r.target_score) }) : null,
    Number(r.starting_points) > 0 ? t("help.rules.match.starting_points", { points: pts(r.starting_points) }) : null,
    rounds === 1 ? null : t("help.rules.match.winner"),
  ));
  return sections;
}

function renderSections(sections) {
  return sections.map((s) =>
    h("section", { class: "help-section" },
      h("h3", {}, s.title),
      s.items.map((item) => {
        if (typeof item === "string") return h("p", {}, item);
        if (item.list) return h("ul", {}, item.list.map((text) => h("li", {}, text)));
        if (item.defs) return h("dl", { class: "help-defs" }, item.defs.map((d) => h("div", {}, h("dt", {}, d.term), h("dd", {}, d.detail))));
        return null;
      })));
}

// -- the tabs ------------------------------------------------------------------------------

function yakuTab(r) {
  const enabled = new Set(enabledYaku(r));
  const ordered = [...YAKU_KEYS.filter((key) => enabled.has(key)), ...YAKU_KEYS.filter((key) => !enabled.has(key))];
  return h(
    "div",
    { class: "help-yaku" },
    h("p", { class: "help-lead" }, t("help.yaku.lead")),
    ordered.map((key) =>
      h("article", { class: `yaku-card ${enabled.has(key) ? "" : "is-off"}`, "data-yaku": key },
        h("header", {},
          h("h3", {}, t(`yaku.${key}`), " ", h("span", { class: "yaku-term", lang: locale() === "ja" ? "ja" : "ja-Latn" }, t(`yaku.${key}.term`))),
          h("span", { class: "yaku-score" }, enabled.has(key) ? yakuScoreText(key, r) : t("help.yaku.off"))),
        h("p", {}, t(`yaku.${key}.desc`)),
        h("div", { class: "yaku-cards", role: "group", "aria-label": t("help.yaku.cards_of", { yaku: t(`yaku.${key}`) }) },
          yakuCards(key, r).map((slug) => cardButton(slug, { size: "mini", tabIndex: -1, noFlip: true }))))),
  );
}

function cardsTab() {
  const kinds = ["bright", "animal", "ribbon", "plain"];
  const months = [];
  for (let m = 1; m <= 12; m += 1) {
    const cards = ALL.filter((card) => card.month === m);
    if (!cards.length) continue;
    months.push(
      h("section", { class: "month-row" },
        h("h3", {}, t("help.cards.month", { month: t(`month.${m}`), flower: t(`flower.${cards[0].flower}`) })),
        h("ul", { class: "month-cards" },
          cards.map((card) => h("li", {}, cardButton(card.slug, { size: "mini", tabIndex: -1, noFlip: true }),
            h("span", { class: "month-card-name" }, t(`card.${card.slug}`)), h("span", { class: "month-card-kind" }, t(`kind.${card.kind}.one`)))))));
  }
  return h(
    "div",
    { class: "help-cards" },
    h("p", { class: "help-lead" }, t("help.cards.lead")),
    h("dl", { class: "help-defs kinds" }, kinds.map((kind) => h("div", {}, h("dt", {}, t(`kind.${kind}`)), h("dd", {}, t(`kind.${kind}.desc`))))),
    months,
  );
}

function tipsTab() {
  const items = [];
  for (let i = 1; i <= TIPS; i += 1) items.push(h("li", {}, h("strong", {}, t(`help.tip.${i}.title`)), " ", t(`help.tip.${i}`)));
  return h("div", {}, h("p", { class: "help-lead" }, t("help.tips.lead")), h("ol", { class: "help-tips" }, items));
}

function faqTab() {
  const items = [];
  for (let i = 1; i <= FAQ; i += 1) {
    items.push(h("details", { class: "faq" }, h("summary", {}, t(`help.faq.${i}.q`)), h("p", {}, t(`help.faq.${i}.a`))));
  }
  return h("div", {}, items);
}

const TABS = ["rules", "yaku", "cards", "tips", "faq"];

export function openHelp(rules, initial = "rules") {
  let active = TABS.includes(initial) ? initial : "rules";
  const tabButtons = {};
  const panels = {};
  const build = {
    rules: () => h("div", {}, h("p", { class: "help-lead" }, t("help.rules.lead", { preset: t(`rule.preset.${rules.preset || "classic"}`) })), renderSections(rulesSections(rules))),
    yaku: () => yakuTab(rules),
    cards: cardsTab,
    tips: tipsTab,
    faq: faqTab,
  };
  const tablist = h("div", { class: "tabs", role: "tablist", "aria-label": t("help.title") });
  const body = h("div", { class: "help-body" });
  const select = (name, focus = false) => {
    active = name;
    for (const tab of TABS) {
      tabButtons[tab].setAttribute("aria-selected", String(tab === name));
      tabButtons[tab].tabIndex = tab === name ? 0 : -1;
      panels[tab].hidden = tab !== name;
    }
    if (!panels[name].childElementCount) panels[name].append(build[name]());
    body.scrollTop = 0;
    if (focus) tabButtons[name].focus();
  };
  for (const tab of TABS) {
    tabButtons[tab] = h("button", {
      type: "button",
      role: "tab",
      id: `help-tab-${tab}`,
      "aria-controls": `help-panel-${tab}`,
      "data-testid": `help-tab-${tab}`,
      onclick: () => select(tab),
    }, t(`help.tab.${tab}`));
    panels[tab] = h("div", { role: "tabpanel", id: `help-panel-${tab}`, "aria-labelledby": `help-tab-${tab}`, tabindex: "0", hidden: true });
    tablist.append(tabButtons[tab]);
    body.append(panels[tab]);
  }
  tabKeys(tablist, TABS.length, () => TABS.indexOf(active), (index) => select(TABS[index], true));
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "aria-label": t("ui.close"), title: t("ui.close"), "data-testid": "help-close" }, icon("close"));
  const panel = h(
    "div",
    { class: "dialog help-dialog", "data-testid": "help-dialog", "aria-labelledby": "help-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "help-title" }, t("help.title")), close),
    tablist,
    body,
  );
  select(active);
  const modal = openModal(panel, { initialFocus: `#help-tab-${active}` });
  close.addEventListener("click", () => modal.close());
  return modal;
}
