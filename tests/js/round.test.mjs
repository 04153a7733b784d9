// One round of the browser engine (round.js): docs/rules.md §2 and the deal and flow
// fields of §6, the scenarios of tests/test_round.py walked turn by turn with the same
// expected values, the Python engine's messages, and random rounds whose outcomes were
// recorded from the Python engine.

import { describe, test } from "node:test";

import {
  CLASSIC,
  KOIKOI,
  PRESETS,
  Phase,
  Round,
  RulesError,
  SLUGS,
  STOP,
  assert,
  build,
  capture,
  caught,
  cards,
  checkConservation,
  chooser,
  fieldOf,
  handOf,
  historyOf,
  monthCards,
  pileOf,
  play,
  pytext,
  random,
  randomActions,
  round,
  rulesOf,
  seen,
  slugsOf,
  snapshot,
  stockOf,
} from "./helpers.mjs";

const { DealError, IllegalActionError, EXHAUSTED, FINAL_TURN, HAND_YAKU, NO_CALL_ALLOWED, STOPPED } = round;
const { actionFromJson, actionToJson, actionName, shuffledDeck } = round;

const sorted = (names) => [...names].sort((a, b) => SLUGS.indexOf(a) - SLUGS.indexOf(b));
const without = (names, gone) => names.filter((name) => !gone.includes(name));
const rulesWith = (changes, base = CLASSIC) => rulesOf(base, changes);

/** How many cards of each month the named cards hold (index 0: pine). */
function monthCounts(names) {
  const counts = new Array(12).fill(0);
  for (const name of names) counts[cards.CARDS[SLUGS.indexOf(name)].month - 1]++;
  return counts;
}

// -- the hand step and the draw step (§2.3) ------------------------------------------------

const FLOW_FIELD = [
  "pine-plain-1",
  "pine-plain-2", // pine: two on the field
  "plum-plain-1", // plum: one
  "cherry-poetry",
  "cherry-plain-1",
  "cherry-plain-2", // cherry: three
  "wisteria-plain-1",
  "iris-plain-1",
]; // peony, willow: none

function flowRound(hand, stockTop, ruleSet = CLASSIC, month = 0) {
  return build(ruleSet, { hands: [hand, []], field: FLOW_FIELD, stock: [stockTop], month });
}

describe("the hand step and the draw step", () => {
  for (const [card, taken] of [
    ["peony-butterflies", []],
    ["plum-warbler", ["plum-plain-1"]],
    ["cherry-curtain", ["cherry-poetry", "cherry-plain-1", "cherry-plain-2"]],
  ]) {
    test(`the hand step with ${taken.length} match(es): ${card}`, () => {
      const game = flowRound(["peony-butterflies", "plum-warbler", "cherry-curtain"], "willow-lightning");
      const before = fieldOf(game);
      game.apply(play(card));
      assert.equal(game.turn, 1);
      assert.equal(game.phase, Phase.PLAY);
      assert.ok(!handOf(game, 0).includes(card));
      if (taken.length) {
        assert.deepEqual(pileOf(game, 0), sorted([card, ...taken]));
        assert.deepEqual(fieldOf(game), sorted([...without(before, taken), "willow-lightning"]));
      } else {
        assert.deepEqual(pileOf(game, 0), []);
        assert.deepEqual(fieldOf(game), sorted([...before, card, "willow-lightning"]));
      }
      assert.deepEqual(historyOf(game)[0], { seat: 0, source: "play", card, captured: taken });
      checkConservation(game);
    });
  }

  test("two matches in the hand step ask which, even between two plains", () => {
    const game = flowRound(["pine-crane"], "willow-lightning");
    game.apply(play("pine-crane"));
    assert.equal(game.phase, Phase.HAND_CHOICE);
    assert.equal(game.turn, 0);
    assert.equal(game.pendingCard, cards.cardFromSlug("pine-crane"));
    assert.deepEqual(game.legalActions(), [capture("pine-plain-1"), capture("pine-plain-2")]);
    assert.ok(!handOf(game, 0).includes("pine-crane"));
    assert.ok(!fieldOf(game).includes("pine-crane"));
    assert.equal(stockOf(game)[0], "willow-lightning");
    const obs = game.observation(0);
    assert.equal(obs.phase, Phase.HAND_CHOICE);
    assert.equal(obs.pendingCard, cards.cardFromSlug("pine-crane"));
    assert.deepEqual(obs.legalActions, [capture("pine-plain-1"), capture("pine-plain-2")]);
    checkConservation(game);
    game.apply(capture("pine-plain-2"));
    assert.deepEqual(pileOf(game, 0), ["pine-crane", "pine-plain-2"]);
    assert.ok(fieldOf(game).includes("pine-plain-1"));
    assert.equal(game.turn, 1);
    assert.equal(game.phase, Phase.PLAY);
    assert.equal(game.pendingCard, null);
    checkConservation(game);
  });

  test("a choice between two plains with a plain", () => {
    const game = flowRound(["pine-poetry"], "willow-lightning");
    game.apply(play("pine-poetry"));
    assert.equal(game.phase, Phase.HAND_CHOICE);
    game.apply(capture("pine-plain-1"));
    assert.deepEqual(pileOf(game, 0), ["pine-poetry", "pine-plain-1"]);
  });

  for (const [top, taken] of [
    ["willow-lightning", []],
    ["plum-poetry", ["plum-plain-1"]],
    ["cherry-curtain", ["cherry-poetry", "cherry-plain-1", "cherry-plain-2"]],
    ["peony-blue", ["peony-butterflies"]], // the card just played in the hand step
  ]) {
    test(`the draw step with ${taken.length} match(es): ${top}`, () => {
      const game = flowRound(["peony-butterflies"], top);
      game.apply(play("peony-butterflies"));
      assert.equal(game.turn, 1);
      assert.equal(game.phase, Phase.PLAY);
      assert.equal(stockOf(game).length, 23);
      assert.deepEqual(historyOf(game).at(-1), { seat: 0, source: "draw", card: top, captured: taken });
      if (taken.length) {
        assert.deepEqual(pileOf(game, 0), sorted([top, ...taken]));
        for (const card of [top, ...taken]) assert.ok(!fieldOf(game).includes(card));
      } else {
        assert.deepEqual(pileOf(game, 0), []);
        for (const card of [top, "peony-butterflies"]) assert.ok(fieldOf(game).includes(card));
      }
      checkConservation(game);
    });
  }

  test("two matches in the draw step ask which", () => {
    const game = flowRound(["peony-butterflies"], "pine-poetry");
    game.apply(play("peony-butterflies"));
    assert.equal(game.phase, Phase.DRAW_CHOICE);
    assert.equal(game.turn, 0);
    assert.equal(game.pendingCard, cards.cardFromSlug("pine-poetry"));
    assert.deepEqual(game.legalActions(), [capture("pine-plain-1"), capture("pine-plain-2")]);
    assert.equal(stockOf(game).length, 23);
    const obs = game.observation(0);
    assert.equal(obs.pendingCard, cards.cardFromSlug("pine-poetry"));
    assert.equal(obs.stockSize, 23);
    assert.deepEqual(game.observation(1).legalActions, []);
    checkConservation(game);
    game.apply(capture("pine-plain-1"));
    assert.deepEqual(pileOf(game, 0), ["pine-poetry", "pine-plain-1"]);
    assert.ok(fieldOf(game).includes("pine-plain-2") && fieldOf(game).includes("peony-butterflies"));
    assert.equal(game.turn, 1);
    assert.equal(game.phase, Phase.PLAY);
    assert.deepEqual(historyOf(game).at(-1), { seat: 0, source: "draw", card: "pine-poetry", captured: ["pine-plain-1"] });
    checkConservation(game);
  });

  test("a choice in both steps of one turn", () => {
    const game = build(CLASSIC, {
      hands: [["pine-crane"], []],
      field: [...FLOW_FIELD.slice(0, 6), "willow-ribbon", "willow-lightning"],
      stock: ["willow-swallow"],
    });
    game.apply(play("pine-crane"));
    assert.equal(game.phase, Phase.HAND_CHOICE);
    game.apply(capture("pine-plain-1"));
    assert.equal(game.phase, Phase.DRAW_CHOICE);
    assert.deepEqual(game.legalActions(), [capture("willow-ribbon"), capture("willow-lightning")]);
    game.apply(capture("willow-lightning"));
    assert.deepEqual(pileOf(game, 0), ["pine-crane", "pine-plain-1", "willow-swallow", "willow-lightning"]);
    assert.equal(game.turn, 1);
  });

  test("the dealer moves first and turns alternate", () => {
    assert.equal(flowRound(["peony-butterflies"], "willow-lightning").turn, 0);
    const other = build(CLASSIC, { hands: [[], ["peony-butterflies"]], field: FLOW_FIELD, stock: ["willow-lightning"], dealer: 1 });
    assert.equal(other.turn, 1);
    assert.equal(other.dealer, 1);
    assert.deepEqual(other.legalActions(), handOf(other, 1).map(play));
    other.apply(play("peony-butterflies"));
    assert.equal(other.turn, 0);
  });
});

