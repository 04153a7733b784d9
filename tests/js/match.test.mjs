// Matches of the browser engine (match.js): rounds, dealers, months, totals and the end
// (docs/rules.md §4, §6), the cases of tests/test_match.py, and random matches whose
// outcomes were recorded from the Python engine.

import { describe, test } from "node:test";

import {
  CLASSIC,
  PRESETS,
  Round,
  assert,
  caught,
  cards,
  chooser,
  match,
  monthCards,
  pileOf,
  random,
  round,
  rulesOf,
} from "./helpers.mjs";

const { Match, drawForDealer, monthOfRound, roundGains, matchEnds, totalsAfter } = match;
const { EXHAUSTED, HAND_YAKU, IllegalActionError, shuffledDeck } = round;

const rulesWith = (changes, base = CLASSIC) => rulesOf(base, changes);

/** Overrides that switch every yaku off: every round is played out and exhausted. */
const NO_YAKU = Object.fromEntries(
  ["goko", "shiko", "ame_shiko", "sanko", "inoshikacho", "tane", "tan", "kasu", "akatan", "aotan", "tsukimi", "hanami"].map((key) => [key, 0]),
);

/**
 * Play a match with random moves (Python's random.Random(seed).choice); the dealer of
 * each round. Only for rules where every round needs an action (no hand yaku).
 */
function playMatch(game, seed) {
  const choose = chooser(seed);
  const dealers = [game.round.dealer];
  let booked = game.results.length;
  assert.equal(booked, 0);
  while (!game.isOver) {
    const legal = game.legalActions();
    assert.ok(legal.length > 0);
    game.apply(choose(legal));
    if (game.results.length !== booked) {
      assert.equal(game.results.length, booked + 1);
      booked++;
      if (!game.isOver) {
        assert.ok(!game.round.isOver);
        dealers.push(game.round.dealer);
      }
    }
  }
  assert.equal(dealers.length, game.results.length);
  return dealers;
}

/** The totals are the rounds' points summed, and the winner the higher total at the end. */
function checkTotals(game) {
  const totals = [0, 1].map((seat) => game.results.reduce((sum, result) => sum + result.points[seat], 0));
  assert.deepEqual(game.totals, totals);
  if (game.isOver) assert.equal(game.winner, totals[0] === totals[1] ? null : totals[0] > totals[1] ? 0 : 1);
  else assert.equal(game.winner, null);
}

// -- the end of a match ---------------------------------------------------------------------

describe("the end of a match", () => {
  for (const rounds of [1, 2, 5]) {
    test(`a match without a target plays its ${rounds} round(s)`, () => {
      const ruleSet = rulesWith({ rounds, target_score: 0 });
      for (let seed = 0; seed < 5; seed++) {
        const game = new Match(ruleSet, seed);
        playMatch(game, seed);
        assert.ok(game.isOver);
        assert.equal(game.results.length, rounds);
        assert.equal(game.roundNumber, rounds);
        assert.deepEqual(game.legalActions(), []);
        checkTotals(game);
      }
    });
  }

  test("a match ends when a player reaches the target", () => {
    const ruleSet = rulesWith({ rounds: 12, target_score: 8 });
    let endedEarly = 0;
    for (let seed = 0; seed < 30; seed++) {
      const game = new Match(ruleSet, seed);
      playMatch(game, seed);
      let running = [0, 0];
      game.results.forEach((result, i) => {
        running = [running[0] + result.points[0], running[1] + result.points[1]];
        if (i + 1 < game.results.length) assert.ok(Math.max(...running) < 8, "the match went on after the target was reached");
      });
      assert.ok(Math.max(...running) >= 8 || game.results.length === 12);
      if (game.results.length < 12) endedEarly++;
      checkTotals(game);
    }
    assert.ok(endedEarly >= 10, `${endedEarly}`);
  });

  test("target 0 means none", () => {
    const game = new Match(rulesWith({ rounds: 4, target_score: 0 }), 1);
    playMatch(game, 1);
    assert.equal(game.results.length, 4);
  });

  test("nothing is legal after the match", () => {
    const game = new Match(rulesWith({ rounds: 1 }), 2);
    playMatch(game, 2);
    assert.deepEqual(game.legalActions(), []);
    assert.match(caught(() => game.apply(0), IllegalActionError).message, /none \(the round is over\)/);
  });

  test("the winner is unknown until the end", () => {
    const game = new Match(rulesWith({ rounds: 3, target_score: 0 }), 4);
    const choose = chooser(4);
    while (!game.isOver) {
      assert.equal(game.winner, null);
      game.apply(choose(game.legalActions()));
    }
    checkTotals(game);
  });

  test("roundGains, matchEnds and totalsAfter, as match.py books a round", () => {
    assert.deepEqual(roundGains([5, 0], false), [5, 0]);
    assert.deepEqual(roundGains([5, 0], true), [5, -5]);
    assert.deepEqual(roundGains([2, 6], true), [-4, 4]);
    assert.equal(matchEnds([10, 10], 0, 0, false), true); // no rounds left
    assert.equal(matchEnds([49, 10], 3, 50, false), false);
    assert.equal(matchEnds([50, 10], 3, 50, false), true); // the target reached
    assert.equal(matchEnds([500, 10], 3, 0, false), false); // target 0: none
    assert.equal(matchEnds([60, 0], 3, 0, true), true); // zero-sum: a seat has no points left
    assert.equal(matchEnds([60, 0], 3, 0, false), false);
    assert.equal(matchEnds([59, 1], 3, 0, true), false);
    const view = { totals: [30, 30], roundsLeft: 2, targetScore: 0 };
    assert.deepEqual(totalsAfter(view, [0, 12], true), [[18, 42], false]);
    assert.deepEqual(totalsAfter(view, [30, 0], true), [[60, 0], true]);
    assert.deepEqual(totalsAfter({ totals: [40, 3], roundsLeft: 5, targetScore: 50 }, [10, 0], false), [[50, 3], true]);
    assert.deepEqual(totalsAfter({ totals: [40, 3], roundsLeft: 0, targetScore: 0 }, [1, 0], false), [[41, 3], true]);
  });
});

