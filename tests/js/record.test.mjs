// Records and replay in the browser engine (record.js): docs/rules.md §7, the cases of
// tests/test_record.py with record.py's messages word for word (koikoi replay --engine js
// prints them), the worked examples of docs/examples, and records written by the Python
// engine.

import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";

import { CLASSIC, PRESETS, Round, SLUGS, assert, caught, chooser, match, pyjson, record, rulesOf } from "./helpers.mjs";

const { Record, RecordError, replay, replayOutput, startMatch, recordFromBytes, short, firstInvalidUtf8 } = record;
const { Match } = match;

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/examples");

// docs/examples/deal-single-deal-caller-loses.json, copied in so that the messages below
// stay what they are whatever becomes of the examples: a single-deal given deal, dealer
// 1, whose first decision (a koi-koi by seat 1, who then loses) comes at action 14.
const CALLER_LOSES = {"record": {"version": 1, "rules": {"preset": "single-deal"}, "dealer": 1, "hands": [["pine-plain-1", "pine-plain-2", "plum-warbler", "plum-poetry", "peony-butterflies", "willow-swallow", "willow-lightning", "paulownia-plain-3"], ["pine-crane", "plum-plain-2", "wisteria-plain-2", "iris-bridge", "susuki-plain-2", "maple-deer", "maple-plain-2", "willow-ribbon"]], "field": ["pine-poetry", "wisteria-cuckoo", "wisteria-ribbon", "wisteria-plain-1", "clover-plain-2", "chrysanthemum-blue", "chrysanthemum-plain-2", "paulownia-plain-2"], "stock": ["peony-blue", "peony-plain-2", "cherry-plain-1", "iris-plain-2", "susuki-plain-1", "clover-boar", "iris-plain-1", "iris-ribbon", "paulownia-plain-1", "paulownia-phoenix", "chrysanthemum-plain-1", "maple-blue", "susuki-geese", "chrysanthemum-sake", "clover-plain-1", "peony-plain-1", "plum-plain-1", "susuki-moon", "cherry-plain-2", "cherry-curtain", "willow-rainman", "clover-ribbon", "maple-plain-1", "cherry-poetry"], "actions": [{"play": "willow-ribbon"}, {"play": "willow-swallow"}, {"play": "pine-crane"}, {"play": "willow-lightning"}, {"play": "iris-bridge"}, {"play": "pine-plain-1"}, {"play": "susuki-plain-2"}, {"play": "plum-poetry"}, {"play": "maple-plain-2"}, {"play": "peony-butterflies"}, {"play": "maple-deer"}, {"capture": "chrysanthemum-plain-2"}, {"play": "plum-warbler"}, {"play": "wisteria-plain-2"}, {"koikoi": true}, {"play": "paulownia-plain-3"}, {"stop": true}]}, "replay_output": {"rounds": [{"winner": 0, "points": [1, 0], "yaku": [{"tan": 1}, {}], "calls": [0, 1]}], "totals": [1, 0], "winner": 0}};

/** A fresh copy of the example record, to change. */
const exampleRecord = () => structuredClone(CALLER_LOSES.record);
const neverPlayed = () => CALLER_LOSES.record.stock.at(-1); // the stock's last card, never drawn

function replayed(data) {
  return replayOutput(replay(Record.fromJson(data)));
}

function refused(data) {
  return caught(() => replay(Record.fromJson(data)), RecordError);
}

/** A seeded or given-deal match played to the end by random moves. */
function playRandom(game, seed) {
  const choose = chooser(seed);
  while (!game.isOver) game.apply(choose(game.legalActions()));
  return game;
}

const roundTrip = (data) => JSON.parse(JSON.stringify(data));
const withChanges = (changes) => ({ ...exampleRecord(), ...changes });

// -- the worked examples ---------------------------------------------------------------------