// -- illegal actions --------------------------------------------------------------------------

describe("illegal actions", () => {
  test("an illegal play names it and the legal ones, and changes nothing", () => {
    const game = flowRound(["pine-crane"], "willow-lightning");
    const before = snapshot(game);
    const legal = game.legalActions();
    const opponentCard = handOf(game, 1)[0];
    const error = caught(() => game.apply(play(opponentCard)), IllegalActionError);
    assert.equal(error.message, `illegal action play ${opponentCard}; legal now: ${legal.map(actionName).join(", ")}`);
    assert.deepEqual(error.legal, legal);
    assert.equal(error.action, play(opponentCard));
    assert.deepEqual(snapshot(game), before);
  });

  test("the messages name a non-action as Python's repr does", () => {
    const game = build();
    const legal = "legal now: play pine-crane, play plum-warbler, play cherry-curtain, play wisteria-cuckoo, play iris-bridge, play peony-butterflies, play clover-boar, play susuki-moon";
    assert.equal(caught(() => game.apply(STOP), IllegalActionError).message, `illegal action stop; ${legal}`);
    assert.equal(caught(() => game.apply(null), IllegalActionError).message, `illegal action None; ${legal}`);
    assert.equal(caught(() => game.apply("pine-crane"), IllegalActionError).message, `illegal action 'pine-crane'; ${legal}`);
    assert.equal(caught(() => game.apply(10 ** 6), IllegalActionError).message, `illegal action 1000000; ${legal}`);
  });

  for (const forced of [false, true]) {
    test(`other illegal actions in the play phase${forced ? " under forced_capture" : ""}`, () => {
      const game = flowRound(["pine-crane"], "willow-lightning", rulesWith({ forced_capture: forced }));
      const before = snapshot(game);
      for (const bad of [capture("pine-plain-1"), KOIKOI, STOP, -1, STOP + 1, 10 ** 6, true, "pine-crane", null, 1.5, new pytext.PyFloat(0)]) {
        const error = caught(() => game.apply(bad), IllegalActionError);
        assert.match(error.message, /legal now: play/);
        assert.deepEqual(snapshot(game), before);
      }
    });
  }

  test("illegal actions at a choice", () => {
    const game = flowRound(["pine-crane"], "willow-lightning");
    game.apply(play("pine-crane"));
    const before = snapshot(game);
    for (const bad of [capture("cherry-plain-1"), capture("pine-poetry"), play("pine-plain-1"), KOIKOI, STOP, "capture pine-plain-1"]) {
      assert.ok(caught(() => game.apply(bad), IllegalActionError).message.includes("capture pine-plain-1, capture pine-plain-2"));
      assert.deepEqual(snapshot(game), before);
    }
    game.apply(capture("pine-plain-1"));
    assert.equal(game.turn, 1);
  });

  test("illegal actions at a decision and after the end", () => {
    const game = brightsRound();
    walkToSanko(game);
    assert.equal(game.phase, Phase.DECISION);
    const before = snapshot(game);
    for (const bad of [play(handOf(game, 0)[0]), capture("pine-plain-1"), STOP + 1]) {
      assert.match(caught(() => game.apply(bad), IllegalActionError).message, /legal now: koikoi, stop$/);
      assert.deepEqual(snapshot(game), before);
    }
    game.apply(STOP);
    assert.ok(game.isOver);
    const over = snapshot(game);
    for (const bad of [STOP, KOIKOI, play(handOf(game, 1)[0])]) {
      assert.match(caught(() => game.apply(bad), IllegalActionError).message, /none \(the round is over\)$/);
      assert.deepEqual(snapshot(game), over);
    }
  });
});

// -- forced_capture -------------------------------------------------------------------------

describe("forced_capture", () => {
  test("only matching cards may be played while one matches", () => {
    const hand = ["peony-butterflies", "plum-warbler", "pine-crane", "willow-rainman"];
    const free = flowRound(hand, "willow-lightning");
    assert.deepEqual(free.legalActions(), handOf(free, 0).map(play));
    const forced = flowRound(hand, "willow-lightning", rulesWith({ forced_capture: true }));
    const months = new Set(fieldOf(forced).map((slug) => cards.CARDS[SLUGS.indexOf(slug)].month));
    const matching = handOf(forced, 0).filter((slug) => months.has(cards.CARDS[SLUGS.indexOf(slug)].month));
    assert.ok(matching.length > 0 && matching.length < 8);
    assert.deepEqual(forced.legalActions(), matching.map(play));
    const before = snapshot(forced);
    caught(() => forced.apply(play("peony-butterflies")), IllegalActionError);
    assert.deepEqual(snapshot(forced), before);
    forced.apply(play("plum-warbler"));
    assert.ok(pileOf(forced, 0).includes("plum-warbler"));
  });

  test("any card may be played when none matches", () => {
    const hand = ["peony-butterflies", "peony-blue", "clover-boar", "susuki-moon", "chrysanthemum-sake", "maple-deer", "willow-rainman", "paulownia-phoenix"];
    const game = flowRound(hand, "willow-lightning", rulesWith({ forced_capture: true }));
    assert.deepEqual(game.legalActions(), sorted(hand).map(play));
    game.apply(play("peony-butterflies"));
    assert.ok(fieldOf(game).includes("peony-butterflies"));
  });

  test("the presets", () => {
    assert.equal(PRESETS.get("traditional").forced_capture, true);
    assert.equal(CLASSIC.forced_capture, false);
  });
});

// -- redeals of the field (§2.2) -------------------------------------------------------------

const FOUR_PAIRS = ["plum-warbler", "plum-poetry", "cherry-curtain", "cherry-poetry", "wisteria-cuckoo", "wisteria-ribbon", "iris-bridge", "iris-ribbon"];
const KUTTSUKI_HAND = ["susuki-moon", "susuki-geese", "chrysanthemum-sake", "chrysanthemum-blue", "maple-deer", "maple-blue", "willow-rainman", "willow-swallow"];

