// @ts-check
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
  CardSet,
  GRASS_RIBBONS,
  HALF_BITS,
  INOSHIKACHO,
  LIGHTNING,
  MONTH_COUNT,
  MONTH_MASKS,
  NO_CARDS,
  PLAINS,
  POETRY_RIBBONS,
  RAINMAN,
  RIBBONS,
  SAKE_CUP,
  SUSUKI_MOON,
  popcount,
} from "./cards.js";
import { BestPerCategory, Multiplier, SakeCup, TsukifudaMonth, Viewing, ViewingCanceller } from "./rules.js";
import {
  ADDITIVE_CALLS,
  GOKO,
  SHIKO,
  AME_SHIKO,
  SANKO,
  INOSHIKACHO_KEY,
  TANE,
  AKATAN,
  AOTAN,
  AKATAN_AOTAN,
  KUSATAN,
  TSUKIFUDA,
  TAN,
  KASU,
  TSUKIMI,
  HANAMI,
  TESHI,
  KUTTSUKI,
  YAKU_KEYS,
  sumValues,
  koikoiBonus,
} from "./points.js";

// The keys, the sum and the koi-koi bonus live in points.js, which the page loads alone.
export * from "./points.js";

/** @typedef {import("./rules.js").RuleSet} RuleSet */
/** @typedef {import("./cards.js").Kind} Kind */
/** @typedef {import("./points.js").Yaku} Yaku */
/**
 * A yaku a pile can still make (progress): its key, the cards it lacks, its points, the
 * kind of card it needs (null: more than one) and those cards (null: any of a group).
 * @typedef {object} ProgressEntry
 * @property {string} yaku
 * @property {number} missing
 * @property {number} points
 * @property {Kind | null} kind
 * @property {string[] | null} cards
 */


/**
 * @param {Iterable<number>} cardIds
 * @returns {Readonly<CardSet>}
 */
const frozen = (cardIds) => Object.freeze(CardSet.of(cardIds));
/** @type {Readonly<Record<ViewingCanceller, Readonly<CardSet>>>} */
const CANCELLER_MASKS = {
  [ViewingCanceller.RAINMAN]: frozen([RAINMAN]),
  [ViewingCanceller.LIGHTNING]: frozen([LIGHTNING]),
  [ViewingCanceller.WILLOW]: MONTH_MASKS[11],
  [ViewingCanceller.PAULOWNIA]: MONTH_MASKS[12],
};
const RIBBON_SETS = new Set([AKATAN, AOTAN, AKATAN_AOTAN, KUSATAN]);
const TSUKIMI_CARDS = frozen([SUSUKI_MOON, SAKE_CUP]);
const HANAMI_CARDS = frozen([CHERRY_CURTAIN, SAKE_CUP]);
const ALL_POETRY_AND_BLUE = Object.freeze(POETRY_RIBBONS.union(BLUE_RIBBONS));

// The sake cup and rain man are each a single bit in hi; the cards a pile needs whole
// are sets tested with CardSet.hasAll.
const SAKE_HI = 1 << (SAKE_CUP - HALF_BITS);
const RAINMAN_HI = 1 << (RAINMAN - HALF_BITS);
const BRIGHTS_LO = BRIGHTS.lo;
const BRIGHTS_HI = BRIGHTS.hi;
const RIBBONS_LO = RIBBONS.lo;
const RIBBONS_HI = RIBBONS.hi;

/** The yaku scoring of one rule set, with its masks and points looked up once. */
export class Scorer {
  /** @param {RuleSet} rules */
  constructor(rules) {
    this.rules = rules;
    this.goko = rules.goko;
    this.shiko = rules.shiko;
    this.ameShiko = rules.ame_shiko;
    this.sanko = rules.sanko;
    this.brightsExclusive = rules.brights_exclusive;
    const animals = rules.sake_cup === SakeCup.PLAIN ? ANIMALS.without(SAKE_CUP) : ANIMALS.copy();
    let plains = rules.lightning_is_kasu ? PLAINS.copy() : PLAINS.without(LIGHTNING);
    if (rules.sake_cup !== SakeCup.ANIMAL) plains = plains.with(SAKE_CUP);
    /** The cards that count as animals under these rules (the sake cup may not). */
    this.animals = Object.freeze(animals);
    /** The cards that count as plains (the sake cup and the lightning may, or not). */
    this.plains = Object.freeze(plains);
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
    const cancel = new CardSet(0, 0);
    for (const canceller of rules.viewing_cancelled_by) cancel.addAll(CANCELLER_MASKS[canceller]);
    /** Captured cards that cancel the viewing yaku. */
    this.viewingCancel = Object.freeze(cancel);
    this.tsukifuda = rules.tsukifuda;
    this.tsukifudaAny = rules.tsukifuda_month === TsukifudaMonth.ANY;
    const best = rules.best_per_category;
    this.bestAnimals = best === BestPerCategory.ANIMALS || best === BestPerCategory.BOTH;
    this.bestRibbons = best === BestPerCategory.RIBBONS || best === BestPerCategory.BOTH;
  }

