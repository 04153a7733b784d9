// @ts-check
// The points of yaku, of a koi-koi bonus and of a round in a match, as the engine scores
// them (yaku.py, match.py): a leaf module, imported by yaku.js and match.js and by the
// page itself, which shows these facts and so loads this alone, not the whole engine.

/**
 * Yaku and their points, in the order yaku.py's dict has them (docs/rules.md §3).
 * @typedef {{[key: string]: number}} Yaku
 */
/** @typedef {import("./tables.js").Multiplier} Multiplier */

export const GOKO = "goko";
export const SHIKO = "shiko";
export const AME_SHIKO = "ame-shiko";
export const SANKO = "sanko";
export const INOSHIKACHO_KEY = "inoshikacho";
export const TANE = "tane";
export const AKATAN = "akatan";
export const AOTAN = "aotan";
export const AKATAN_AOTAN = "akatan-aotan";
export const KUSATAN = "kusatan";
export const TSUKIFUDA = "tsukifuda";
export const TAN = "tan";
export const KASU = "kasu";
export const TSUKIMI = "tsukimi";
export const HANAMI = "hanami";
export const TESHI = "teshi";
export const KUTTSUKI = "kuttsuki";

/** Every yaku key, in the order of docs/rules.md §3. */
export const YAKU_KEYS = Object.freeze([
  GOKO, SHIKO, AME_SHIKO, SANKO, INOSHIKACHO_KEY, TANE, AKATAN, AOTAN, AKATAN_AOTAN,
  KUSATAN, TSUKIFUDA, TAN, KASU, TSUKIMI, HANAMI, TESHI, KUTTSUKI,
]);

/**
 * The points of some yaku, summed.
 * @param {Yaku} yaku
 * @returns {number}
 */
export function sumValues(yaku) {
  let total = 0;
  for (const key in yaku) total += yaku[key];
  return total;
}

/**
 * multiplier = additive: the own calls that each add a point; from the next one on, the
 * score is multiplied by (calls - 2) instead.
 */
export const ADDITIVE_CALLS = 3;

/**
 * The points koi-koi calls add to the stopper's score (multiplier = additive: one per
 * own call, up to three calls). The rule's value is spelled out rather than read from
 * tables.js's Multiplier, which would bring the whole rules table to the page; the type
 * check holds it to that enum.
 * @param {Multiplier} kind
 * @param {number} ownCalls
 * @returns {number}
 */
export function koikoiBonus(kind, ownCalls) {
  return kind === "additive" && ownCalls <= ADDITIVE_CALLS ? ownCalls : 0;
}

/**
 * What a round ending with ``points`` adds to each seat's total: its points, or zero-sum
 * (starting_points) its points less what the other seat scored (match.py's round_gains).
 * @param {readonly number[]} points
 * @param {boolean} zeroSum
 * @returns {readonly [number, number]}
 */
export function roundGains(points, zeroSum) {
  return zeroSum ? [points[0] - points[1], points[1] - points[0]] : [points[0], points[1]];
}