// -- zero-sum matches (starting_points) --------------------------------------------------------

describe("zero-sum matches", () => {
  test("koikoi-japan: both start at 30 and a round's points move from loser to winner", () => {
    const japan = PRESETS.get("koikoi-japan");
    let endedEarly = 0;
    for (let seed = 0; seed < 8; seed++) {
      const game = new Match(japan, seed);
      assert.deepEqual(game.totals, [30, 30]);
      assert.equal(game.startingPoints, 30);
      playMatch(game, seed);
      let running = [30, 30];
      game.results.forEach((result, i) => {
        running = [running[0] + result.points[0] - result.points[1], running[1] + result.points[1] - result.points[0]];
        if (i + 1 < game.results.length) assert.ok(Math.min(...running) > 0, "the match went on after a seat ran out");
      });
      assert.deepEqual(game.totals, running);
      assert.equal(game.totals[0] + game.totals[1], 60);
      assert.ok(game.results.length === 8 || Math.min(...game.totals) <= 0);
      if (game.results.length < 8) endedEarly++;
      assert.equal(game.winner, running[0] === running[1] ? null : running[0] > running[1] ? 0 : 1);
    }
    assert.ok(endedEarly >= 1, "no match ran a seat out of points; the test shows little");
  });

  test("the match view carries the totals as they stand", () => {
    const game = new Match(PRESETS.get("koikoi-japan"), 3);
    const choose = chooser(3);
    while (!game.isOver) {
      const view = game.observation(game.turn).match;
      assert.deepEqual(view.totals, game.totals);
      assert.equal(view.rounds, 8);
      assert.equal(view.targetScore, 0);
      game.apply(choose(game.legalActions()));
    }
  });
});

// -- dealers ----------------------------------------------------------------------------------

