// Scoring captured cards under a rule set (docs/rules.md §3, yaku.py).
//
// A Scorer is compiled once per rule set (masks and points looked up in advance), so
// scoring a pile is a handful of & and popcounts on its two halves: the round engine
// scores after every turn that captures. Yaku come out as a plain object whose keys
// are in the order Python's dict has them, since records and replays print them.

import {
  ANIMALS,
  BLUE_RIBBONS,
  BRIGHTS,
  CARDS,
  CHERRY_CURTAIN,
  GRASS_RIBBONS,
  HALF_BITS,
  INOSHIKACHO,
  LIGHTNING,
  MONTH_COUNT,
  MONTH_MASKS,
  PLAINS,
  POETRY_RIBBONS,
  RAINMAN,
  RIBBONS,
  SAKE_CUP,
  SUSUKI_MOON,
  ids,
  popcount,
  setOf,
  slugs,
} from "./cards.js";
import { BestPerCategory, Multiplier, SakeCup, TsukifudaMonth, Viewing, ViewingCanceller } from "./rules.js";

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

const bit = (card) => setOf([card]);
const CANCELLER_MASKS = {
  [ViewingCanceller.RAINMAN]: bit(RAINMAN),
  [ViewingCanceller.LIGHTNING]: bit(LIGHTNING),
  [ViewingCanceller.WILLOW]: MONTH_MASKS[11],
  [ViewingCanceller.PAULOWNIA]: MONTH_MASKS[12],
};
const RIBBON_SETS = new Set([AKATAN, AOTAN, AKATAN_AOTAN, KUSATAN]);
const TSUKIMI_CARDS = setOf([SUSUKI_MOON, SAKE_CUP]);
const HANAMI_CARDS = setOf([CHERRY_CURTAIN, SAKE_CUP]);
const ALL_POETRY_AND_BLUE = [POETRY_RIBBONS[0] | BLUE_RIBBONS[0], POETRY_RIBBONS[1] | BLUE_RIBBONS[1]];

// The sake cup and rain man are each a single bit in hi; the cards a pile needs whole
// are [lo, hi] pairs tested with holds().
const SAKE_HI = 1 << (SAKE_CUP - HALF_BITS);
const RAINMAN_HI = 1 << (RAINMAN - HALF_BITS);
const [BRIGHTS_LO, BRIGHTS_HI] = BRIGHTS;
const [RIBBONS_LO, RIBBONS_HI] = RIBBONS;

function holds(lo, hi, mask) {
  return (lo & mask[0]) === mask[0] && (hi & mask[1]) === mask[1];
}