  /**
   * The yaku a pile of captured cards makes, with their points. ``month`` is the
   * round's month for tsukifuda_month = round and viewing_in_season (0: unknown, so
   * those yaku never score); ``called`` says whether the pile's holder has called
   * koi-koi this round (for viewing_after_koikoi). Hand yaku are not scored here.
   * @param {CardSet} pile
   * @param {number} [month]
   * @param {boolean} [called]
   * @returns {Yaku}
   */
  score(pile, month = 0, called = false) {
    const lo = pile.lo;
    const hi = pile.hi;
    /** @type {Yaku} */
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

    const animals = popcount(lo & this.animals.lo) + popcount(hi & this.animals.hi);
    if (animals >= this.animalFloor) {
      const inoshikacho = this.inoshikacho && pile.hasAll(INOSHIKACHO);
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
      const poetry = pile.hasAll(POETRY_RIBBONS);
      const blue = pile.hasAll(BLUE_RIBBONS);
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
      if (this.kusatan && pile.hasAll(GRASS_RIBBONS)) {
        yaku[KUSATAN] = this.kusatan + extra;
        count++;
      }
      ribbonSets = count - before;
    }

    if (this.tsukifuda) {
      if (this.tsukifudaAny) {
        let months = 0;
        for (let m = 1; m <= MONTH_COUNT; m++) if (pile.hasAll(MONTH_MASKS[m])) months++;
        if (months) {
          yaku[TSUKIFUDA] = this.tsukifuda * months;
          count++;
        }
      } else if (month >= 1 && month <= MONTH_COUNT && pile.hasAll(MONTH_MASKS[month])) {
        yaku[TSUKIFUDA] = this.tsukifuda;
        count++;
      }
    }

    if (this.tan && ribbons >= this.tanMin && !(ribbonSets && this.bestRibbons)) {
      yaku[TAN] = this.tan + this.tanExtra * (ribbons - this.tanMin);
      count++;
    }
    const plains = popcount(lo & this.plains.lo) + popcount(hi & this.plains.hi);
    if (this.kasu && plains >= this.kasuMin) {
      yaku[KASU] = this.kasu + this.kasuExtra * (plains - this.kasuMin);
      count++;
    }

    if (
      this.viewing &&
      hi & SAKE_HI &&
      !(lo & this.viewingCancel.lo || hi & this.viewingCancel.hi) &&
      (count || !this.viewingNeedsOther)
    ) {
      const inSeason = !this.viewingSeason;
      if (this.tsukimi && pile.hasAll(TSUKIMI_CARDS) && (inSeason || month === 8)) {
        yaku[TSUKIMI] = called ? this.tsukimiCalled : this.tsukimi;
      }
      if (this.hanami && pile.hasAll(HANAMI_CARDS) && (inSeason || month === 3)) {
        yaku[HANAMI] = called ? this.hanamiCalled : this.hanami;
      }
    }
    return yaku;
  }

  /**
   * The total of the yaku a pile makes (see score).
   * @param {CardSet} pile
   * @param {number} [month]
   * @param {boolean} [called]
   */
  total(pile, month = 0, called = false) {
    return sumValues(this.score(pile, month, called));
  }

  /**
   * The stopper's round score: double_at, then the koi-koi multiplier, then the additive bonus.
   * @param {number} total the yaku total
   * @param {number} [ownCalls]
   * @param {number} [opponentCalls]
   * @returns {number}
   */
  final(total, ownCalls = 0, opponentCalls = 0) {
    const [doubled, factor] = this.factors(total, ownCalls, opponentCalls);
    return total * (doubled ? 2 : 1) * factor + koikoiBonus(this.rules.multiplier, ownCalls);
  }

