// What the client needs to know about a rule set to explain it: the yaku in order,
// their rule keys, the cards that make them, and the koi-koi multiplier and bonus.
// The server scores; these only describe.

import { ALL, info } from "./cards.js";

/** Yaku keys in the order of the rules (docs/rules.md §3). */
export const YAKU = [
  "goko", "shiko", "ame-shiko", "sanko", "inoshikacho", "tane", "akatan", "aotan", "akatan-aotan",
  "kusatan", "tsukifuda", "tan", "kasu", "tsukimi", "hanami", "teshi", "kuttsuki",
];

export const HAND_YAKU = new Set(["teshi", "kuttsuki"]);

/** The rule field holding a yaku's points. */
function ruleKey(yaku) {
  return yaku.replace(/-/g, "_");
}

export function yakuPoints(rules, yaku) {
  return Number(rules[ruleKey(yaku)] || 0);
}

/** A yaku's points as scored, in the order of YAKU (unknown keys last). */
export function sortYaku(yaku) {
  const order = (key) => (YAKU.includes(key) ? YAKU.indexOf(key) : YAKU.length);
  return Object.entries(yaku || {}).sort((a, b) => order(a[0]) - order(b[0]));
}

export function total(yaku) {
  return Object.values(yaku || {}).reduce((sum, points) => sum + Number(points), 0);
}

/**
 * The match score once `rounds` rounds are over, from the finished rounds' results.
 * With `starting_points` both start from them and a round's points move from one
 * player to the other (zero-sum), so a total can fall below zero.
 */
export function totalsAfter(results, rounds, rules = {}) {
  const start = Number(rules.starting_points) || 0;
  const totals = [start, start];
  for (const result of results.slice(0, Math.max(0, rounds))) {
    const [a, b] = result.points;
    if (start) {
      totals[0] += a - b;
      totals[1] += b - a;
    } else {
      totals[0] += a;
      totals[1] += b;
    }
  }
  return totals;
}

/** The points a player's own koi-koi calls add to a stop (multiplier = additive: one a
 * call up to three; from the fourth the score is multiplied instead), as the server
 * reports it in the state's `bonus`. */
export function koikoiBonus(rules, calls) {
  return rules && rules.multiplier === "additive" && calls <= 3 ? calls : 0;
}

const slugsWhere = (test) => ALL.filter(test).map((card) => card.slug);

/** The cards that make a yaku, for the pictures in the help (examples for counted yaku). */
export function yakuCards(yaku, rules = {}) {
  const brights = slugsWhere((c) => c.kind === "bright");
  const noRain = brights.filter((s) => s !== "willow-rainman");
  switch (yaku) {
    case "goko":
      return brights;
    case "shiko":
      return noRain;
    case "ame-shiko":
      return ["willow-rainman", ...noRain.slice(0, 3)];
    case "sanko":
      return noRain.slice(0, 3);
    case "inoshikacho":
      return ["clover-boar", "maple-deer", "peony-butterflies"];
    case "tane": {
      const animals = slugsWhere((c) => c.kind === "animal");
      return animals.slice(0, Math.max(1, Math.min(animals.length, Number(rules.tane_min) || 5)));
    }
    case "tan": {
      const ribbons = slugsWhere((c) => c.kind === "ribbon");
      return ribbons.slice(0, Math.max(1, Math.min(ribbons.length, Number(rules.tan_min) || 5)));
    }
    case "kasu": {
      const plains = slugsWhere((c) => c.kind === "plain" && c.slug !== "willow-lightning");
      return plains.slice(0, Math.max(1, Math.min(plains.length, Number(rules.kasu_min) || 10)));
    }
    case "akatan":
      return ["pine-poetry", "plum-poetry", "cherry-poetry"];
    case "aotan":
      return ["peony-blue", "chrysanthemum-blue", "maple-blue"];
    case "akatan-aotan":
      return ["pine-poetry", "plum-poetry", "cherry-poetry", "peony-blue", "chrysanthemum-blue", "maple-blue"];
    case "kusatan":
      return ["wisteria-ribbon", "iris-ribbon", "clover-ribbon"];
    case "tsukifuda":
      return slugsWhere((c) => c.month === 1);
    case "tsukimi":
      return ["susuki-moon", "chrysanthemum-sake"];
    case "hanami":
      return ["cherry-curtain", "chrysanthemum-sake"];
    case "teshi":
      return slugsWhere((c) => c.month === 3);
    case "kuttsuki":
      return [...slugsWhere((c) => c.month === 2).slice(0, 2), ...slugsWhere((c) => c.month === 5).slice(0, 2),
        ...slugsWhere((c) => c.month === 8).slice(0, 2), ...slugsWhere((c) => c.month === 10).slice(0, 2)];
    default:
      return [];
  }
}

/** The same-month field cards a card would meet. */
export function matchesOf(slug, field) {
  const m = info(slug).month;
  return field.filter((other) => other && info(other).month === m);
}