describe("redeals", () => {
  test("fromDeal refuses a field that would be redealt", () => {
    const fourPine = [...monthCards(1), "susuki-moon"];
    const monthRules = rulesWith({ redeal_four_of_month: true });
    const pairsRules = rulesWith({ redeal_four_pairs: true });
    const message = "the field meets a redeal condition of these rules; it would be redealt";
    assert.equal(caught(() => build(monthRules, { field: fourPine }), DealError).message, message);
    assert.equal(caught(() => build(pairsRules, { field: FOUR_PAIRS }), DealError).message, message);
    assert.equal(build(CLASSIC, { field: fourPine }).phase, Phase.PLAY);
    assert.equal(build(pairsRules, { field: fourPine }).phase, Phase.PLAY);
    assert.equal(build(monthRules, { field: FOUR_PAIRS }).phase, Phase.PLAY);
    assert.equal(build(CLASSIC, { field: FOUR_PAIRS }).phase, Phase.PLAY);
    for (const preset of ["single-deal", "traditional"]) caught(() => build(PRESETS.get(preset), { field: fourPine }), DealError);
    caught(() => build(PRESETS.get("single-deal"), { field: FOUR_PAIRS }), DealError);
    assert.equal(build(PRESETS.get("traditional"), { field: FOUR_PAIRS }).phase, Phase.PLAY);
  });

  for (const [key, condition] of [
    ["redeal_four_of_month", (field) => monthCounts(field).includes(4)],
    ["redeal_four_pairs", (field) => monthCounts(field).filter((n) => n === 2).length >= 4],
  ]) {
    test(`seeded deals redeal the field under ${key} and keep the dealer`, () => {
      const redeal = rulesWith({ [key]: true });
      let redealt = 0;
      for (let seed = 0; seed < 4000 && redealt < 3; seed++) {
        const dealer = seed % 2;
        const plain = Round.deal(CLASSIC, seed, dealer);
        const game = Round.deal(redeal, seed, dealer);
        assert.ok(!condition(fieldOf(game)));
        assert.equal(game.dealer, dealer);
        assert.equal(game.turn, dealer);
        if (condition(fieldOf(plain))) {
          redealt++;
          assert.notDeepEqual(fieldOf(game), fieldOf(plain));
        } else {
          assert.deepEqual(game.dealJson(), plain.dealJson());
        }
      }
      assert.equal(redealt, 3, "no seed met the condition; the test shows nothing");
    });
  }

  test("a redeal loop that can never deal ends with an error", () => {
    assert.match(caught(() => rulesWith({ hand_size: 6, field_size: 36, redeal_four_of_month: true }), RulesError).message, /0\.02% of deals/);
    // Rules no RuleSet lets through, as a plain object: the engine's own limit still stops.
    const never = { ...rulesWith({ hand_size: 6, field_size: 30, redeal_four_of_month: true }), field_size: 36 };
    assert.equal(caught(() => Round.deal(never, 0, 0), RulesError).message, "these rules redeal 1000 times in a row; they cannot deal");
    assert.equal(round.MAX_REDEALS, 1000);
  });
});

// -- teshi and kuttsuki (§2.2, §6) ----------------------------------------------------------

const TESHI_HAND = ["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2", "plum-warbler", "cherry-curtain", "wisteria-cuckoo", "iris-bridge"];
const TESHI_AND_TWO_PAIRS = ["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2", "plum-warbler", "plum-poetry", "cherry-curtain", "cherry-poetry"];
const PLAIN_HAND = ["peony-butterflies", "clover-boar", "susuki-plain-1", "chrysanthemum-plain-1", "maple-plain-1", "willow-lightning", "paulownia-phoenix", "iris-plain-1"];
const HAND_YAKU_RULES = rulesWith({ teshi: 6, kuttsuki: 4, double_at: 1, multiplier: "per-call" });

describe("hand yaku", () => {
  for (const [hand, key, points] of [
    [TESHI_HAND, "teshi", 6],
    [KUTTSUKI_HAND, "kuttsuki", 4],
    [TESHI_AND_TWO_PAIRS, "teshi", 6],
  ]) {
    test(`${key} in a dealt hand wins the round at once, for either seat and dealer`, () => {
      for (const seat of [0, 1]) {
        for (const dealer of [0, 1]) {
          const hands = seat === 0 ? [hand, PLAIN_HAND] : [PLAIN_HAND, hand];
          const game = build(HAND_YAKU_RULES, { hands, dealer });
          assert.ok(game.isOver);
          assert.deepEqual(game.legalActions(), []);
          assert.deepEqual(game.observation(dealer).legalActions, []);
          const points2 = [0, 0];
          points2[seat] = points; // no multiplier, no double_at
          const held = [{}, {}];
          held[seat] = { [key]: points };
          assert.deepEqual({ ...game.result }, { winner: seat, points: points2, yaku: held, calls: [0, 0], reason: HAND_YAKU });
          assert.deepEqual(historyOf(game), []);
        }
      }
    });
  }

  test("hand yaku are off by default and when zero", () => {
    assert.equal(build(CLASSIC, { hands: [TESHI_HAND, KUTTSUKI_HAND] }).phase, Phase.PLAY);
    assert.equal(build(rulesWith({ kuttsuki: 4 }), { hands: [TESHI_HAND, PLAIN_HAND] }).phase, Phase.PLAY);
    assert.equal(build(rulesWith({ kuttsuki: 4 }), { hands: [TESHI_AND_TWO_PAIRS, PLAIN_HAND] }).phase, Phase.PLAY);
  });

  for (const dealer of [0, 1]) {
    test(`both hands with hand yaku, dealer ${dealer}: redeal, dealer, both, ignore`, () => {
      const hands = [TESHI_HAND, KUTTSUKI_HAND];
      const held = [{ teshi: 6 }, { kuttsuki: 4 }];
      assert.equal(
        caught(() => build(HAND_YAKU_RULES, { hands, dealer }), DealError).message,
        "both hands hold a hand yaku; under these rules that deal is redealt",
      );
      let game = build(rulesWith({ both_hand_yaku: "dealer" }, HAND_YAKU_RULES), { hands, dealer });
      assert.equal(game.result.winner, dealer);
      assert.deepEqual(game.result.points, dealer === 0 ? [6, 0] : [0, 4]);
      assert.deepEqual(game.result.yaku, held);
      game = build(rulesWith({ both_hand_yaku: "both" }, HAND_YAKU_RULES), { hands, dealer });
      assert.equal(game.result.winner, null);
      assert.deepEqual(game.result.points, [6, 4]);
      assert.deepEqual(game.result.yaku, held);
      game = build(rulesWith({ both_hand_yaku: "ignore" }, HAND_YAKU_RULES), { hands, dealer });
      assert.equal(game.result, null);
      assert.equal(game.phase, Phase.PLAY);
      assert.equal(game.turn, dealer);
    });
  }

  test("seeded deals redeal two hand yaku under redeal", () => {
    const base = rulesWith({ hand_size: 14, field_size: 4, teshi: 6, kuttsuki: 6 });
    const both = rulesWith({ both_hand_yaku: "both" }, base);
    let seenBoth = 0;
    for (let seed = 0; seed < 200; seed++) {
      const game = Round.deal(base, seed, 1);
      assert.ok(!(Object.keys(game.handYaku[0]).length && Object.keys(game.handYaku[1]).length));
      assert.equal(game.dealer, 1);
      const other = Round.deal(both, seed, 1);
      if (Object.keys(other.handYaku[0]).length && Object.keys(other.handYaku[1]).length) {
        seenBoth++;
        assert.notDeepEqual(other.dealJson(), game.dealJson());
      }
    }
    assert.ok(seenBoth >= 5, `${seenBoth}`);
  });
});

// -- decisions: stop or koi-koi (§2.4) ------------------------------------------------------

// A scripted classic deal, dealer 0. Seat 0 takes a bright on turns 1, 2, 3 (sanko),
// 4 (shiko) and 5 (goko, the rain man); seat 1 only takes plains meanwhile.
const BRIGHTS_HANDS = [
  ["pine-crane", "cherry-curtain", "susuki-moon", "paulownia-phoenix", "willow-rainman"],
  ["iris-plain-2", "peony-plain-2", "clover-plain-2", "maple-plain-2"],
];
const BRIGHTS_FIELD = ["pine-plain-1", "cherry-plain-1", "susuki-plain-1", "paulownia-plain-1", "iris-plain-1", "peony-plain-1", "clover-plain-1", "maple-plain-1"];
const BRIGHTS_STOCK = [
  "wisteria-plain-1",
  "iris-ribbon",
  "willow-lightning",
  "chrysanthemum-plain-1",
  "chrysanthemum-plain-2",
  "pine-poetry",
  "plum-plain-1",
  "cherry-plain-2",
  "pine-plain-2",
];

function brightsRound(ruleSet = CLASSIC) {
  return build(ruleSet, { hands: BRIGHTS_HANDS, field: BRIGHTS_FIELD, stock: BRIGHTS_STOCK });
}

/** A turn whose steps need no choice. */
function turn(game, card) {
  const seat = game.turn;
  assert.equal(game.phase, Phase.PLAY);
  game.apply(play(card));
  assert.notEqual(game.phase, Phase.HAND_CHOICE);
  assert.notEqual(game.phase, Phase.DRAW_CHOICE);
  if (game.phase === Phase.PLAY) assert.equal(game.turn, 1 - seat);
}