  /**
   * Whether double_at doubles this total, and the koi-koi multiplier.
   * @param {number} total
   * @param {number} [ownCalls]
   * @param {number} [opponentCalls]
   * @returns {[boolean, number]}
   */
  factors(total, ownCalls = 0, opponentCalls = 0) {
    const rules = this.rules;
    const doubled = Boolean(rules.double_at) && total >= rules.double_at;
    return [doubled, multiplier(rules.multiplier, ownCalls, opponentCalls)];
  }
}


/**
 * The factor koi-koi calls put on the stopper's score. Powers of two with **, not <<:
 * << wraps at 32 bits, and per-call doubling can go past that in a rule set whose
 * largest total is still within 2**53.
 * @param {Multiplier} kind
 * @param {number} ownCalls
 * @param {number} opponentCalls
 * @returns {number}
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
 * The multiplier each seat would score with if it stopped, given both seats' calls.
 * @param {Multiplier} kind
 * @param {readonly number[]} calls
 * @returns {[number, number]}
 */
export function multipliers(kind, calls) {
  return [multiplier(kind, calls[0], calls[1]), multiplier(kind, calls[1], calls[0])];
}

/** @type {Map<RuleSet, Scorer>} */
const SCORERS = new Map();

/**
 * The compiled scorer of a rule set (cached: rule sets are immutable).
 * @param {RuleSet} rules
 * @returns {Scorer}
 */
export function scorerFor(rules) {
  let scorer = SCORERS.get(rules);
  if (scorer === undefined) {
    if (SCORERS.size >= 256) SCORERS.clear();
    scorer = new Scorer(rules);
    SCORERS.set(rules, scorer);
  }
  return scorer;
}

/**
 * The hand yaku a dealt hand holds: teshi (four of a month) before kuttsuki (four pairs).
 * @param {CardSet} hand
 * @param {RuleSet} rules
 * @returns {Yaku}
 */
export function handYaku(hand, rules) {
  if (!(rules.teshi || rules.kuttsuki)) return {};
  let four = false;
  let pairs = 0;
  for (const c of hand.monthCounts()) {
    if (c === 4) four = true;
    else if (c === 2) pairs++;
  }
  if (rules.teshi && four) return { [TESHI]: rules.teshi };
  if (rules.kuttsuki && pairs >= 4) return { [KUTTSUKI]: rules.kuttsuki };
  return {};
}

/**
 * A pile's yaku, their total, and the stopper's final score (docs/rules.md §7 shape).
 * @param {CardSet} pile
 * @param {RuleSet} rules
 * @param {{month?: number, ownCalls?: number, opponentCalls?: number}} [options]
 * @returns {{yaku: Yaku, total: number, final: number}}
 */
export function scorePile(pile, rules, { month = 0, ownCalls = 0, opponentCalls = 0 } = {}) {
  const scorer = scorerFor(rules);
  const yaku = scorer.score(pile, month, ownCalls > 0);
  const total = sumValues(yaku);
  return { yaku, total, final: scorer.final(total, ownCalls, opponentCalls) };
}

/**
 * The ``most`` yaku nearest to a pile ``own``, nearest first (then the richest): only
 * yaku it has not made and can still make (a card in ``theirs`` it will never capture).
 * @param {CardSet} own
 * @param {CardSet} theirs
 * @param {RuleSet} rules
 * @param {number} [month]
 * @param {number} [most]
 * @returns {ProgressEntry[]}
 */
export function progress(own, theirs, rules, month = 0, most = 3) {
  const scorer = scorerFor(rules);
  const made = scorer.score(own, month);
  const brights = brightReach(scorer, own, theirs, month);
  /** @type {ProgressEntry[]} */
  const near = [];
  for (const [key, points, required, group, needed] of goals(rules, scorer, own, made, month)) {
    if (!points || key in made || (BRIGHT_LADDER.has(key) && !brights.has(key))) continue;
    const entry = progressToward(key, points, required, group, needed, own, theirs);
    if (entry !== null) near.push(entry);
  }
  /** @param {ProgressEntry} entry */
  const order = (entry) => YAKU_KEYS.indexOf(entry.yaku);
  near.sort((a, b) => a.missing - b.missing || b.points - a.points || order(a) - order(b));
  // Tsukifuda of any month is a goal per month: the nearest one stands for them all.
  const seen = new Set();
  const nearest = near.filter((entry) => (seen.has(entry.yaku) ? false : seen.add(entry.yaku)));
  return nearest.slice(0, most);
}

const BRIGHT_LADDER = new Set([GOKO, SHIKO, AME_SHIKO, SANKO]);