describe("dealers", () => {
  for (const nextDealer of ["alternate", "winner"]) {
    for (const drawDealer of ["keep", "pass"]) {
      test(`the dealer after each round: next_dealer ${nextDealer}, draw_dealer ${drawDealer}`, () => {
        const ruleSet = rulesWith({ next_dealer: nextDealer, draw_dealer: drawDealer, rounds: 8, target_score: 0, kasu: 0, tan: 0, tane: 0 });
        const seen = { won: 0, drawn: 0 };
        for (let seed = 0; seed < 12; seed++) {
          const game = new Match(ruleSet, seed);
          const dealers = playMatch(game, seed);
          game.results.slice(0, -1).forEach((result, i) => {
            const [dealer, following] = [dealers[i], dealers[i + 1]];
            if (result.winner === null) {
              seen.drawn++;
              assert.equal(following, drawDealer === "keep" ? dealer : 1 - dealer);
            } else {
              seen.won++;
              assert.equal(following, nextDealer === "winner" ? result.winner : 1 - dealer);
            }
          });
        }
        assert.ok(seen.won >= 10 && seen.drawn >= 5, JSON.stringify(seen));
      });
    }
  }

  for (const [nextDealer, totals] of [
    ["alternate", [6, 6]],
    ["winner", null],
  ]) {
    test(`exhausted rounds won by the dealer count for next_dealer = ${nextDealer}`, () => {
      const ruleSet = rulesWith({ ...NO_YAKU, exhausted: "dealer", exhausted_points: 3, next_dealer: nextDealer, draw_dealer: "pass", rounds: 4, target_score: 0 });
      for (let seed = 0; seed < 4; seed++) {
        const game = new Match(ruleSet, seed);
        const dealers = playMatch(game, seed);
        assert.deepEqual(game.results.map((result) => result.winner), dealers);
        assert.ok(game.results.every((result) => result.reason === EXHAUSTED));
        if (nextDealer === "alternate") {
          assert.deepEqual(dealers, [dealers[0], 1 - dealers[0], dealers[0], 1 - dealers[0]]);
          assert.deepEqual(game.totals, totals);
          assert.equal(game.winner, null);
        } else {
          assert.deepEqual(dealers, [dealers[0], dealers[0], dealers[0], dealers[0]]);
          const expected = [0, 0];
          expected[dealers[0]] = 12;
          assert.deepEqual(game.totals, expected);
          assert.equal(game.winner, dealers[0]);
        }
        checkTotals(game);
      }
    });
  }

  for (const drawDealer of ["keep", "pass"]) {
    test(`drawn rounds use draw_dealer = ${drawDealer}`, () => {
      const game = new Match(rulesWith({ ...NO_YAKU, draw_dealer: drawDealer, rounds: 5, target_score: 0 }), 9);
      const dealers = playMatch(game, 9);
      assert.ok(game.results.every((result) => result.winner === null));
      const first = dealers[0];
      assert.deepEqual(dealers, drawDealer === "keep" ? [first, first, first, first, first] : [first, 1 - first, first, 1 - first, first]);
      assert.deepEqual(game.totals, [0, 0]);
      assert.equal(game.winner, null);
    });
  }

  test("first_dealer = seat-0", () => {
    const ruleSet = rulesWith({ first_dealer: "seat-0" });
    for (let seed = 0; seed < 30; seed++) assert.equal(new Match(ruleSet, seed).round.dealer, 0);
  });

  test("first_dealer = random is either seat, and repeatable", () => {
    const ruleSet = rulesWith({ first_dealer: "random" });
    const dealers = Array.from({ length: 40 }, (_, seed) => new Match(ruleSet, seed).round.dealer);
    assert.deepEqual([...new Set(dealers)].sort(), [0, 1]);
    assert.deepEqual(Array.from({ length: 40 }, (_, seed) => new Match(ruleSet, seed).round.dealer), dealers);
    // random.Random(seed).randrange(2), as match.py draws it
    assert.deepEqual(dealers.slice(0, 10), Array.from({ length: 10 }, (_, seed) => new random.PyRandom(seed).randbelow(2)));
  });

  test("first_dealer = card-draw uses the draw", () => {
    const ruleSet = rulesWith({ first_dealer: "card-draw" });
    const dealers = [];
    for (let seed = 0; seed < 40; seed++) {
      const dealer = new Match(ruleSet, seed).round.dealer;
      assert.equal(dealer, drawForDealer(new random.PyRandom(seed)));
      dealers.push(dealer);
    }
    assert.deepEqual([...new Set(dealers)].sort(), [0, 1]);
    assert.equal(PRESETS.get("traditional").first_dealer, "card-draw");
  });

  test("in the draw for dealer the earlier month deals, and a tie draws again", () => {
    let redraws = 0;
    for (let seed = 0; seed < 300; seed++) {
      const shadow = new random.PyRandom(seed);
      let expected;
      for (;;) {
        const deck = shuffledDeck(shadow);
        const months = [cards.MONTH_OF[deck[0]], cards.MONTH_OF[deck[1]]];
        if (months[0] !== months[1]) {
          expected = months[0] < months[1] ? 0 : 1;
          break;
        }
        redraws++;
      }
      const rng = new random.PyRandom(seed);
      assert.equal(drawForDealer(rng), expected);
      assert.equal(rng.uint32(), shadow.uint32()); // nothing more was drawn
    }
    assert.ok(redraws > 0, "no seed drew the same month twice; the test shows nothing");
  });
});