/** The yaku scoring of one rule set, with its masks and points looked up once. */
export class Scorer {
  constructor(rules) {
    this.rules = rules;
    this.goko = rules.goko;
    this.shiko = rules.shiko;
    this.ameShiko = rules.ame_shiko;
    this.sanko = rules.sanko;
    this.brightsExclusive = rules.brights_exclusive;
    const animals = rules.sake_cup === SakeCup.PLAIN ? [ANIMALS[0], ANIMALS[1] & ~SAKE_HI] : ANIMALS;
    let plains = rules.lightning_is_kasu ? PLAINS : [PLAINS[0], PLAINS[1] & ~(1 << (LIGHTNING - HALF_BITS))];
    if (rules.sake_cup !== SakeCup.ANIMAL) plains = [plains[0], plains[1] | SAKE_HI];
    this.animals = animals;
    this.plains = plains;
    this.inoshikacho = rules.inoshikacho;
    this.inoshikachoExtra = rules.inoshikacho_extra;
    this.tane = rules.tane;
    this.taneMin = rules.tane_min;
    this.taneExtra = rules.tane_extra;
    // Fewer animals than this can score no animal yaku: most piles stop here.
    this.animalFloor = rules.tane ? Math.min(3, rules.tane_min) : 3;
    this.tan = rules.tan;
    this.tanMin = rules.tan_min;
    this.tanExtra = rules.tan_extra;
    this.kasu = rules.kasu;
    this.kasuMin = rules.kasu_min;
    this.kasuExtra = rules.kasu_extra;
    this.akatan = rules.akatan;
    this.aotan = rules.aotan;
    this.ribbonExtra = rules.ribbon_set_extra;
    this.akatanAotan = rules.akatan_aotan;
    this.replaces = rules.akatan_aotan_replaces;
    this.kusatan = rules.kusatan;
    this.viewing = rules.viewing !== Viewing.OFF && Boolean(rules.tsukimi || rules.hanami);
    this.viewingNeedsOther = rules.viewing === Viewing.WITH_OTHER_YAKU;
    this.tsukimi = rules.tsukimi;
    this.hanami = rules.hanami;
    // After the holder's own koi-koi a viewing yaku may be worth more; one that is
    // switched off stays off.
    const raised = rules.viewing_after_koikoi;
    this.tsukimiCalled = raised && rules.tsukimi ? raised : rules.tsukimi;
    this.hanamiCalled = raised && rules.hanami ? raised : rules.hanami;
    this.viewingSeason = rules.viewing_in_season;
    this.viewingCancel = [0, 0];
    for (const canceller of rules.viewing_cancelled_by) {
      const mask = CANCELLER_MASKS[canceller];
      this.viewingCancel = [this.viewingCancel[0] | mask[0], this.viewingCancel[1] | mask[1]];
    }
    this.tsukifuda = rules.tsukifuda;
    this.tsukifudaAny = rules.tsukifuda_month === TsukifudaMonth.ANY;
    const best = rules.best_per_category;
    this.bestAnimals = best === BestPerCategory.ANIMALS || best === BestPerCategory.BOTH;
    this.bestRibbons = best === BestPerCategory.RIBBONS || best === BestPerCategory.BOTH;
  }