/**
 * The bright yaku that some pile grown from `own` would score (yaku.py's _bright_reach).
 * With brights exclusive only the first enabled level scores, so a level its cards pass
 * over is out of reach: once the four brights besides the rain man are in, the rain man
 * makes goko, never ame-shiko. At most 32 piles, as there are five brights.
 * @param {Scorer} scorer
 * @param {CardSet} own
 * @param {CardSet} theirs
 * @param {number} month
 * @returns {Set<string>}
 */
function brightReach(scorer, own, theirs, month) {
  const have = own.intersect(BRIGHTS);
  const free = BRIGHTS.minus(own).minus(theirs).ids();
  /** @type {Set<string>} */
  const reach = new Set();
  for (let chosen = 0; chosen < 1 << free.length; chosen++) {
    const pile = have.copy();
    free.forEach((card, i) => {
      if (chosen & (1 << i)) pile.add(card);
    });
    for (const key of Object.keys(scorer.score(pile, month))) if (BRIGHT_LADDER.has(key)) reach.add(key);
  }
  return reach;
}

/**
 * A yaku a pile may grow toward: its key, its points, the cards it needs all of, a group
 * of cards it needs some of, and how many of those.
 * @typedef {[string, number, Readonly<CardSet>, Readonly<CardSet>, number]} Goal
 */

const OTHER_BRIGHTS = Object.freeze(BRIGHTS.without(RAINMAN));
const RAINMAN_CARD = frozen([RAINMAN]);

/**
 * @param {RuleSet} rules
 * @param {Scorer} scorer
 * @param {CardSet} own
 * @param {Yaku} made
 * @param {number} month
 * @returns {Goal[]}
 */
function goals(rules, scorer, own, made, month) {
  const others = OTHER_BRIGHTS;
  const none = NO_CARDS;
  const hasSet = Object.keys(made).some((key) => RIBBON_SETS.has(key));
  const replaced = scorer.replaces && scorer.akatanAotan;
  /** @type {Goal[]} */
  const list = [
    [GOKO, rules.goko, BRIGHTS, none, 0],
    [SHIKO, rules.shiko, none, others, 4],
    [AME_SHIKO, rules.ame_shiko, RAINMAN_CARD, others, 3],
    [SANKO, rules.sanko, none, others, 3],
    [INOSHIKACHO_KEY, rules.inoshikacho, INOSHIKACHO, none, 0],
    // A set that suppresses its category's count keeps it out of reach once made.
    [TANE, scorer.bestAnimals && own.hasAll(INOSHIKACHO) ? 0 : rules.tane, none, scorer.animals, rules.tane_min],
    // Where akatan-aotan replaces them, the second set makes akatan-aotan instead.
    [AKATAN, replaced && own.hasAll(BLUE_RIBBONS) ? 0 : rules.akatan, POETRY_RIBBONS, none, 0],
    [AOTAN, replaced && own.hasAll(POETRY_RIBBONS) ? 0 : rules.aotan, BLUE_RIBBONS, none, 0],
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
  const cancelled = own.intersects(scorer.viewingCancel);
  if (scorer.viewing && alone && !cancelled) {
    const season = scorer.viewingSeason;
    if (!season || month === 8) list.push([TSUKIMI, rules.tsukimi, TSUKIMI_CARDS, none, 0]);
    if (!season || month === 3) list.push([HANAMI, rules.hanami, HANAMI_CARDS, none, 0]);
  }
  return list;
}

/**
 * @param {string} key
 * @param {number} points
 * @param {CardSet} required
 * @param {CardSet} group
 * @param {number} needed
 * @param {CardSet} own
 * @param {CardSet} theirs
 * @returns {ProgressEntry | null}
 */
function progressToward(key, points, required, group, needed, own, theirs) {
  if (required.intersects(theirs)) return null; // out of reach
  if (group.minus(theirs).count() < needed) return null;
  const lacking = required.minus(own);
  const short = Math.max(0, needed - own.intersect(group).count());
  const missing = lacking.count() + short;
  if (!missing) return null;
  const kinds = new Set(lacking.ids().map((card) => CARDS[card].kind));
  if (short) for (const card of group.ids()) kinds.add(CARDS[card].kind);
  const kind = kinds.size === 1 ? [...kinds][0] : null;
  const cards = !group.isEmpty() && short ? null : lacking.slugs();
  return { yaku: key, missing, points, kind, cards };
}