function walkToSanko(game) {
  turn(game, "pine-crane");
  turn(game, "iris-plain-2");
  turn(game, "cherry-curtain");
  turn(game, "peony-plain-2");
  assert.equal(game.phase, Phase.PLAY);
  assert.deepEqual(game.yaku(0), {});
  turn(game, "susuki-moon");
  assert.equal(game.turn, 0);
  assert.deepEqual(game.yaku(0), { sanko: 5 });
}

function walkToShiko(game) {
  walkToSanko(game);
  game.apply(KOIKOI);
  turn(game, "clover-plain-2");
  turn(game, "paulownia-phoenix");
  assert.deepEqual(game.yaku(0), { shiko: 8 });
}

function walkToGoko(game) {
  walkToShiko(game);
  assert.equal(game.phase, Phase.DECISION);
  game.apply(KOIKOI);
  turn(game, "maple-plain-2");
  turn(game, "willow-rainman");
  assert.deepEqual(game.yaku(0), { goko: 10 });
}

// A scripted classic deal, dealer 0: seat 0 reaches tane with five animals on turn 3,
// calls koi-koi, and takes a sixth animal (the sake cup) on turn 4.
const TANE_HANDS = [
  ["plum-warbler", "iris-bridge", "willow-swallow", "chrysanthemum-sake"],
  ["pine-plain-2", "cherry-plain-2", "maple-plain-2"],
];
const TANE_FIELD = ["plum-plain-1", "wisteria-plain-1", "iris-plain-1", "susuki-plain-1", "willow-lightning", "chrysanthemum-plain-1", "pine-plain-1", "cherry-plain-1"];
const TANE_STOCK = ["wisteria-cuckoo", "paulownia-plain-1", "susuki-geese", "paulownia-plain-2", "maple-plain-1", "clover-plain-1", "clover-plain-2"];

function taneRound(decision) {
  const game = build(rulesWith({ decision }), { hands: TANE_HANDS, field: TANE_FIELD, stock: TANE_STOCK });
  turn(game, "plum-warbler");
  turn(game, "pine-plain-2");
  turn(game, "iris-bridge");
  turn(game, "cherry-plain-2");
  turn(game, "willow-swallow");
  assert.equal(game.phase, Phase.DECISION);
  assert.deepEqual(game.yaku(0), { tane: 1 });
  game.apply(KOIKOI);
  turn(game, "maple-plain-2");
  assert.equal(game.turn, 0);
  turn(game, "chrysanthemum-sake");
  assert.deepEqual(game.yaku(0), { tane: 2 });
  return game;
}

// A scripted classic deal, dealer 0: seat 0 makes tsukimi on turn 1 and calls koi-koi;
// seat 1 makes akatan on its turn 2.
const VIEW_HANDS = [
  ["susuki-moon", "maple-plain-2"],
  ["pine-poetry", "cherry-poetry"],
];
const VIEW_FIELD = ["susuki-plain-1", "chrysanthemum-plain-1", "pine-plain-1", "plum-plain-1", "cherry-plain-1", "maple-plain-1", "iris-plain-1", "peony-plain-1"];
const VIEW_STOCK = ["chrysanthemum-sake", "plum-poetry", "willow-lightning", "wisteria-plain-1"];

function akatanRound(ruleSet = CLASSIC) {
  const game = build(ruleSet, { hands: VIEW_HANDS, field: VIEW_FIELD, stock: VIEW_STOCK });
  turn(game, "susuki-moon");
  assert.equal(game.phase, Phase.DECISION);
  assert.deepEqual(game.yaku(0), { tsukimi: 5 });
  game.apply(KOIKOI);
  turn(game, "pine-poetry");
  turn(game, "maple-plain-2");
  assert.equal(game.turn, 1);
  turn(game, "cherry-poetry");
  assert.deepEqual(game.yaku(1), { akatan: 5 });
  return game;
}

describe("decisions", () => {
  test("the first yaku offers the decision", () => {
    const game = brightsRound();
    walkToSanko(game);
    assert.equal(game.phase, Phase.DECISION);
    assert.deepEqual(game.legalActions(), [KOIKOI, STOP]);
    const obs = game.observation(0);
    assert.deepEqual(obs.legalActions, [KOIKOI, STOP]);
    assert.deepEqual(obs.yaku[0], { sanko: 5 });
    assert.deepEqual(obs.decided, [null, null]);
    assert.deepEqual(game.observation(1).legalActions, []);
  });

  test("koi-koi plays on and is counted", () => {
    const game = brightsRound();
    walkToSanko(game);
    game.apply(KOIKOI);
    assert.deepEqual(game.calls, [1, 0]);
    assert.equal(game.phase, Phase.PLAY);
    assert.equal(game.turn, 1);
    const obs = game.observation(1);
    assert.deepEqual(obs.calls, [1, 0]);
    assert.deepEqual(obs.decided, [{ sanko: 5 }, null]);
  });

  test("a stop ends the round and the stopper scores", () => {
    const game = brightsRound();
    walkToSanko(game);
    game.apply(STOP);
    assert.ok(game.isOver);
    assert.deepEqual({ ...game.result }, { winner: 0, points: [5, 0], yaku: [{ sanko: 5 }, {}], calls: [0, 0], reason: STOPPED });
    assert.deepEqual(game.result.toJson(), { winner: 0, points: [5, 0], yaku: [{ sanko: 5 }, {}], calls: [0, 0] });
    assert.deepEqual(game.legalActions(), []);
  });

  for (const decision of ["new-yaku", "higher-total"]) {
    test(`sanko to shiko reopens the decision under ${decision}`, () => {
      const game = brightsRound(rulesWith({ decision }));
      walkToShiko(game);
      assert.equal(game.phase, Phase.DECISION);
      game.apply(STOP);
      assert.deepEqual(game.result.points, [16, 0]); // 8 x 2 for one call (per-call)
      assert.deepEqual(game.result.yaku, [{ shiko: 8 }, {}]);
      assert.deepEqual(game.result.calls, [1, 0]);
    });
  }

  test("more points for the same yaku reopen the decision only under higher-total", () => {
    const higher = taneRound("higher-total");
    assert.equal(higher.phase, Phase.DECISION);
    assert.equal(higher.turn, 0);
    const fresh = taneRound("new-yaku");
    assert.equal(fresh.phase, Phase.PLAY);
    assert.equal(fresh.turn, 1);
    assert.deepEqual(fresh.calls, [1, 0]);
    assert.deepEqual(fresh.observation(1).decided, [{ tane: 1 }, null]);
  });

  test("no new capture, no new decision", () => {
    const game = brightsRound();
    walkToSanko(game);
    game.apply(KOIKOI);
    turn(game, "clover-plain-2");
    assert.equal(game.turn, 0);
    assert.ok(handOf(game, 0).includes("wisteria-cuckoo"));
    game.apply(play("wisteria-cuckoo"));
    assert.ok(pileOf(game, 0).includes("wisteria-cuckoo") && pileOf(game, 0).includes("wisteria-plain-1"));
    assert.deepEqual(game.yaku(0), { sanko: 5 });
    assert.equal(game.phase, Phase.PLAY);
    assert.equal(game.turn, 1);
  });

  test("max_koikoi = 1 stops the player when no call is left", () => {
    const game = brightsRound(rulesWith({ max_koikoi: 1 }));
    walkToShiko(game);
    assert.ok(game.isOver);
    assert.deepEqual({ ...game.result }, { winner: 0, points: [16, 0], yaku: [{ shiko: 8 }, {}], calls: [1, 0], reason: NO_CALL_ALLOWED });
    caught(() => game.apply(STOP), IllegalActionError);
    caught(() => game.apply(KOIKOI), IllegalActionError);
  });

  test("max_koikoi = 2 allows two calls, 0 any number", () => {
    const two = brightsRound(rulesWith({ max_koikoi: 2 }));
    walkToShiko(two);
    assert.equal(two.phase, Phase.DECISION);
    two.apply(KOIKOI);
    assert.deepEqual(two.calls, [2, 0]);
    const any = brightsRound(rulesWith({ max_koikoi: 0 }));
    walkToGoko(any);
    assert.equal(any.phase, Phase.DECISION);
    assert.deepEqual(any.calls, [2, 0]);
  });

  test("a stop takes the round from a player who called", () => {
    const game = akatanRound();
    assert.equal(game.phase, Phase.DECISION);
    assert.equal(game.turn, 1);
    game.apply(STOP);
    assert.deepEqual({ ...game.result }, { winner: 1, points: [0, 10], yaku: [{}, { akatan: 5 }], calls: [1, 0], reason: STOPPED });
  });

  test("koikoi_after_opponent = false stops the other player", () => {
    const game = akatanRound(rulesWith({ koikoi_after_opponent: false }));
    assert.ok(game.isOver);
    assert.equal(game.result.reason, NO_CALL_ALLOWED);
    assert.equal(game.result.winner, 1);
    assert.deepEqual(game.result.points, [0, 10]);
    caught(() => game.apply(STOP), IllegalActionError);
  });

  test("koikoi_after_opponent = false still lets the caller call again", () => {
    const game = brightsRound(rulesWith({ koikoi_after_opponent: false }));
    walkToShiko(game);
    assert.equal(game.phase, Phase.DECISION);
  });
});