  /**
   * The yaku a pile of captured cards (lo, hi) makes, with their points. ``month`` is
   * the round's month for tsukifuda_month = round and viewing_in_season (0: unknown, so
   * those yaku never score); ``called`` says whether the pile's holder has called
   * koi-koi this round (for viewing_after_koikoi). Hand yaku are not scored here.
   */
  score(lo, hi, month = 0, called = false) {
    const yaku = {};
    let count = 0;
    const brights = popcount(lo & BRIGHTS_LO) + popcount(hi & BRIGHTS_HI);
    if (brights >= 3) {
      const rainman = hi & RAINMAN_HI ? 1 : 0;
      const others = brights - rainman;
      if (!this.brightsExclusive) {
        // brights_exclusive = false: each bright yaku whose cards are there scores.
        if (this.goko && brights === 5) {
          yaku[GOKO] = this.goko;
          count++;
        }
        if (this.shiko && others >= 4) {
          yaku[SHIKO] = this.shiko;
          count++;
        }
        if (this.ameShiko && rainman && brights >= 4) {
          yaku[AME_SHIKO] = this.ameShiko;
          count++;
        }
        if (this.sanko && others >= 3) {
          yaku[SANKO] = this.sanko;
          count++;
        }
      } else if (this.goko && brights === 5) {
        // Otherwise the first enabled level that applies scores alone.
        yaku[GOKO] = this.goko;
        count++;
      } else if (this.shiko && others >= 4) {
        yaku[SHIKO] = this.shiko;
        count++;
      } else if (this.ameShiko && rainman && brights >= 4) {
        yaku[AME_SHIKO] = this.ameShiko;
        count++;
      } else if (this.sanko && others >= 3) {
        yaku[SANKO] = this.sanko;
        count++;
      }
    }

    const animals = popcount(lo & this.animals[0]) + popcount(hi & this.animals[1]);
    if (animals >= this.animalFloor) {
      const inoshikacho = this.inoshikacho && holds(lo, hi, INOSHIKACHO);
      if (inoshikacho) {
        yaku[INOSHIKACHO_KEY] = this.inoshikacho + (this.inoshikachoExtra ? animals - 3 : 0);
        count++;
      }
      if (this.tane && animals >= this.taneMin && !(inoshikacho && this.bestAnimals)) {
        yaku[TANE] = this.tane + this.taneExtra * (animals - this.taneMin);
        count++;
      }
    }

    const ribbons = popcount(lo & RIBBONS_LO) + popcount(hi & RIBBONS_HI);
    let ribbonSets = 0;
    if (ribbons >= 3) {
      // every ribbon set has three
      const before = count;
      const extra = this.ribbonExtra ? ribbons - 3 : 0;
      const poetry = holds(lo, hi, POETRY_RIBBONS);
      const blue = holds(lo, hi, BLUE_RIBBONS);
      if (this.akatanAotan && this.replaces && poetry && blue) {
        yaku[AKATAN_AOTAN] = this.akatanAotan + (this.ribbonExtra ? ribbons - 6 : 0);
        count++;
      } else {
        if (this.akatan && poetry) {
          yaku[AKATAN] = this.akatan + extra;
          count++;
        }
        if (this.aotan && blue) {
          yaku[AOTAN] = this.aotan + extra;
          count++;
        }
        if (this.akatanAotan && poetry && blue) {
          yaku[AKATAN_AOTAN] = this.akatanAotan;
          count++;
        }
      }
      if (this.kusatan && holds(lo, hi, GRASS_RIBBONS)) {
        yaku[KUSATAN] = this.kusatan + extra;
        count++;
      }
      ribbonSets = count - before;
    }

    if (this.tsukifuda) {
      if (this.tsukifudaAny) {
        let months = 0;
        for (let m = 1; m <= MONTH_COUNT; m++) if (holds(lo, hi, MONTH_MASKS[m])) months++;
        if (months) {
          yaku[TSUKIFUDA] = this.tsukifuda * months;
          count++;
        }
      } else if (month >= 1 && month <= MONTH_COUNT && holds(lo, hi, MONTH_MASKS[month])) {
        yaku[TSUKIFUDA] = this.tsukifuda;
        count++;
      }
    }

    if (this.tan && ribbons >= this.tanMin && !(ribbonSets && this.bestRibbons)) {
      yaku[TAN] = this.tan + this.tanExtra * (ribbons - this.tanMin);
      count++;
    }
    const plains = popcount(lo & this.plains[0]) + popcount(hi & this.plains[1]);
    if (this.kasu && plains >= this.kasuMin) {
      yaku[KASU] = this.kasu + this.kasuExtra * (plains - this.kasuMin);
      count++;
    }

    if (
      this.viewing &&
      hi & SAKE_HI &&
      !(lo & this.viewingCancel[0] || hi & this.viewingCancel[1]) &&
      (count || !this.viewingNeedsOther)
    ) {
      const inSeason = !this.viewingSeason;
      if (this.tsukimi && holds(lo, hi, TSUKIMI_CARDS) && (inSeason || month === 8)) {
        yaku[TSUKIMI] = called ? this.tsukimiCalled : this.tsukimi;
      }
      if (this.hanami && holds(lo, hi, HANAMI_CARDS) && (inSeason || month === 3)) {
        yaku[HANAMI] = called ? this.hanamiCalled : this.hanami;
      }
    }
    return yaku;
  }

  total(lo, hi, month = 0, called = false) {
    return sumValues(this.score(lo, hi, month, called));
  }

  /** The stopper's round score: double_at, then the koi-koi multiplier, then the additive bonus. */
  final(total, ownCalls = 0, opponentCalls = 0) {
    const [doubled, factor] = this.factors(total, ownCalls, opponentCalls);
    return total * (doubled ? 2 : 1) * factor + koikoiBonus(this.rules.multiplier, ownCalls);
  }

  /** Whether double_at doubles this total, and the koi-koi multiplier. */
  factors(total, ownCalls = 0, opponentCalls = 0) {
    const rules = this.rules;
    const doubled = Boolean(rules.double_at) && total >= rules.double_at;
    return [doubled, multiplier(rules.multiplier, ownCalls, opponentCalls)];
  }
}

export function sumValues(yaku) {
  let total = 0;
  for (const key in yaku) total += yaku[key];
  return total;
}