describe("the worked examples", () => {
  test("the copied example replays to its output, stored result or not", () => {
    assert.deepEqual(replayed(exampleRecord()), CALLER_LOSES.replay_output);
    const stored = { ...exampleRecord(), result: CALLER_LOSES.replay_output, version: 1 };
    assert.deepEqual(replayed(stored), CALLER_LOSES.replay_output);
  });

  test("the loser who called holds nothing", () => {
    const output = replayed(exampleRecord());
    assert.equal(output.rounds.length, 1);
    const [only] = output.rounds;
    assert.deepEqual(only.calls, [0, 1]);
    assert.equal(only.winner, 0);
    assert.deepEqual(only.yaku[1], {});
    assert.deepEqual(output.totals, only.points);
  });

  const files = readdirSync(EXAMPLES).sort();
  const replays = files.filter((name) => /^(deal|match)-.*\.json$/.test(name));
  const errors = files.filter((name) => /^error-.*\.json$/.test(name));

  test(`every replayable example of docs/examples replays to its output (${replays.length})`, () => {
    assert.ok(replays.length >= 20, `${replays.length}`);
    for (const name of replays) {
      const text = readFileSync(path.join(EXAMPLES, name), "utf8");
      const example = pyjson.loads(text); // Maps and exact ints, as record.py reads JSON
      const data = example.get("record");
      const expected = JSON.parse(text).replay_output;
      const output = replayOutput(replay(Record.fromJson(data)));
      assert.deepEqual(output, expected, name);
      assert.equal(JSON.stringify(output), JSON.stringify(expected), `${name}: the keys in the same order`);
      const stored = new Map([...data, ["result", example.get("replay_output")]]);
      assert.deepEqual(replayOutput(replay(Record.fromJson(stored))), expected, name);
    }
  });

  test(`every refused example of docs/examples is refused as its output says (${errors.length})`, () => {
    assert.ok(errors.length >= 3);
    for (const name of errors) {
      const example = JSON.parse(readFileSync(path.join(EXAMPLES, name), "utf8"));
      const error = refused(example.record);
      assert.equal(error.message, example.replay_output.error, name);
      assert.equal(error.index, example.replay_output.index ?? null, name);
    }
  });
});

// -- round trips -------------------------------------------------------------------------------

// Record.from_match(...).to_json() of two random games of the Python engine, as
// json.dumps(..., separators=(",", ":")) wrote them when these tests were written:
// Match(classic with rounds 2, seed 3) and Match.single(Round.deal(traditional, 9, 1)),
// played by random.Random(3) and random.Random(9).choice.
const PYTHON_SEEDED = "{\"version\":1,\"rules\":{\"preset\":\"classic\",\"rounds\":2},\"seed\":3,\"actions\":[{\"play\":\"clover-ribbon\"},{\"capture\":\"clover-boar\"},{\"play\":\"clover-plain-2\"},{\"play\":\"maple-plain-2\"},{\"play\":\"iris-plain-2\"},{\"play\":\"paulownia-plain-2\"},{\"play\":\"chrysanthemum-plain-1\"},{\"play\":\"pine-crane\"},{\"play\":\"maple-deer\"},{\"play\":\"wisteria-ribbon\"},{\"play\":\"peony-butterflies\"},{\"play\":\"susuki-geese\"},{\"play\":\"wisteria-plain-2\"},{\"play\":\"iris-plain-1\"},{\"play\":\"cherry-curtain\"},{\"play\":\"paulownia-plain-1\"},{\"play\":\"cherry-poetry\"},{\"play\":\"willow-rainman\"},{\"play\":\"wisteria-ribbon\"},{\"play\":\"wisteria-cuckoo\"},{\"play\":\"chrysanthemum-sake\"},{\"capture\":\"peony-butterflies\"},{\"play\":\"susuki-moon\"},{\"play\":\"clover-ribbon\"},{\"play\":\"plum-warbler\"},{\"play\":\"cherry-poetry\"},{\"play\":\"peony-plain-1\"},{\"play\":\"cherry-plain-1\"},{\"play\":\"clover-boar\"},{\"koikoi\":true},{\"play\":\"clover-plain-2\"},{\"play\":\"paulownia-plain-1\"},{\"play\":\"maple-plain-1\"},{\"capture\":\"maple-plain-2\"},{\"stop\":true}],\"result\":{\"rounds\":[{\"winner\":null,\"points\":[0,0],\"yaku\":[{},{}],\"calls\":[0,0]},{\"winner\":0,\"points\":[2,0],\"yaku\":[{\"kasu\":1},{}],\"calls\":[0,1]}],\"totals\":[2,0],\"winner\":0}}";
const PYTHON_DEAL = "{\"version\":1,\"rules\":{\"preset\":\"traditional\"},\"dealer\":1,\"hands\":[[\"cherry-poetry\",\"wisteria-ribbon\",\"wisteria-plain-1\",\"iris-ribbon\",\"peony-plain-1\",\"clover-boar\",\"chrysanthemum-blue\",\"willow-lightning\"],[\"pine-poetry\",\"plum-warbler\",\"iris-plain-1\",\"peony-butterflies\",\"peony-plain-2\",\"clover-plain-1\",\"susuki-moon\",\"paulownia-phoenix\"]],\"field\":[\"pine-crane\",\"pine-plain-2\",\"cherry-plain-1\",\"wisteria-plain-2\",\"peony-blue\",\"susuki-geese\",\"chrysanthemum-sake\",\"chrysanthemum-plain-2\"],\"stock\":[\"plum-plain-1\",\"clover-plain-2\",\"plum-poetry\",\"clover-ribbon\",\"cherry-plain-2\",\"paulownia-plain-3\",\"maple-plain-2\",\"pine-plain-1\",\"willow-rainman\",\"paulownia-plain-2\",\"cherry-curtain\",\"maple-plain-1\",\"wisteria-cuckoo\",\"willow-swallow\",\"iris-bridge\",\"willow-ribbon\",\"susuki-plain-2\",\"paulownia-plain-1\",\"chrysanthemum-plain-1\",\"susuki-plain-1\",\"iris-plain-2\",\"maple-blue\",\"maple-deer\",\"plum-plain-2\"],\"actions\":[{\"play\":\"susuki-moon\"},{\"play\":\"chrysanthemum-blue\"},{\"capture\":\"chrysanthemum-plain-2\"},{\"play\":\"peony-butterflies\"},{\"play\":\"wisteria-ribbon\"},{\"play\":\"pine-poetry\"},{\"capture\":\"pine-crane\"},{\"play\":\"iris-ribbon\"},{\"play\":\"paulownia-phoenix\"},{\"koikoi\":true},{\"play\":\"peony-plain-1\"},{\"play\":\"iris-plain-1\"},{\"play\":\"willow-lightning\"},{\"play\":\"peony-plain-2\"},{\"play\":\"cherry-poetry\"},{\"play\":\"clover-plain-1\"},{\"play\":\"wisteria-plain-1\"},{\"play\":\"plum-warbler\"},{\"play\":\"clover-boar\"}],\"result\":{\"rounds\":[{\"winner\":0,\"points\":[4,0],\"yaku\":[{\"tan\":1,\"kasu\":1},{}],\"calls\":[0,1]}],\"totals\":[4,0],\"winner\":0}}";