// -- multipliers, double_at and the month on a real round -------------------------------------

describe("scoring a real round", () => {
  for (const [multiplier, gokoPoints, akatanPoints] of [
    ["none", 10, 5],
    ["per-call", 40, 10],
    ["any-called", 20, 10],
    ["opponent-called", 10, 10],
    ["per-opponent-call", 10, 10],
  ]) {
    test(`multiplier = ${multiplier} on a stop`, () => {
      const goko = brightsRound(rulesWith({ multiplier }));
      walkToGoko(goko);
      goko.apply(STOP);
      assert.deepEqual(goko.result.points, [gokoPoints, 0]);
      assert.deepEqual(goko.result.calls, [2, 0]);
      assert.deepEqual(goko.result.yaku, [{ goko: 10 }, {}]);
      const akatan = akatanRound(rulesWith({ multiplier }));
      akatan.apply(STOP);
      assert.deepEqual(akatan.result.points, [0, akatanPoints]);
    });
  }

  test("multiplier = additive on a stop: +1 a call", () => {
    const goko = brightsRound(rulesWith({ multiplier: "additive" }));
    walkToGoko(goko);
    goko.apply(STOP);
    assert.deepEqual(goko.result.points, [12, 0]);
  });

  for (const [doubleAt, points] of [
    [0, 40],
    [10, 80],
    [11, 40],
    [1, 80],
  ]) {
    test(`double_at = ${doubleAt} on a real round scores ${points}`, () => {
      const game = brightsRound(rulesWith({ double_at: doubleAt }));
      walkToGoko(game);
      game.apply(STOP);
      assert.deepEqual(game.result.points, [points, 0]);
    });
  }

  test("traditional scoring of a stop", () => {
    const game = akatanRound(PRESETS.get("traditional"));
    game.apply(STOP);
    assert.deepEqual(game.result.points, [0, 10]); // 5 < 8, the opponent called: x2
  });

  for (const [month, scores] of [
    [3, true],
    [4, false],
    [0, false],
  ]) {
    test(`tsukifuda counts the round's month: month ${month}`, () => {
      const ruleSet = rulesWith({ tsukifuda: 4, tsukifuda_month: "round" });
      const game = flowRound(["cherry-curtain"], "willow-lightning", ruleSet, month);
      assert.equal(game.month, month);
      game.apply(play("cherry-curtain"));
      assert.deepEqual(pileOf(game, 0), monthCards(3));
      if (scores) {
        assert.deepEqual(game.yaku(0), { tsukifuda: 4 });
        assert.equal(game.phase, Phase.DECISION);
      } else {
        assert.deepEqual(game.yaku(0), {});
        assert.equal(game.phase, Phase.PLAY);
        assert.equal(game.turn, 1);
      }
      const anyMonth = flowRound(["cherry-curtain"], "willow-lightning", rulesWith({ tsukifuda_month: "any" }, ruleSet), month);
      anyMonth.apply(play("cherry-curtain"));
      assert.deepEqual(anyMonth.yaku(0), { tsukifuda: 4 });
    });
  }

  test("viewing_after_koikoi: the call raises the viewing yaku, and what the next decision compares with", () => {
    const ruleSet = rulesWith({ viewing_after_koikoi: 3, tsukimi: 1 });
    const game = build(ruleSet, { hands: VIEW_HANDS, field: VIEW_FIELD, stock: VIEW_STOCK });
    turn(game, "susuki-moon");
    assert.deepEqual(game.yaku(0), { tsukimi: 1 });
    game.apply(KOIKOI);
    assert.deepEqual(game.yaku(0), { tsukimi: 3 });
    assert.deepEqual(game.observation(0).decided, [{ tsukimi: 3 }, null]);
  });
});

// -- the final turn and exhausted rounds (§2.4, §2.5) ------------------------------------------

function finalHandRound(ruleSet) {
  const game = build(ruleSet, {
    hands: [
      ["susuki-moon", "chrysanthemum-sake"],
      ["cherry-plain-1", "iris-plain-1"],
    ],
    field: ["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2", "plum-warbler", "plum-poetry", "plum-plain-1", "plum-plain-2"],
    stock: ["susuki-plain-1", "chrysanthemum-plain-1", "peony-plain-1", "clover-plain-1"],
  });
  turn(game, "susuki-moon");
  assert.deepEqual(pileOf(game, 0), ["susuki-moon", "susuki-plain-1"]);
  turn(game, "cherry-plain-1");
  assert.equal(game.turn, 0);
  return game;
}

function stockEndRound(ruleSet, dealer = 0) {
  const maker = 1 - dealer;
  const hands = [[], []];
  hands[dealer] = ["chrysanthemum-plain-1", "peony-plain-1"];
  hands[maker] = ["susuki-moon", "peony-butterflies"];
  const game = build(rulesWith({ hand_size: 12, field_size: 20 }, ruleSet), {
    hands,
    field: SLUGS.slice(0, 20),
    stock: ["susuki-plain-1", "chrysanthemum-sake", "clover-plain-1", "maple-plain-1"],
    dealer,
  });
  turn(game, "chrysanthemum-plain-1");
  turn(game, "susuki-moon");
  assert.equal(game.phase, Phase.DECISION);
  assert.deepEqual(game.yaku(maker), { tsukimi: 5 });
  game.apply(KOIKOI);
  turn(game, "peony-plain-1");
  assert.equal(game.turn, maker);
  assert.equal(stockOf(game).length, 1);
  return game;
}

function exhaustedRound(ruleSet, dealer) {
  const game = stockEndRound(ruleSet, dealer);
  const last = without(handOf(game, game.turn), ["peony-butterflies"]).at(-1);
  game.apply(play(last));
  assert.ok(game.isOver);
  return game;
}