// -- months ------------------------------------------------------------------------------------

describe("months", () => {
  test("the month of each round", () => {
    for (const [number, month] of [
      [1, 1],
      [2, 2],
      [11, 11],
      [12, 12],
      [13, 1],
      [24, 12],
      [25, 1],
    ]) {
      assert.equal(monthOfRound(number), month);
    }
  });

  test("each round of a match is played in its month", () => {
    const game = new Match(rulesWith({ rounds: 14, target_score: 0 }), 5);
    const choose = chooser(5);
    const months = [game.round.month];
    while (!game.isOver) {
      const number = game.roundNumber;
      assert.equal(game.round.month, monthOfRound(number));
      assert.equal(game.observation(game.turn).month, monthOfRound(number));
      game.apply(choose(game.legalActions()));
      if (!game.isOver && game.roundNumber !== number) months.push(game.round.month);
    }
    assert.deepEqual(months, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2]);
  });

  test("tsukifuda counts only the round's month in a match", () => {
    const ruleSet = rulesWith({ tsukifuda: 4, tsukifuda_month: "round", rounds: 12, target_score: 0 });
    let scored = 0;
    for (let seed = 0; seed < 15; seed++) {
      const game = new Match(ruleSet, seed);
      const choose = chooser(seed);
      while (!game.isOver) {
        const whole = monthCards(monthOfRound(game.roundNumber));
        for (const seat of [0, 1]) {
          const has = whole.every((card) => pileOf(game.round, seat).includes(card));
          assert.equal("tsukifuda" in game.round.yaku(seat), has);
          if (has) scored++;
        }
        game.apply(choose(game.legalActions()));
      }
    }
    assert.ok(scored > 0);
  });

  test("a given deal has an unknown month", () => {
    const ruleSet = rulesWith({ tsukifuda: 4 });
    const data = Round.deal(ruleSet, 3, 0).dealJson();
    const game = Match.single(Round.fromDeal(ruleSet, 0, data.hands, data.field, data.stock));
    assert.equal(game.round.month, 0);
  });
});

// -- given deals and matches of hand-yaku rounds ------------------------------------------------

describe("given deals and hand-yaku rounds", () => {
  test("a given deal is a match of one round", () => {
    const ruleSet = rulesWith({ rounds: 12, target_score: 50, first_dealer: "seat-0" });
    const data = Round.deal(ruleSet, 8, 1).dealJson();
    const game = Match.single(Round.fromDeal(ruleSet, 1, data.hands, data.field, data.stock));
    assert.equal(game.round.dealer, 1); // first_dealer does not apply
    assert.deepEqual(game.view(), { roundNumber: 1, rounds: 1, totals: [0, 0], targetScore: 0, roundsLeft: 0 });
    assert.equal(game.seed, null);
    assert.deepEqual(game.deal, data);
    playMatch(game, 8);
    assert.equal(game.results.length, 1);
    assert.deepEqual(game.totals, game.results[0].points);
    assert.deepEqual(game.view(), { roundNumber: 1, rounds: 1, totals: game.totals, targetScore: 0, roundsLeft: 0 });
    checkTotals(game);
  });

  test("a given deal under starting_points is no zero-sum match", () => {
    const japan = PRESETS.get("koikoi-japan");
    const data = Round.deal(japan, 4, 0).dealJson();
    const game = Match.single(Round.fromDeal(japan, 0, data.hands, data.field, data.stock));
    assert.deepEqual(game.totals, [0, 0]);
    assert.equal(game.startingPoints, 0);
    playMatch(game, 4);
    assert.deepEqual(game.totals, game.results[0].points);
  });

  test("rounds that end at the deal are booked and the match goes on", () => {
    const ruleSet = rulesWith({ target_score: 0 }, rulesWith({ hand_size: 14, field_size: 4, teshi: 6, kuttsuki: 6, both_hand_yaku: "both", rounds: 6 }));
    let handRounds = 0;
    for (let seed = 0; seed < 10; seed++) {
      const game = new Match(ruleSet, seed);
      const choose = chooser(seed);
      while (!game.isOver) {
        assert.ok(!game.round.isOver);
        game.apply(choose(game.legalActions()));
      }
      assert.equal(game.results.length, 6);
      checkTotals(game);
      for (const result of game.results) {
        if (result.reason !== HAND_YAKU) continue;
        handRounds++;
        const held = result.yaku.map((yaku) => Object.keys(yaku).length > 0);
        if (held[0] && held[1]) {
          assert.equal(result.winner, null);
          assert.deepEqual(result.points, result.yaku.map((yaku) => Object.values(yaku).reduce((a, b) => a + b, 0)));
        } else {
          assert.equal(result.winner, held[0] ? 0 : 1);
        }
      }
    }
    assert.ok(handRounds >= 20, `${handRounds}`);
  });

  test("the match view in observations", () => {
    const game = new Match(rulesWith({ rounds: 3, target_score: 40 }), 6);
    const choose = chooser(6);
    while (!game.isOver) {
      const view = game.observation(game.turn).match;
      assert.equal(view.roundNumber, game.results.length + 1);
      assert.equal(view.rounds, 3);
      assert.equal(view.roundsLeft, 3 - view.roundNumber);
      assert.deepEqual(view.totals, game.totals);
      assert.equal(view.targetScore, 40);
      game.apply(choose(game.legalActions()));
    }
  });

  test("a match is repeatable from its seed", () => {
    const ruleSet = PRESETS.get("ten-card");
    const first = new Match(ruleSet, 77);
    playMatch(first, 1);
    const second = new Match(ruleSet, 77);
    for (const action of first.actions) second.apply(action);
    assert.ok(second.isOver);
    assert.deepEqual(second.results.map((r) => r.toJson()), first.results.map((r) => r.toJson()));
    assert.deepEqual(second.totals, first.totals);
  });

  test("a seed may be a BigInt past 2**53", () => {
    const big = 2n ** 64n + 5n;
    const one = new Match(CLASSIC, big);
    const two = new Match(CLASSIC, big);
    assert.deepEqual(one.round.dealJson(), two.round.dealJson());
    assert.notDeepEqual(one.round.dealJson(), new Match(CLASSIC, 5).round.dealJson());
  });
});