/**
 * multiplier = additive: the own calls that each add a point; from the next one on, the
 * score is multiplied by (calls - 2) instead.
 */
const ADDITIVE_CALLS = 3;

/**
 * The factor koi-koi calls put on the stopper's score. Powers of two with **, not <<:
 * << wraps at 32 bits, and per-call doubling can go past that in a rule set whose
 * largest total is still within 2**53.
 */
export function multiplier(kind, ownCalls, opponentCalls) {
  if (kind === Multiplier.PER_CALL) return 2 ** (ownCalls + opponentCalls);
  if (kind === Multiplier.ANY_CALLED) return ownCalls || opponentCalls ? 2 : 1;
  if (kind === Multiplier.OPPONENT_CALLED) return opponentCalls ? 2 : 1;
  if (kind === Multiplier.PER_OPPONENT_CALL) return 2 ** opponentCalls;
  if (kind === Multiplier.ADDITIVE) return ownCalls > ADDITIVE_CALLS ? ownCalls - 2 : 1;
  return 1;
}

/**
 * The points koi-koi calls add to the stopper's score (multiplier = additive: one per
 * own call, up to three calls).
 */
export function koikoiBonus(kind, ownCalls) {
  return kind === Multiplier.ADDITIVE && ownCalls <= ADDITIVE_CALLS ? ownCalls : 0;
}

/** The multiplier each seat would score with if it stopped, given both seats' calls. */
export function multipliers(kind, calls) {
  return [multiplier(kind, calls[0], calls[1]), multiplier(kind, calls[1], calls[0])];
}

const SCORERS = new Map();

/** The compiled scorer of a rule set (cached: rule sets are immutable). */
export function scorerFor(rules) {
  let scorer = SCORERS.get(rules);
  if (scorer === undefined) {
    if (SCORERS.size >= 256) SCORERS.clear();
    scorer = new Scorer(rules);
    SCORERS.set(rules, scorer);
  }
  return scorer;
}

/** The hand yaku a dealt hand holds: teshi (four of a month) before kuttsuki (four pairs). */
export function handYaku(lo, hi, rules) {
  if (!(rules.teshi || rules.kuttsuki)) return {};
  let four = false;
  let pairs = 0;
  for (let m = 0; m < MONTH_COUNT; m++) {
    const n = m < 6 ? (lo >>> (m * 4)) & 15 : (hi >>> ((m - 6) * 4)) & 15;
    const c = popcount(n);
    if (c === 4) four = true;
    else if (c === 2) pairs++;
  }
  if (rules.teshi && four) return { [TESHI]: rules.teshi };
  if (rules.kuttsuki && pairs >= 4) return { [KUTTSUKI]: rules.kuttsuki };
  return {};
}

/** A pile's yaku, their total, and the stopper's final score (docs/rules.md §7 shape). */
export function scorePile(lo, hi, rules, { month = 0, ownCalls = 0, opponentCalls = 0 } = {}) {
  const scorer = scorerFor(rules);
  const yaku = scorer.score(lo, hi, month, ownCalls > 0);
  const total = sumValues(yaku);
  return { yaku, total, final: scorer.final(total, ownCalls, opponentCalls) };
}

/**
 * The ``most`` yaku nearest to a pile ``own``, nearest first (then the richest): only
 * yaku it has not made and can still make (a card in ``theirs`` it will never capture).
 * Piles are [lo, hi]; each entry is {yaku, missing, points, kind, cards}.
 */
export function progress(own, theirs, rules, month = 0, most = 3) {
  const scorer = scorerFor(rules);
  const made = scorer.score(own[0], own[1], month);
  const near = [];
  for (const [key, points, required, group, needed] of goals(rules, scorer, own, made, month)) {
    if (!points || key in made) continue;
    const entry = progressToward(key, points, required, group, needed, own, theirs);
    if (entry !== null) near.push(entry);
  }
  const order = (entry) => YAKU_KEYS.indexOf(entry.yaku);
  near.sort((a, b) => a.missing - b.missing || b.points - a.points || order(a) - order(b));
  // Tsukifuda of any month is a goal per month: the nearest one stands for them all.
  const seen = new Set();
  const nearest = near.filter((entry) => (seen.has(entry.yaku) ? false : seen.add(entry.yaku)));
  return nearest.slice(0, most);
}