describe("the end of a round", () => {
  for (const [doubleAt, points] of [
    [0, 5],
    [5, 10],
  ]) {
    test(`a yaku on the final turn scores at once (double_at ${doubleAt})`, () => {
      const game = finalHandRound(rulesWith({ hand_size: 2, double_at: doubleAt }));
      game.apply(play("chrysanthemum-sake"));
      assert.deepEqual(handOf(game, 0), []);
      assert.ok(game.isOver);
      assert.deepEqual(game.legalActions(), []);
      assert.deepEqual({ ...game.result }, { winner: 0, points: [points, 0], yaku: [{ tsukimi: 5 }, {}], calls: [0, 0], reason: FINAL_TURN });
      caught(() => game.apply(STOP), IllegalActionError);
    });
  }

  for (const [doubleAt, points] of [
    [0, 12],
    [6, 24],
  ]) {
    test(`a higher total on the turn that empties the stock scores at once (double_at ${doubleAt})`, () => {
      const game = stockEndRound(rulesWith({ tane_min: 2, double_at: doubleAt }));
      game.apply(play("peony-butterflies"));
      assert.deepEqual(stockOf(game), []);
      assert.ok(handOf(game, 0).length && handOf(game, 1).length);
      assert.ok(game.isOver);
      assert.equal(game.result.reason, FINAL_TURN);
      assert.equal(game.result.winner, 1);
      assert.deepEqual(game.result.yaku, [{}, { tsukimi: 5, tane: 1 }]);
      assert.deepEqual(game.result.points, [0, points]);
    });
  }

  for (const dealer of [0, 1]) {
    test(`an exhausted round is a draw (dealer ${dealer})`, () => {
      const result = exhaustedRound(CLASSIC, dealer).result;
      assert.equal(result.reason, EXHAUSTED);
      assert.equal(result.winner, null);
      assert.deepEqual(result.points, [0, 0]);
      assert.equal(result.calls[0] + result.calls[1], 1);
      assert.ok(result.yaku.some((held) => JSON.stringify(held) === JSON.stringify({ tsukimi: 5 })));
    });

    test(`an exhausted round goes to the dealer under exhausted = dealer (dealer ${dealer})`, () => {
      const result = exhaustedRound(rulesWith({ exhausted: "dealer", exhausted_points: 3, double_at: 1 }), dealer).result;
      assert.equal(result.reason, EXHAUSTED);
      assert.equal(result.winner, dealer);
      const expected = [0, 0];
      expected[dealer] = 3; // no multiplier, no double_at
      assert.deepEqual(result.points, expected);
    });
  }

  test("exhausted = dealer with zero points still has a winner", () => {
    const result = exhaustedRound(rulesWith({ exhausted: "dealer", exhausted_points: 0 }), 1).result;
    assert.equal(result.winner, 1);
    assert.deepEqual(result.points, [0, 0]);
  });

  test("both hands empty ends the round", () => {
    const game = build(rulesWith({ hand_size: 1, field_size: 4 }), {
      hands: [["susuki-plain-1"], ["maple-plain-1"]],
      field: monthCards(1),
      stock: ["peony-plain-1", "clover-plain-1"],
    });
    game.apply(play("susuki-plain-1"));
    assert.equal(game.turn, 1);
    assert.ok(!game.isOver);
    game.apply(play("maple-plain-1"));
    assert.ok(game.isOver);
    assert.equal(stockOf(game).length, 48 - 2 - 4 - 2);
    assert.equal(game.result.reason, EXHAUSTED);
  });
});

// -- copies and observations --------------------------------------------------------------------

const OBSERVATION_KEYS = [
  "seat", "rules", "phase", "turn", "dealer", "month", "hand", "opponentHandSize", "field", "captured",
  "stockSize", "pendingCard", "legalActions", "calls", "yaku", "decided", "history", "result", "match",
];

function checkObservation(game, seat) {
  const obs = game.observation(seat);
  assert.deepEqual(Object.keys(obs).sort(), [...OBSERVATION_KEYS].sort());
  const hidden = [...handOf(game, 1 - seat), ...stockOf(game)];
  assert.equal(obs.seat, seat);
  assert.deepEqual(slugsOf(obs.hand), handOf(game, seat));
  assert.equal(obs.opponentHandSize, handOf(game, 1 - seat).length);
  assert.equal(obs.stockSize, stockOf(game).length);
  for (const visible of [obs.hand, obs.field, obs.captured[0], obs.captured[1]]) {
    assert.ok(!slugsOf(visible).some((card) => hidden.includes(card)));
  }
  if (obs.pendingCard !== null) assert.ok(!hidden.includes(SLUGS[obs.pendingCard]));
  for (const event of obs.history) {
    assert.ok(!hidden.includes(SLUGS[event.card]));
    assert.ok(!slugsOf(event.captured).some((card) => hidden.includes(card)));
  }
  assert.deepEqual(obs.legalActions, game.turn === seat && !game.isOver ? game.legalActions() : []);
  // Plain data copied out: changing it changes nothing in the round.
  const before = snapshot(game);
  obs.calls[0] += 5;
  obs.legalActions.push(STOP);
  obs.history.length = 0;
  assert.deepEqual(snapshot(game), before);
}

describe("copies and observations", () => {
  test("a copy is independent (20 seeds)", () => {
    for (let seed = 0; seed < 20; seed++) {
      const rng = new random.PyRandom(seed);
      const game = Round.deal(CLASSIC, seed, seed % 2);
      randomActions(game, (items) => items[rng.randbelow(items.length)], rng.randbelow(20));
      const before = snapshot(game);
      const twin = game.copy();
      assert.deepEqual(snapshot(twin), before);
      const moves = randomActions(twin, chooser(seed + 1000));
      assert.ok(twin.isOver);
      assert.deepEqual(snapshot(game), before);
      for (const action of moves) game.apply(action);
      assert.deepEqual(snapshot(game), snapshot(twin));
      assert.deepEqual({ ...game.result }, { ...twin.result });
    }
  });

  for (const preset of [...PRESETS.keys()].sort()) {
    test(`${preset}: observations never show hidden cards (15 rounds)`, () => {
      for (let seed = 0; seed < 15; seed++) {
        const game = Round.deal(PRESETS.get(preset), seed, seed % 2);
        const choose = chooser(seed);
        for (;;) {
          checkObservation(game, 0);
          checkObservation(game, 1);
          if (game.isOver) break;
          game.apply(choose(game.legalActions()));
        }
      }
    });
  }

  test("fromObservation with the true hidden cards reproduces the round (30 seeds)", () => {
    const names = [...PRESETS.keys()].sort();
    for (let seed = 0; seed < 30; seed++) {
      const rng = new random.PyRandom(seed);
      const game = Round.deal(PRESETS.get(names[seed % 4]), seed, seed % 2);
      randomActions(game, (items) => items[rng.randbelow(items.length)], rng.randbelow(25));
      for (const seat of [0, 1]) {
        const rebuilt = Round.fromObservation(game.observation(seat), game.hand(1 - seat), game.stockLeft);
        const original = game.copy();
        assert.deepEqual(seen(rebuilt.observation(0)), seen(original.observation(0)));
        assert.deepEqual(seen(rebuilt.observation(1)), seen(original.observation(1)));
        const choose = chooser(seed * 7 + seat);
        while (!original.isOver) {
          const action = choose(original.legalActions());
          assert.deepEqual(rebuilt.legalActions(), original.legalActions());
          original.apply(action);
          rebuilt.apply(action);
          assert.deepEqual(seen(rebuilt.observation(0)), seen(original.observation(0)));
          assert.deepEqual(seen(rebuilt.observation(1)), seen(original.observation(1)));
        }
        assert.ok(rebuilt.isOver);
        assert.deepEqual({ ...rebuilt.result }, { ...original.result });
      }
    }
  });

  test("fromObservation refuses a wrong guess", () => {
    const game = Round.deal(CLASSIC, 3, 0);
    const obs = game.observation(0);
    const message = "the guess must split the 32 unseen cards into a hand of 8 and a stock of 24";
    assert.equal(caught(() => Round.fromObservation(obs, game.hand(0), game.stockLeft), RangeError).message, message);
    assert.equal(caught(() => Round.fromObservation(obs, game.hand(1), game.stockLeft.slice(1)), RangeError).message, message);
  });
});

// -- deals and actions in record form ----------------------------------------------------------

const DEAL_11 = {"dealer": 1, "hands": [["pine-plain-2", "plum-plain-1", "wisteria-ribbon", "wisteria-plain-1", "iris-plain-1", "iris-plain-2", "clover-boar", "maple-plain-1"], ["plum-poetry", "cherry-curtain", "peony-plain-2", "susuki-geese", "susuki-plain-1", "susuki-plain-2", "chrysanthemum-sake", "willow-ribbon"]], "field": ["cherry-plain-1", "wisteria-plain-2", "clover-plain-2", "chrysanthemum-blue", "willow-rainman", "willow-swallow", "willow-lightning", "paulownia-plain-1"], "stock": ["iris-ribbon", "wisteria-cuckoo", "peony-blue", "clover-plain-1", "paulownia-plain-3", "peony-butterflies", "pine-poetry", "clover-ribbon", "maple-deer", "paulownia-plain-2", "peony-plain-1", "maple-blue", "iris-bridge", "plum-warbler", "chrysanthemum-plain-2", "cherry-plain-2", "chrysanthemum-plain-1", "pine-plain-1", "paulownia-phoenix", "cherry-poetry", "maple-plain-2", "susuki-moon", "pine-crane", "plum-plain-2"]};
const DECK_2026 = [
  9, 44, 19, 38, 14, 3, 5, 41, 47, 21, 31, 32, 24, 17, 36, 7, 39, 20, 0, 45, 28, 15, 8, 25,
  4, 26, 27, 10, 13, 12, 23, 2, 11, 46, 42, 29, 35, 43, 18, 6, 33, 22, 40, 16, 30, 37, 34, 1,
];