describe("round trips", () => {
  test("records of the Python engine's games are written byte for byte alike", () => {
    const seeded = playRandom(new Match(rulesOf(CLASSIC, { rounds: 2 }), 3), 3);
    assert.equal(JSON.stringify(Record.fromMatch(seeded).toJson()), PYTHON_SEEDED);
    const dealt = playRandom(Match.single(Round.deal(PRESETS.get("traditional"), 9, 1)), 9);
    assert.equal(JSON.stringify(Record.fromMatch(dealt).toJson()), PYTHON_DEAL);
    for (const text of [PYTHON_SEEDED, PYTHON_DEAL]) {
      const data = JSON.parse(text);
      assert.deepEqual(replayed(data), data.result);
      assert.deepEqual(replayOutput(replay(recordFromBytes("python.json", new TextEncoder().encode(text)))), data.result);
    }
  });

  for (const preset of [...PRESETS.keys()].sort()) {
    test(`${preset}: a seeded match round-trips through its record (6 seeds)`, () => {
      const ruleSet = rulesOf(preset, { rounds: 3 });
      for (let seed = 0; seed < 6; seed++) {
        const game = playRandom(new Match(ruleSet, seed), seed);
        assert.ok(game.isOver);
        const rec = Record.fromMatch(game);
        const data = roundTrip(rec.toJson());
        assert.equal(data.version, 1);
        assert.equal(data.seed, seed);
        assert.deepEqual(data.rules, ruleSet.toMapping());
        const again = Record.fromJson(data);
        assert.ok(again.rules.equals(rec.rules));
        assert.deepEqual(again.actions, rec.actions);
        assert.equal(again.seed, rec.seed);
        const replayedMatch = replay(again);
        assert.deepEqual(replayOutput(replayedMatch), replayOutput(game));
        assert.deepEqual(replayOutput(game), data.result);
        assert.deepEqual(replayedMatch.results.map((r) => ({ ...r })), game.results.map((r) => ({ ...r })));
        assert.ok(!("finished" in data.result));
      }
    });

    test(`${preset}: a given deal round-trips through its record (6 seeds)`, () => {
      for (let seed = 0; seed < 6; seed++) {
        const game = playRandom(Match.single(Round.deal(PRESETS.get(preset), seed, seed % 2)), seed);
        const data = roundTrip(Record.fromMatch(game).toJson());
        assert.ok(!("seed" in data));
        assert.equal(data.dealer, seed % 2);
        assert.equal(data.stock.length, 48 - 2 * PRESETS.get(preset).hand_size - 8);
        assert.deepEqual(replayed(data), data.result);
        assert.deepEqual(data.result, replayOutput(game));
        assert.deepEqual(data.result.totals, data.result.rounds[0].points);
      }
    });
  }

  test("house rules travel in the record", () => {
    const ruleSet = rulesOf("traditional", { max_koikoi: 1, exhausted: "dealer", exhausted_points: 2, rounds: 2 });
    const game = playRandom(new Match(ruleSet, 5), 5);
    const data = roundTrip(Record.fromMatch(game).toJson());
    assert.equal(data.rules.max_koikoi, 1);
    assert.deepEqual(data.rules, { preset: "traditional", max_koikoi: 1, exhausted: "dealer", exhausted_points: 2, rounds: 2 });
    assert.ok(replay(Record.fromJson(data)).rules.equals(ruleSet));
    assert.deepEqual(replayed(data), replayOutput(game));
  });

  test("a given deal ignores rounds, target and first dealer", () => {
    const data = exampleRecord();
    data.rules = { preset: "single-deal", rounds: 7, target_score: 1, first_dealer: "seat-0" };
    const output = replayed(data);
    assert.deepEqual(output, CALLER_LOSES.replay_output);
    assert.equal(output.rounds.length, 1);
  });

  test("startMatch gives the match before any action", () => {
    const rec = Record.fromJson(exampleRecord());
    const game = startMatch(rec);
    assert.deepEqual(game.actions, []);
    assert.equal(game.round.dealer, 1);
    assert.deepEqual(game.deal, { dealer: 1, hands: rec.deal.hands, field: rec.deal.field, stock: rec.deal.stock });
  });
});