// -- random matches, as the Python engine played them ------------------------------------------

// Match(PRESETS[name], seed) played to the end by random.Random(seed + 100).choice, as
// the Python engine (match.py) played it when these tests were written: [preset, seed,
// actions taken, totals, winner, each round's dealer, each round's end, each round's
// points].
const PYTHON_MATCHES = [
  ["classic", 0, 37, [0, 63], 1, [1, 0], ["final-turn", "final-turn"], [[0, 3], [0, 60]]],
  ["classic", 1, 157, [66, 41], 0, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1], ["stop", "final-turn", "stop", "final-turn", "final-turn", "final-turn", "stop", "exhausted", "exhausted", "stop"], [[5, 0], [0, 22], [5, 0], [0, 5], [0, 2], [0, 12], [12, 0], [0, 0], [0, 0], [44, 0]]],
  ["classic", 2, 95, [14, 56], 1, [0, 1, 0, 1, 0, 1], ["stop", "final-turn", "final-turn", "stop", "exhausted", "final-turn"], [[0, 5], [0, 16], [14, 0], [0, 5], [0, 0], [0, 30]]],
  ["ten-card", 0, 235, [69, 416], 1, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0], ["stop", "final-turn", "stop", "final-turn", "final-turn", "stop", "stop", "stop", "stop", "stop", "exhausted", "stop"], [[0, 12], [0, 208], [0, 5], [48, 0], [0, 144], [0, 18], [0, 4], [16, 0], [0, 5], [0, 20], [0, 0], [5, 0]]],
  ["ten-card", 1, 198, [291, 51], 0, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], ["final-turn", "stop", "final-turn", "stop", "stop", "stop", "stop", "stop", "stop", "stop", "final-turn", "stop"], [[48, 0], [28, 0], [68, 0], [0, 5], [5, 0], [0, 5], [0, 5], [1, 0], [0, 10], [0, 26], [136, 0], [5, 0]]],
  ["ten-card", 2, 212, [200, 1058], 1, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], ["final-turn", "stop", "stop", "stop", "stop", "stop", "stop", "final-turn", "stop", "stop", "final-turn", "stop"], [[0, 24], [0, 12], [20, 0], [56, 0], [0, 10], [0, 5], [4, 0], [0, 992], [0, 5], [0, 5], [120, 0], [0, 5]]],
  ["single-deal", 0, 17, [0, 4], 1, [1], ["final-turn"], [[0, 4]]],
  ["single-deal", 1, 17, [0, 1], 1, [0], ["stop"], [[0, 1]]],
  ["single-deal", 2, 18, [0, 2], 1, [0], ["final-turn"], [[0, 2]]],
  ["traditional", 0, 187, [28, 27], 0, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0], ["stop", "stop", "stop", "stop", "stop", "stop", "exhausted", "exhausted", "stop", "exhausted", "final-turn", "exhausted"], [[2, 0], [16, 0], [2, 0], [5, 0], [0, 26], [1, 0], [0, 0], [0, 0], [0, 1], [0, 0], [2, 0], [0, 0]]],
  ["traditional", 1, 181, [25, 24], 0, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], ["stop", "stop", "stop", "stop", "stop", "final-turn", "exhausted", "stop", "stop", "exhausted", "final-turn", "exhausted"], [[5, 0], [6, 0], [0, 1], [1, 0], [0, 5], [0, 12], [0, 0], [0, 6], [1, 0], [0, 0], [12, 0], [0, 0]]],
  ["traditional", 2, 197, [154, 106], 0, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], ["stop", "stop", "final-turn", "final-turn", "final-turn", "stop", "stop", "final-turn", "stop", "final-turn", "stop", "stop"], [[0, 1], [1, 0], [0, 40], [0, 40], [0, 2], [0, 22], [0, 1], [62, 0], [6, 0], [52, 0], [1, 0], [32, 0]]],
  ["nintendo", 0, 182, [73, 16], 0, [1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1], ["final-turn", "no-call-allowed", "stop", "stop", "stop", "exhausted", "final-turn", "stop", "stop", "stop", "final-turn", "no-call-allowed"], [[0, 4], [30, 0], [1, 0], [0, 2], [1, 0], [0, 0], [3, 0], [14, 0], [14, 0], [0, 5], [0, 5], [10, 0]]],
  ["nintendo", 1, 173, [45, 37], 0, [0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0], ["stop", "no-call-allowed", "stop", "stop", "stop", "final-turn", "exhausted", "no-call-allowed", "no-call-allowed", "final-turn", "final-turn", "no-call-allowed"], [[5, 0], [0, 2], [14, 0], [0, 1], [1, 0], [1, 0], [0, 0], [4, 0], [0, 24], [14, 0], [6, 0], [0, 10]]],
  ["nintendo", 2, 186, [110, 24], 0, [0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0], ["stop", "no-call-allowed", "no-call-allowed", "final-turn", "final-turn", "no-call-allowed", "stop", "final-turn", "no-call-allowed", "stop", "final-turn", "stop"], [[0, 5], [0, 14], [16, 0], [34, 0], [24, 0], [12, 0], [0, 5], [3, 0], [14, 0], [1, 0], [1, 0], [5, 0]]],
  ["koikoi-japan", 0, 131, [57, 3], 0, [1, 1, 0, 0, 0, 1, 1, 0], ["final-turn", "final-turn", "final-turn", "stop", "stop", "exhausted", "final-turn", "stop"], [[0, 4], [16, 0], [6, 0], [1, 0], [0, 1], [0, 1], [3, 0], [7, 0]]],
  ["koikoi-japan", 1, 122, [34, 26], 0, [0, 0, 1, 1, 1, 0, 0, 0], ["stop", "stop", "stop", "final-turn", "final-turn", "final-turn", "stop", "exhausted"], [[1, 0], [0, 1], [0, 5], [0, 5], [1, 0], [6, 0], [6, 0], [1, 0]]],
  ["koikoi-japan", 2, 75, [-5, 65], 1, [0, 1, 1, 1, 1], ["stop", "stop", "final-turn", "stop", "final-turn"], [[0, 1], [0, 6], [0, 8], [0, 5], [0, 15]]],
];

describe("random matches", () => {
  for (const name of PRESETS.keys()) {
    test(`${name}: three random matches end exactly as in the Python engine`, () => {
      const cases = PYTHON_MATCHES.filter(([preset]) => preset === name);
      assert.equal(cases.length, 3);
      for (const [, seed, count, totals, winner, dealers, reasons, points] of cases) {
        const game = new Match(PRESETS.get(name), seed);
        const seenDealers = playMatch(game, seed + 100);
        assert.equal(game.actions.length, count, `${name} ${seed}`);
        assert.deepEqual(game.totals, totals);
        assert.equal(game.winner, winner);
        assert.deepEqual(seenDealers, dealers);
        assert.deepEqual(game.results.map((result) => result.reason), reasons);
        assert.deepEqual(game.results.map((result) => result.points), points);
      }
    });
  }
});