describe("deals and actions in record form", () => {
  test("a seed's deal is the Python engine's, and dealJson is the given deal", () => {
    const game = Round.deal(CLASSIC, 11, 1);
    const data = game.dealJson();
    assert.equal(JSON.stringify(data), JSON.stringify(DEAL_11));
    const again = Round.fromDeal(CLASSIC, data.dealer, data.hands, data.field, data.stock);
    assert.deepEqual(seen(again.observation(0)), seen(game.observation(0)));
    assert.deepEqual(again.stockLeft, game.stockLeft);
    assert.deepEqual([data.hands[0].length, data.hands[1].length, data.field.length, data.stock.length], [8, 8, 8, 24]);
  });

  test("a seed's shuffled deck never changes (random.Random(2026) in Python)", () => {
    const rng = new random.PyRandom(2026);
    assert.deepEqual(shuffledDeck(rng), DECK_2026);
    const again = new random.PyRandom(2026);
    shuffledDeck(again);
    assert.equal(again.random(), rng.random()); // the generator goes on alike
  });

  test("deal_in_pairs deals two by two", () => {
    const pairs = rulesWith({ deal_in_pairs: true });
    for (let seed = 0; seed < 10; seed++) {
      const deck = shuffledDeck(new random.PyRandom(seed)).map((id) => SLUGS[id]);
      const place = (game, card) => [handOf(game, 0), handOf(game, 1), fieldOf(game)].findIndex((part) => part.includes(card));
      const game = Round.deal(pairs, new random.PyRandom(seed), seed % 2);
      const singles = Round.deal(CLASSIC, new random.PyRandom(seed), seed % 2);
      const spots = deck.slice(0, 24).map((card) => place(game, card));
      for (let i = 0; i < 24; i += 2) assert.equal(spots[i], spots[i + 1]);
      const singleSpots = deck.slice(0, 24).map((card) => place(singles, card));
      for (let i = 0; i < 24; i += 3) assert.equal(new Set(singleSpots.slice(i, i + 3)).size, 3);
      assert.deepEqual(stockOf(game), deck.slice(24));
      assert.deepEqual(stockOf(singles), deck.slice(24));
    }
  });

  test("actions in record form", () => {
    for (const [data, action] of [
      [{ play: "pine-crane" }, play("pine-crane")],
      [{ capture: "maple-deer" }, capture("maple-deer")],
      [{ koikoi: true }, KOIKOI],
      [{ stop: true }, STOP],
    ]) {
      assert.equal(actionFromJson(data), action);
      assert.deepEqual(actionToJson(action), data);
    }
    assert.deepEqual([play("pine-crane"), capture("pine-crane"), KOIKOI, STOP, round.ACTION_COUNT], [0, 48, 96, 97, 98]);
    assert.equal(actionName(capture("maple-deer")), "capture maple-deer");
    assert.equal(actionName(KOIKOI), "koikoi");
    assert.equal(caught(() => actionToJson(98), RangeError).message, "not an action: 98");
  });

  test("malformed actions are refused with Python's messages", () => {
    const tail = "; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}";
    for (const [data, message] of [
      [{ play: "pine-crain" }, "action {'play': 'pine-crain'}: unknown card 'pine-crain'; did you mean 'pine-crane'?"],
      [{ koikoi: false }, `not an action: {'koikoi': False}${tail}`],
      [{ stop: 1 }, `not an action: {'stop': 1}${tail}`],
      [{ play: "pine-crane", stop: true }, `not an action: {'play': 'pine-crane', 'stop': True}${tail}`],
      [["play", "pine-crane"], `not an action: ['play', 'pine-crane']${tail}`],
      ["stop", `not an action: 'stop'${tail}`],
      [{}, `not an action: {}${tail}`],
      [{ pass: true }, `not an action: {'pass': True}${tail}`],
    ]) {
      assert.equal(caught(() => actionFromJson(data), RangeError).message, message);
    }
  });

  test("fromDeal refuses bad deals with Python's messages", () => {
    const data = build().dealJson();
    const { hands, field, stock } = data;
    for (const [dealer, shown] of [
      [2, "2"],
      [-1, "-1"],
      [true, "True"],
      ["0", "'0'"],
      [null, "None"],
      [new pytext.PyFloat(1), "1.0"],
    ]) {
      assert.equal(caught(() => Round.fromDeal(CLASSIC, dealer, hands, field, stock), DealError).message, `dealer must be 0 or 1, not ${shown}`);
    }
    const refuse = (...args) => caught(() => Round.fromDeal(CLASSIC, ...args), DealError).message;
    assert.equal(refuse(0, [hands[0].slice(0, -1), hands[1]], field, [hands[0].at(-1), ...stock]), "hand 0 has 7 cards; the rules deal 8");
    assert.equal(refuse(0, hands, [...field, stock[0]], stock.slice(1)), "the field has 9 cards; the rules deal 8");
    assert.equal(refuse(0, hands, field, ["pine-crain", ...stock.slice(1)]), "unknown card 'pine-crain'; did you mean 'pine-crane'?");
    assert.equal(refuse(0, hands, field, [...stock.slice(0, -1), field[0]]), "card(s) iris-ribbon dealt twice");
    assert.equal(refuse(0, hands, field, stock.slice(0, -1)), "card(s) missing from the deal: paulownia-plain-3");
    assert.equal(refuse(0, [hands[0]], field, stock), "a deal has two hands, not 1");
  });
});

// -- random rounds, as the Python engine played them ---------------------------------------------