// -- given deals that end at once or never stand ----------------------------------------------

/** A given-deal record with no actions; the stock is the other cards in order. */
function givenDeal(rules, hand0, hand1, field) {
  const used = new Set([...hand0, ...hand1, ...field]);
  return { rules, dealer: 0, hands: [hand0, hand1], field, stock: SLUGS.filter((slug) => !used.has(slug)), actions: [] };
}

const FOUR_PAIRS = ["plum-warbler", "plum-poetry", "cherry-curtain", "cherry-poetry", "wisteria-cuckoo", "wisteria-ribbon", "iris-bridge", "iris-ribbon"];
const KUTTSUKI_HAND = ["susuki-moon", "susuki-geese", "chrysanthemum-sake", "chrysanthemum-blue", "maple-deer", "maple-blue", "willow-rainman", "willow-swallow"];
const ONE_PER_MONTH = ["pine-crane", "peony-butterflies", "clover-boar", "susuki-moon", "chrysanthemum-sake", "maple-deer", "willow-rainman", "paulownia-phoenix"];
const ONE_PER_MONTH_TOO = ["pine-poetry", "peony-blue", "clover-ribbon", "susuki-geese", "chrysanthemum-blue", "maple-blue", "willow-swallow", "paulownia-plain-1"];
const TESHI = ["plum-warbler", "plum-poetry", "plum-plain-1", "plum-plain-2"];
const TESHI_HAND = [...TESHI, "pine-crane", "cherry-curtain", "wisteria-cuckoo", "iris-bridge"];

