// Messages from the server's gettext catalogs. Every visible text goes through t():
// stable keys, {placeholder} substitution, counted texts as plural.<name>.<category>.

import { api } from "./api.js";

let current = { locale: "en", dir: "ltr", name: "English", plural_categories: ["one", "other"], messages: {} };
let pluralRules = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");
let percents = new Intl.NumberFormat("en", { style: "percent" });
let ratings = new Intl.NumberFormat("en", { useGrouping: false });
let changes = new Intl.NumberFormat("en", { useGrouping: false, signDisplay: "exceptZero" });
let lists = null;
let orLists = null;
const missing = new Set();

export function locale() {
  return current.locale;
}

export function direction() {
  return current.dir;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(current.messages, key);
}

/** Items as alternatives ("a, b or c"). */
export function listOr(items) {
  if (items.length <= 1) return items.join("");
  if (orLists) return orLists.format(items);
  return items.join(", ");
}

/** A number written the language's way. */
export function num(n) {
  return numbers.format(n);
}

/** A rating, written the language's way but ungrouped, as ratings are (1500, not 1,500). */
export function ratingText(n) {
  return ratings.format(n);
}

/** A rating's change, signed (+213, −40), kept left to right inside any sentence. */
export function ratingChange(n) {
  return isolate(changes.format(n));
}

/** A name or other outside text set apart, so it keeps its own direction inside a message. */
export function isolate(text) {
  return `\u2068${text}\u2069`;
}

/** A share (0..1) as a percentage, written the language's way. */
export function percent(share) {
  return percents.format(share);
}

/** A moment (ISO 8601) as a date, with the time of day when `time` is true. */
export function date(iso, { time = false } = {}) {
  const options = time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(current.locale, options).format(new Date(iso));
}

/** Items joined the language's way ("a, b and c"). */
export function list(items) {
  if (items.length <= 1) return items.join("");
  if (lists) return lists.format(items);
  return items.join(", ");
}

function fill(text, params) {
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/** The message of `key`, placeholders filled from `params`. A missing key shows itself. */
export function t(key, params = {}) {
  let text = current.messages[key];
  if (text === undefined) {
    if (!missing.has(key)) {
      missing.add(key);
      console.warn(`koikoi: no message ${key}`, new Error().stack);
    }
    text = key;
  }
  return fill(text, params);
}

/** The counted message `plural.<name>.<category>` for `n` ({n} is filled in). */
export function plural(name, n, params = {}) {
  const category = pluralRules.select(n);
  let key = `plural.${name}.${category}`;
  if (!has(key)) key = `plural.${name}.other`;
  return t(key, { n, ...params });
}

/** How long to wait, in words: seconds under a minute and a half, else minutes. */
export function waitText(seconds) {
  return seconds < 90 ? plural("seconds", seconds) : plural("minutes", Math.ceil(seconds / 60));
}

/** Load a language's catalog and set <html lang dir>. */
export async function loadLanguage(code) {
  const catalog = await api.catalog(code);
  current = catalog;
  pluralRules = new Intl.PluralRules(catalog.locale);
  numbers = new Intl.NumberFormat(catalog.locale);
  percents = new Intl.NumberFormat(catalog.locale, { style: "percent" });
  ratings = new Intl.NumberFormat(catalog.locale, { useGrouping: false });
  changes = new Intl.NumberFormat(catalog.locale, { useGrouping: false, signDisplay: "exceptZero" });
  try {
    lists = new Intl.ListFormat(catalog.locale, { style: "long", type: "conjunction" });
    orLists = new Intl.ListFormat(catalog.locale, { style: "long", type: "disjunction" });
  } catch {
    lists = null;
    orLists = null;
  }
  missing.clear();
  const html = document.documentElement;
  html.lang = catalog.locale;
  html.dir = catalog.dir;
  document.title = t("ui.title");
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  return catalog;
}