function goals(rules, scorer, own, made, month) {
  const others = [BRIGHTS[0], BRIGHTS[1] & ~RAINMAN_HI];
  const none = [0, 0];
  const hasSet = Object.keys(made).some((key) => RIBBON_SETS.has(key));
  const replaced = scorer.replaces && scorer.akatanAotan;
  const list = [
    [GOKO, rules.goko, BRIGHTS, none, 0],
    [SHIKO, rules.shiko, none, others, 4],
    [AME_SHIKO, rules.ame_shiko, bit(RAINMAN), others, 3],
    [SANKO, rules.sanko, none, others, 3],
    [INOSHIKACHO_KEY, rules.inoshikacho, INOSHIKACHO, none, 0],
    // A set that suppresses its category's count keeps it out of reach once made.
    [TANE, scorer.bestAnimals && holds(own[0], own[1], INOSHIKACHO) ? 0 : rules.tane, none, scorer.animals, rules.tane_min],
    // Where akatan-aotan replaces them, the second set makes akatan-aotan instead.
    [AKATAN, replaced && holds(own[0], own[1], BLUE_RIBBONS) ? 0 : rules.akatan, POETRY_RIBBONS, none, 0],
    [AOTAN, replaced && holds(own[0], own[1], POETRY_RIBBONS) ? 0 : rules.aotan, BLUE_RIBBONS, none, 0],
    [AKATAN_AOTAN, rules.akatan_aotan, ALL_POETRY_AND_BLUE, none, 0],
    [KUSATAN, rules.kusatan, GRASS_RIBBONS, none, 0],
    [TAN, scorer.bestRibbons && hasSet ? 0 : rules.tan, none, RIBBONS, rules.tan_min],
    [KASU, rules.kasu, none, scorer.plains, rules.kasu_min],
  ];
  if (scorer.tsukifuda) {
    const months = scorer.tsukifudaAny ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : month ? [month] : [];
    for (const m of months) list.push([TSUKIFUDA, rules.tsukifuda, MONTH_MASKS[m], none, 0]);
  }
  // A canceller already taken rules the viewing yaku out for good; under
  // with-other-yaku, their own cards are not enough until another yaku is made.
  const alone = !scorer.viewingNeedsOther || Object.keys(made).some((key) => key !== TSUKIMI && key !== HANAMI);
  const cancelled = own[0] & scorer.viewingCancel[0] || own[1] & scorer.viewingCancel[1];
  if (scorer.viewing && alone && !cancelled) {
    const season = scorer.viewingSeason;
    if (!season || month === 8) list.push([TSUKIMI, rules.tsukimi, TSUKIMI_CARDS, none, 0]);
    if (!season || month === 3) list.push([HANAMI, rules.hanami, HANAMI_CARDS, none, 0]);
  }
  return list;
}

function count2(lo, hi) {
  return popcount(lo) + popcount(hi);
}

function progressToward(key, points, required, group, needed, own, theirs) {
  if (required[0] & theirs[0] || required[1] & theirs[1]) return null; // out of reach
  if (count2(group[0] & ~theirs[0], group[1] & ~theirs[1]) < needed) return null;
  const lacking = [required[0] & ~own[0], required[1] & ~own[1]];
  const short = Math.max(0, needed - count2(own[0] & group[0], own[1] & group[1]));
  const missing = count2(lacking[0], lacking[1]) + short;
  if (!missing) return null;
  const kinds = new Set(ids(lacking[0], lacking[1]).map((card) => CARDS[card].kind));
  if (short) for (const card of ids(group[0], group[1])) kinds.add(CARDS[card].kind);
  const kind = kinds.size === 1 ? [...kinds][0] : null;
  const cards = (group[0] || group[1]) && short ? null : slugs(lacking[0], lacking[1]);
  return { yaku: key, missing, points, kind, cards };
}