describe("given deals", () => {
  test("a round that ends at the deal takes no action", () => {
    const field = ["pine-poetry", "cherry-poetry", "wisteria-ribbon", "iris-ribbon", "peony-blue", "clover-ribbon", "susuki-geese", "maple-blue"];
    const hand1 = ["peony-butterflies", "clover-boar", "susuki-moon", "chrysanthemum-sake", "maple-deer", "willow-rainman", "paulownia-phoenix", "pine-plain-1"];
    const data = givenDeal({ preset: "single-deal" }, TESHI_HAND, hand1, field);
    data.dealer = 1;
    assert.deepEqual(replayed(data), {
      rounds: [{ winner: 0, points: [6, 0], yaku: [{ teshi: 6 }, {}], calls: [0, 0] }],
      totals: [6, 0],
      winner: 0,
    });
    const error = refused({ ...data, actions: [{ play: "pine-plain-1" }] });
    assert.equal(error.index, 0);
    assert.equal(error.message, `action 0 (${JSON.stringify({ play: "pine-plain-1" }).replace(":", ": ")}) is illegal: the game is already over`);
  });

  test("a given deal that would be redealt is refused", () => {
    const message = "record deal: the field meets a redeal condition of these rules; it would be redealt";
    const pairs = givenDeal({ preset: "single-deal" }, ONE_PER_MONTH, ONE_PER_MONTH_TOO, FOUR_PAIRS);
    const error = refused(pairs);
    assert.equal(error.message, message);
    assert.equal(error.index, null);
    assert.equal(replayed({ ...pairs, rules: { preset: "traditional" } }).finished, false);
    const monthField = [...TESHI, "cherry-curtain", "wisteria-cuckoo", "iris-bridge", "iris-ribbon"];
    const wholeMonth = givenDeal({ preset: "traditional" }, ONE_PER_MONTH, ONE_PER_MONTH_TOO, monthField);
    assert.equal(refused(wholeMonth).message, message);
    assert.equal(replayed({ ...wholeMonth, rules: { preset: "classic" } }).finished, false);
  });

  test("a given deal with two hand yaku under redeal is refused", () => {
    const field = ["pine-poetry", "cherry-poetry", "wisteria-ribbon", "iris-ribbon", "peony-butterflies", "clover-boar", "paulownia-phoenix", "peony-blue"];
    const data = givenDeal({ preset: "single-deal" }, TESHI_HAND, KUTTSUKI_HAND, field);
    assert.equal(refused(data).message, "record deal: both hands hold a hand yaku; under these rules that deal is redealt");
    assert.deepEqual(replayed({ ...data, rules: { preset: "single-deal", both_hand_yaku: "both" } }), {
      rounds: [{ winner: null, points: [6, 6], yaku: [{ teshi: 6 }, { kuttsuki: 6 }], calls: [0, 0] }],
      totals: [6, 6],
      winner: null,
    });
  });
});

// -- refused actions and results ---------------------------------------------------------------

