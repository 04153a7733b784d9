// What the client needs to know about a rule set to explain it: the yaku in order,
// their rule keys, the cards that make them, and the koi-koi multiplier. The server
// scores; these only describe.

import { ALL, info } from "./cards.js";

/** Yaku keys in the order of the rules (RULES.md §3). */
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

/** The match score once `rounds` rounds are over, from the finished rounds' results. */
export function totalsAfter(results, rounds) {
  const totals = [0, 0];
  for (const result of results.slice(0, Math.max(0, rounds))) {
    totals[0] += result.points[0];
    totals[1] += result.points[1];
  }
  return totals;
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
