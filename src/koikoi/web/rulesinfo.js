// What the client needs to know about a rule set to explain it: each yaku's points
// under the rules, yaku in the rules' order, and the cards that make a yaku (for the
// help's pictures). The rules themselves (the yaku and their order, the koi-koi bonus,
// how a round's points reach the match totals) are the engine's (engine/yaku.js,
// engine/match.js); the server scores, and these only describe.

import { ALL } from "./cards.js";
import { YAKU_KEYS } from "./engine/points.js";

/** The rule field holding a yaku's points. */
function ruleKey(yaku) {
  return yaku.replace(/-/g, "_");
}

export function yakuPoints(rules, yaku) {
  return Number(rules[ruleKey(yaku)] || 0);
}

/** A yaku's points as scored, in the rules' order (the engine's YAKU_KEYS; unknown keys last). */
export function sortYaku(yaku) {
  const order = (key) => (YAKU_KEYS.includes(key) ? YAKU_KEYS.indexOf(key) : YAKU_KEYS.length);
  return Object.entries(yaku || {}).sort((a, b) => order(a[0]) - order(b[0]));
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