// Round.deal(PRESETS[name], seed, seed % 2) played to the end by random.Random(seed).choice,
// as the Python engine (round.py) played it when these tests were written: [preset, seed,
// actions taken, result, the first three cards of hand 0, the top three of the stock].
const PYTHON_ROUNDS = [
  ["classic", 0, 14, {"winner": 0, "points": [1, 0], "yaku": [{"kasu": 1}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-poetry", "plum-plain-1", "wisteria-cuckoo"], ["pine-plain-1", "pine-crane", "wisteria-plain-2"]],
  ["classic", 1, 14, {"winner": 1, "points": [0, 2], "yaku": [{}, {"tan": 1, "kasu": 1}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "plum-warbler", "plum-plain-1"], ["peony-plain-1", "willow-swallow", "chrysanthemum-blue"]],
  ["classic", 2, 14, {"winner": 1, "points": [0, 34], "yaku": [{}, {"ame-shiko": 7, "tsukimi": 5, "hanami": 5}], "calls": [0, 1], "reason": "stop"}, ["pine-plain-1", "cherry-poetry", "wisteria-plain-1"], ["iris-bridge", "susuki-plain-1", "maple-plain-2"]],
  ["classic", 3, 9, {"winner": 0, "points": [5, 0], "yaku": [{"tsukimi": 5}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-plain-2", "iris-plain-1", "clover-plain-1"], ["clover-boar", "susuki-moon", "pine-poetry"]],
  ["classic", 4, 17, {"winner": 0, "points": [2, 0], "yaku": [{"tan": 1}, {}], "calls": [0, 1], "reason": "final-turn"}, ["pine-crane", "pine-poetry", "cherry-plain-2"], ["iris-bridge", "cherry-curtain", "iris-ribbon"]],
  ["ten-card", 0, 18, {"winner": 1, "points": [0, 2], "yaku": [{}, {"kasu": 1}], "calls": [1, 0], "reason": "stop"}, ["pine-crane", "plum-poetry", "plum-plain-1"], ["maple-blue", "cherry-plain-1", "willow-swallow"]],
  ["ten-card", 1, 14, {"winner": 1, "points": [0, 1], "yaku": [{}, {"kasu": 1}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "plum-warbler", "plum-plain-1"], ["susuki-plain-2", "wisteria-cuckoo", "paulownia-phoenix"]],
  ["ten-card", 2, 15, {"winner": 0, "points": [10, 0], "yaku": [{"tane": 5, "tsukimi": 5}, {}], "calls": [0, 0], "reason": "stop"}, ["pine-plain-1", "cherry-poetry", "wisteria-plain-1"], ["susuki-plain-2", "pine-plain-2", "willow-lightning"]],
  ["ten-card", 3, 25, {"winner": 1, "points": [0, 128], "yaku": [{}, {"sanko": 5, "kasu": 3}], "calls": [3, 1], "reason": "final-turn"}, ["pine-poetry", "plum-plain-2", "iris-plain-1"], ["peony-butterflies", "susuki-plain-1", "susuki-plain-2"]],
  ["ten-card", 4, 11, {"winner": 0, "points": [5, 0], "yaku": [{"sanko": 5}, {}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "pine-poetry", "plum-poetry"], ["chrysanthemum-plain-1", "clover-plain-2", "paulownia-plain-2"]],
  ["single-deal", 0, 14, {"winner": 0, "points": [1, 0], "yaku": [{"kasu": 1}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-poetry", "plum-plain-1", "wisteria-cuckoo"], ["pine-plain-1", "pine-crane", "wisteria-plain-2"]],
  ["single-deal", 1, 14, {"winner": 1, "points": [0, 2], "yaku": [{}, {"tan": 1, "kasu": 1}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "plum-warbler", "plum-plain-1"], ["peony-plain-1", "willow-swallow", "chrysanthemum-blue"]],
  ["single-deal", 2, 16, {"winner": 1, "points": [0, 10], "yaku": [{}, {"ame-shiko": 8, "kasu": 2}], "calls": [0, 1], "reason": "stop"}, ["pine-plain-1", "cherry-poetry", "wisteria-plain-1"], ["iris-bridge", "susuki-plain-1", "maple-plain-2"]],
  ["single-deal", 3, 13, {"winner": 0, "points": [2, 0], "yaku": [{"kasu": 2}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-plain-2", "iris-plain-1", "clover-plain-1"], ["clover-boar", "susuki-moon", "pine-poetry"]],
  ["single-deal", 4, 17, {"winner": 0, "points": [1, 0], "yaku": [{"tan": 1}, {}], "calls": [0, 1], "reason": "final-turn"}, ["pine-crane", "pine-poetry", "cherry-plain-2"], ["iris-bridge", "cherry-curtain", "iris-ribbon"]],
  ["traditional", 0, 17, {"winner": 1, "points": [0, 2], "yaku": [{}, {"kasu": 1}], "calls": [1, 0], "reason": "final-turn"}, ["pine-plain-2", "iris-bridge", "iris-plain-2"], ["pine-plain-1", "pine-crane", "wisteria-plain-2"]],
  ["traditional", 1, 13, {"winner": 0, "points": [1, 0], "yaku": [{"tane": 1}, {}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "iris-ribbon", "peony-blue"], ["peony-plain-1", "willow-swallow", "chrysanthemum-blue"]],
  ["traditional", 2, 4, {"winner": 0, "points": [5, 0], "yaku": [{"tsukimi": 5}, {}], "calls": [0, 0], "reason": "stop"}, ["pine-plain-1", "plum-poetry", "peony-plain-2"], ["iris-bridge", "susuki-plain-1", "maple-plain-2"]],
  ["traditional", 3, 16, {"winner": 1, "points": [0, 3], "yaku": [{}, {"tane": 1, "tan": 2}], "calls": [0, 0], "reason": "final-turn"}, ["plum-plain-1", "peony-blue", "clover-ribbon"], ["clover-boar", "susuki-moon", "pine-poetry"]],
  ["traditional", 4, 16, {"winner": 0, "points": [2, 0], "yaku": [{"tan": 1}, {}], "calls": [0, 1], "reason": "stop"}, ["pine-crane", "cherry-plain-1", "cherry-plain-2"], ["iris-bridge", "cherry-curtain", "iris-ribbon"]],
  ["nintendo", 0, 14, {"winner": 0, "points": [1, 0], "yaku": [{"kasu": 1}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-poetry", "plum-plain-1", "wisteria-cuckoo"], ["pine-plain-1", "pine-crane", "wisteria-plain-2"]],
  ["nintendo", 1, 7, {"winner": 1, "points": [0, 5], "yaku": [{}, {"hanami": 5}], "calls": [0, 0], "reason": "stop"}, ["plum-plain-1", "peony-plain-2", "clover-ribbon"], ["plum-warbler", "pine-plain-2", "wisteria-ribbon"]],
  ["nintendo", 2, 13, {"winner": 1, "points": [0, 34], "yaku": [{}, {"ame-shiko": 7, "tsukimi": 5, "hanami": 5}], "calls": [0, 1], "reason": "no-call-allowed"}, ["pine-plain-1", "cherry-poetry", "wisteria-plain-1"], ["iris-bridge", "susuki-plain-1", "maple-plain-2"]],
  ["nintendo", 3, 9, {"winner": 0, "points": [5, 0], "yaku": [{"tsukimi": 5}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-plain-2", "iris-plain-1", "clover-plain-1"], ["clover-boar", "susuki-moon", "pine-poetry"]],
  ["nintendo", 4, 16, {"winner": 1, "points": [0, 5], "yaku": [{}, {"tsukimi": 5}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "pine-plain-2", "cherry-poetry"], ["plum-plain-1", "chrysanthemum-blue", "willow-rainman"]],
  ["koikoi-japan", 0, 14, {"winner": 0, "points": [1, 0], "yaku": [{"kasu": 1}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-poetry", "plum-plain-1", "wisteria-cuckoo"], ["pine-plain-1", "pine-crane", "wisteria-plain-2"]],
  ["koikoi-japan", 1, 14, {"winner": 1, "points": [0, 2], "yaku": [{}, {"tan": 1, "kasu": 1}], "calls": [0, 0], "reason": "stop"}, ["pine-crane", "plum-warbler", "plum-plain-1"], ["peony-plain-1", "willow-swallow", "chrysanthemum-blue"]],
  ["koikoi-japan", 2, 14, {"winner": 1, "points": [0, 14], "yaku": [{}, {"ame-shiko": 7, "tsukimi": 3, "hanami": 3}], "calls": [0, 1], "reason": "stop"}, ["pine-plain-1", "cherry-poetry", "wisteria-plain-1"], ["iris-bridge", "susuki-plain-1", "maple-plain-2"]],
  ["koikoi-japan", 3, 9, {"winner": 0, "points": [1, 0], "yaku": [{"tsukimi": 1}, {}], "calls": [0, 0], "reason": "stop"}, ["plum-plain-2", "iris-plain-1", "clover-plain-1"], ["clover-boar", "susuki-moon", "pine-poetry"]],
  ["koikoi-japan", 4, 17, {"winner": 0, "points": [1, 0], "yaku": [{"tan": 1}, {}], "calls": [0, 1], "reason": "final-turn"}, ["pine-crane", "pine-poetry", "cherry-plain-2"], ["iris-bridge", "cherry-curtain", "iris-ribbon"]],
];

describe("random rounds", () => {
  for (const name of PRESETS.keys()) {
    test(`${name}: five random rounds end exactly as in the Python engine`, () => {
      const cases = PYTHON_ROUNDS.filter(([preset]) => preset === name);
      assert.equal(cases.length, 5);
      for (const [, seed, count, result, hand0, stock] of cases) {
        const game = Round.deal(PRESETS.get(name), seed, seed % 2);
        const deal = game.dealJson();
        assert.deepEqual(deal.hands[0].slice(0, 3), hand0);
        assert.deepEqual(deal.stock.slice(0, 3), stock);
        const actions = randomActions(game, chooser(seed));
        assert.equal(actions.length, count, `${name} ${seed}`);
        assert.equal(JSON.stringify({ ...game.result.toJson(), reason: game.result.reason }), JSON.stringify(result), `${name} ${seed}`);
        checkConservation(game);
      }
    });
  }
});