// record.py's messages for the records below, as the Python engine gave them.
const PYTHON_MESSAGES = {
  "extra": ["unknown record key 'extra'; a record holds actions, dealer, field, hands, result, rules, seed, stock, version", null],
  "version2": ["record version 2 is not supported (only 1)", null],
  "version_str": ["record version '1' is not supported (only 1)", null],
  "version_true": ["record version True is not supported (only 1)", null],
  "dealer2": ["record 'dealer' must be 0 or 1, not 2", null],
  "dealer_str": ["record 'dealer' must be 0 or 1, not '0'", null],
  "dealer_true": ["record 'dealer' must be 0 or 1, not true", null],
  "dealer_float": ["record 'dealer' must be 0 or 1, not 1.0", null],
  "dealer_none": ["record 'dealer' must be 0 or 1, not null", null],
  "field_typo": ["record deal: unknown card 'pine-crain'; did you mean 'pine-crane'?", null],
  "swapped": ["record deal: card(s) pine-crane dealt twice", null],
  "short": ["record deal: hand 0 has 7 cards; the rules deal 8", null],
  "one_hand": ["record 'hands' must be two lists of card slugs, not [[\"pine-plain-1\", \"pine-plain-2\", \"plum-warbler\", \"plum-poetry\", \"peony-butterflies\", \"willow-swallow\", \"willow-light...", null],
  "field_str": ["record 'field' must be a list of card slugs, not 'pine-crane'", null],
  "stock_ints": ["record 'stock' must be a list of card slugs, not [1, 2]", null],
  "actions_dict": ["record 'actions' must be a list, not {\"play\": \"maple-deer\"}", null],
  "result_list": ["record 'result' must be an object, not [1]", null],
  "preset_typo": ["record rules: rule 'preset': 'classik' is not allowed; allowed: classic, ten-card, single-deal, traditional, nintendo, koikoi-japan", null],
  "goko": ["record rules: rule 'goko': -1 is not allowed; allowed: an integer from 0 to 1000 (0 switches it off)", null],
  "seed_and_deal": ["a record has a seed or a deal, not both (it has 'dealer')", null],
  "nothing": ["a record needs a 'seed' or a whole deal; 'dealer' is missing", null],
  "seed_neg": ["record 'seed' must be an integer >= 0, not -1", null],
  "seed_str": ["record 'seed' must be an integer >= 0, not '1'", null],
  "list": ["a record is a JSON object, not []", null],
  "never": ["record rules: rules 'field_size' and 'redeal_four_of_month': a field of 46 cards always meets a redeal condition (at most 36 cards meet none), so every deal would be redealt", null],
  "rarely": ["record rules: rules 'hand_size', 'field_size', 'redeal_four_of_month': only about 0.02% of deals of 6-card hands and a 36-card field meet none of these redeal conditions (at least 5% must), so most deals would be redealt; deal fewer cards or drop a redeal rule", null],
  "teshi_big": ["record rules: rule 'teshi': 2147483648 is not allowed; allowed: an integer from 0 to 1000 (0 switches it off)", null],
  "rounds121": ["record rules: rule 'rounds': 121 is not allowed; allowed: an integer from 1 to 120", null],
  "max25": ["record rules: rule 'max_koikoi': 25 is not allowed; allowed: an integer from 0 to 24", null],
  "illegal0": ["action 0 ({\"play\": \"cherry-poetry\"}): illegal action play cherry-poetry; legal now: play pine-crane, play plum-plain-2, play wisteria-plain-2, play iris-bridge, play susuki-plain-2, play maple-deer, play maple-plain-2, play willow-ribbon", 0],
  "illegal3": ["action 3 ({\"play\": \"cherry-poetry\"}): illegal action play cherry-poetry; legal now: play pine-plain-1, play pine-plain-2, play plum-warbler, play plum-poetry, play peony-butterflies, play willow-lightning, play paulownia-plain-3", 3],
  "illegal14": ["action 14 ({\"play\": \"cherry-poetry\"}): illegal action play cherry-poetry; legal now: koikoi, stop", 14],
  "illegal16": ["action 16 ({\"play\": \"cherry-poetry\"}): illegal action play cherry-poetry; legal now: koikoi, stop", 16],
  "stop2": ["action 2 ({\"stop\": true}): illegal action stop; legal now: play pine-crane, play plum-plain-2, play wisteria-plain-2, play iris-bridge, play susuki-plain-2, play maple-deer, play maple-plain-2", 2],
  "after": ["action 17 ({\"koikoi\": true}) is illegal: the game is already over", 17],
  "malformed0": ["action 5: action {'play': 'pine-crain'}: unknown card 'pine-crain'; did you mean 'pine-crane'?", 5],
  "malformed1": ["action 5: not an action: {'koikoi': False}; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "malformed2": ["action 5: not an action: {'stop': 'yes'}; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "malformed3": ["action 5: not an action: {'play': 'maple-deer', 'capture': 'maple-blue'}; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "malformed4": ["action 5: not an action: 'stop'; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "malformed5": ["action 5: not an action: ['play', 'maple-deer']; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "malformed6": ["action 5: not an action: None; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "malformed7": ["action 5: not an action: {}; actions are {'play': slug}, {'capture': slug}, {'koikoi': true} or {'stop': true}", 5],
  "wrong_result": ["the stored result {\"rounds\": [{\"winner\": 0, \"points\": [2, 0], \"yaku\": [{\"tan\": 1}, {}], \"calls\": [0, 1]}], \"totals\": [2, 0], \"winner\": 0} differs from the replay's {\"rounds\": [{\"winner\": 0, \"points\": [1, 0], \"yaku\": [{\"tan\": 1}, {}], \"calls\": [0, 1]}], \"totals\": [1, 0], \"winner\": 0}", null],
  "pairs": ["record deal: the field meets a redeal condition of these rules; it would be redealt", null],
  "whole_month": ["record deal: the field meets a redeal condition of these rules; it would be redealt", null],
  "two_hand_yaku": ["record deal: both hands hold a hand yaku; under these rules that deal is redealt", null],
  "huge_version": ["record version an integer of about 4000 digits is not supported (only 1)", null],
};

function refusedAs(key, data) {
  const error = refused(data);
  const [message, index] = PYTHON_MESSAGES[key];
  assert.equal(error.message, message, key);
  assert.equal(error.index, index, key);
  return error;
}

describe("refused actions", () => {
  const koikoiIndex = CALLER_LOSES.record.actions.findIndex((action) => action.koikoi === true);
  const last = CALLER_LOSES.record.actions.length - 1;

  test("the example's decision comes where the messages expect it", () => {
    assert.equal(koikoiIndex, 14);
    assert.equal(last, 16);
    assert.equal(neverPlayed(), "cherry-poetry");
  });

  for (const index of [0, 3, 14, 16]) {
    test(`an illegal action is refused with its index: action ${index}`, () => {
      const data = exampleRecord();
      data.actions[index] = { play: neverPlayed() };
      const error = refusedAs(`illegal${index}`, data);
      assert.ok(error.message.startsWith(`action ${index} `));
    });
  }

  test("a stop with no decision is refused", () => {
    const data = exampleRecord();
    data.actions[2] = { stop: true };
    refusedAs("stop2", data);
  });

  test("an action after the game is over is illegal at its index", () => {
    const data = exampleRecord();
    data.actions.push({ koikoi: true });
    refusedAs("after", data);
  });

  const MALFORMED = [{ play: "pine-crain" }, { koikoi: false }, { stop: "yes" }, { play: "maple-deer", capture: "maple-blue" }, "stop", ["play", "maple-deer"], null, {}];
  MALFORMED.forEach((bad, j) => {
    test(`a malformed action is refused with its index: ${JSON.stringify(bad)}`, () => {
      const data = exampleRecord();
      data.actions[5] = bad;
      refusedAs(`malformed${j}`, data);
    });
  });

  test("an unfinished record replays as far as it goes", () => {
    const data = exampleRecord();
    data.actions = data.actions.slice(0, -1);
    assert.deepEqual(replayed(data), { rounds: [], totals: [0, 0], winner: null, finished: false });
    const seeded = roundTrip(Record.fromMatch(playRandom(new Match(rulesOf(CLASSIC, { rounds: 3 }), 2), 2)).toJson());
    delete seeded.result;
    seeded.actions = seeded.actions.slice(0, Math.floor(seeded.actions.length / 2));
    const output = replayed(seeded);
    assert.equal(output.finished, false);
    assert.equal(output.winner, null);
    assert.ok(output.rounds.length < 3);
  });

  test("a stored result must match the replay", () => {
    const wrong = structuredClone(CALLER_LOSES.replay_output);
    wrong.rounds[0].points = [2, 0];
    wrong.totals = [2, 0];
    refusedAs("wrong_result", { ...exampleRecord(), result: wrong });
    const cut = { ...exampleRecord(), actions: exampleRecord().actions.slice(0, 4) };
    assert.match(refused({ ...cut, result: CALLER_LOSES.replay_output }).message, /^the stored result /);
    const unfinished = { rounds: [], totals: [0, 0], winner: null, finished: false };
    assert.deepEqual(replayed({ ...cut, result: unfinished }), unfinished);
  });
});

// -- bad records ---------------------------------------------------------------------------------

function swappedHandCard() {
  const data = exampleRecord();
  data.hands[0][0] = data.hands[1][0]; // that card twice, one missing
  return data;
}

function shortHand() {
  const data = exampleRecord();
  data.stock.push(data.hands[0].pop());
  return data;
}

const BAD_RECORDS = {
  extra: () => withChanges({ extra: 1 }),
  version2: () => withChanges({ version: 2 }),
  version_str: () => withChanges({ version: "1" }),
  version_true: () => withChanges({ version: true }),
  dealer2: () => withChanges({ dealer: 2 }),
  dealer_str: () => withChanges({ dealer: "0" }),
  dealer_true: () => withChanges({ dealer: true }),
  dealer_float: () => pyjson.loads(JSON.stringify(exampleRecord()).replace('"dealer":1', '"dealer":1.0')),
  dealer_none: () => withChanges({ dealer: null }),
  field_typo: () => withChanges({ field: ["pine-crain", ...exampleRecord().field.slice(1)] }),
  swapped: swappedHandCard,
  short: shortHand,
  one_hand: () => withChanges({ hands: [exampleRecord().hands[0]] }),
  field_str: () => withChanges({ field: "pine-crane" }),
  stock_ints: () => withChanges({ stock: [1, 2] }),
  actions_dict: () => withChanges({ actions: { play: "maple-deer" } }),
  result_list: () => withChanges({ result: [1] }),
  preset_typo: () => withChanges({ rules: { preset: "classik" } }),
  goko: () => withChanges({ rules: { goko: -1 } }),
  seed_and_deal: () => withChanges({ seed: 3 }),
  nothing: () => ({ rules: {}, actions: [] }),
  seed_neg: () => ({ seed: -1, actions: [] }),
  seed_str: () => ({ seed: "1", actions: [] }),
  list: () => [],
  never: () => ({ rules: { hand_size: 1, field_size: 46, redeal_four_of_month: true }, seed: 4, actions: [] }),
  rarely: () => ({ rules: { hand_size: 6, field_size: 36, redeal_four_of_month: true }, seed: 4, actions: [] }),
  teshi_big: () => ({ rules: { teshi: 2 ** 31 }, seed: 1, actions: [] }),
  rounds121: () => ({ rules: { rounds: 121 }, seed: 1, actions: [] }),
  max25: () => ({ rules: { max_koikoi: 25 }, seed: 1, actions: [] }),
  pairs: () => givenDeal({ preset: "single-deal" }, ONE_PER_MONTH, ONE_PER_MONTH_TOO, FOUR_PAIRS),
  huge_version: () => ({ seed: 1, actions: [], version: 10n ** 4000n }),
};

describe("bad records", () => {
  test(`${Object.keys(BAD_RECORDS).length} bad records give record.py's messages, with no index`, () => {
    for (const [key, make] of Object.entries(BAD_RECORDS)) {
      const error = refusedAs(key, make());
      assert.equal(error.index, null, key);
    }
  });

  test("a huge value is shown briefly", () => {
    assert.ok(refused(BAD_RECORDS.huge_version()).message.length < 300);
    assert.ok(refused(BAD_RECORDS.one_hand()).message.endsWith("..."));
  });

  test("short() is record.py's _short: JSON, or repr for a string, cut to 120 characters", () => {
    assert.equal(short("pine-crane"), "'pine-crane'");
    assert.equal(short({ play: "maple-deer" }), '{"play": "maple-deer"}');
    assert.equal(short([1, 2]), "[1, 2]");
    assert.equal(short(null), "null");
    const long = short(SLUGS);
    assert.equal(long.length, 120);
    assert.ok(long.endsWith("..."));
    assert.equal(short("ü".repeat(200)).length, 120); // code points, as Python counts them
  });
});

// -- record files --------------------------------------------------------------------------------

describe("record files", () => {
  const NAME = "/tmp/kk/record.json";
  const bytes = (text) => new TextEncoder().encode(text);
  const latin1 = (text) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));
  const fileError = (content) => caught(() => recordFromBytes(NAME, content), RecordError);

  test("a file that is not UTF-8, too deep, of too many digits or not JSON: load_record's messages", () => {
    for (const [content, message] of [
      [Uint8Array.from([...bytes('{"seed": 1, "actions": [{"play": "pine-crane'), 0xff, ...bytes('"}]}')]), "is not UTF-8 text (byte 44)"],
      [latin1('{"seed": 1, "rules": {"preset": "caf\u00e9"}}'), "is not UTF-8 text (byte 36)"],
      [bytes(`{"actions": ${"[".repeat(100000)}${"]".repeat(100000)}}`), "is nested too deeply"],
      [bytes(`{"seed": ${"9".repeat(5000)}}`), "holds a number of too many digits"],
      [bytes("{not json"), "is not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
      // Universal newlines, as Python reads text: \r\n is one character.
      [bytes('{"seed": 1,\r\n "actions": [}'), "is not JSON: Expecting value: line 2 column 14 (char 25)"],
      [Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes('{"seed": 1}')]), "is not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ]) {
      const error = fileError(content);
      assert.equal(error.message, `record '${NAME}' ${message}`);
      assert.equal(error.index, null);
    }
  });

  test("a good file loads: a repeated key keeps the last value, a float seed is refused", () => {
    assert.equal(recordFromBytes(NAME, bytes('{"seed": 1, "actions": []}\n')).seed, 1);
    assert.equal(recordFromBytes(NAME, bytes('{"seed": 1, "seed": 2}')).seed, 2);
    assert.equal(fileError(bytes('{"seed": 1.5}')).message, "record 'seed' must be an integer >= 0, not 1.5");
    assert.equal(fileError(bytes('{"seed": NaN}')).message, "record 'seed' must be an integer >= 0, not NaN");
    const rec = recordFromBytes(NAME, bytes(JSON.stringify(exampleRecord())));
    assert.deepEqual(replayOutput(replay(rec)), CALLER_LOSES.replay_output);
    assert.deepEqual(startMatch(rec).actions, []);
  });

  test("firstInvalidUtf8 finds the first byte that starts no well-formed sequence", () => {
    assert.equal(firstInvalidUtf8(bytes("plain ascii")), -1);
    assert.equal(firstInvalidUtf8(bytes("日本語 and ü")), -1);
    assert.equal(firstInvalidUtf8(Uint8Array.from([0x61, 0xc0, 0x80])), 1); // overlong
    assert.equal(firstInvalidUtf8(Uint8Array.from([0x61, 0x62, 0xed, 0xa0, 0x80])), 2); // a surrogate
    assert.equal(firstInvalidUtf8(Uint8Array.from([0xe6, 0x97])), 0); // cut short
    assert.equal(firstInvalidUtf8(Uint8Array.from([0xf4, 0x90, 0x80, 0x80])), 0); // past U+10FFFF
  });
});
