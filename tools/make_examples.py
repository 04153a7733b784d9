"""Make the worked examples in ``docs/examples/`` with the project's own tools.

Every file there comes from here, deterministically: records played from a fixed
search over seeds (random legal moves), their ``koikoi replay FILE --json`` output
(the real command, run in-process), lines for ``koikoi score --batch`` and what the
command answers, and the folder's README, which lists each file. Run it again after
a change to the engine or the commands; the tests run ``--check``, which fails while
any file differs:

    .venv/bin/python tools/make_examples.py           # write docs/examples/
    .venv/bin/python tools/make_examples.py --check   # exit 1 naming each stale file

Each record case names what it shows (a predicate on the played match). The search
tries seeds 0, 1, 2, ... and keeps the first game that shows it, so a case stays put
until the engine plays that seed differently.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from koikoi.cards import MONTH_OF, card_from_slug
from koikoi.cli import cli
from koikoi.match import Match
from koikoi.record import Record, start_match
from koikoi.round import (
    EXHAUSTED,
    FINAL_TURN,
    HAND_YAKU,
    KOIKOI,
    NO_CALL_ALLOWED,
    STOPPED,
    Phase,
    Round,
    RoundResult,
)
from koikoi.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"

SEARCH = 20_000
"""The most seeds a case tries before giving up (every case finds its game far sooner)."""
CHOICE_SEED = 1_000_003
"""Added to a seeded match's seed for the generator its random moves come from, so the
moves are not drawn from the stream that deals the cards."""
WIDTH = 92
"""The line width of the JSON files (a value that fits stays on one line)."""

BRIGHT_KEYS = frozenset({"goko", "shiko", "ame-shiko", "sanko"})
VIEWING_KEYS = frozenset({"tsukimi", "hanami"})

Check = Callable[[Match], bool]
Change = Callable[[dict[str, Any]], dict[str, Any]]


# -- playing ------------------------------------------------------------------------------


def play_random(match: Match, rng: random.Random) -> Match:
    """Random legal moves until the match ends (the legal actions in a fixed order)."""
    while not match.is_over:
        match.apply(rng.choice(sorted(match.legal_actions())))
    return match


def given_deal(rules: RuleSet, seed: int) -> Match:
    """One deal shuffled from ``seed`` (dealer ``seed % 2``), played as a given deal."""
    rng = random.Random(seed)
    return play_random(Match.single(Round.deal(rules, rng, dealer=seed % 2)), rng)


def seeded_match(rules: RuleSet, seed: int) -> Match:
    """The whole match of ``seed``, as every koikoi tool deals it."""
    return play_random(Match(rules, seed), random.Random(seed + CHOICE_SEED))


# -- what a case asks of its game ---------------------------------------------------------


def first(match: Match) -> RoundResult:
    return match.results[0]


def ended(*reasons: str) -> Check:
    return lambda match: first(match).reason in reasons


def both(*checks: Check) -> Check:
    return lambda match: all(check(match) for check in checks)


def no_calls(match: Match) -> bool:
    return first(match).calls == (0, 0)


def caller_won(match: Match) -> bool:
    result = first(match)
    return result.winner is not None and result.calls[result.winner] > 0


def caller_lost(match: Match) -> bool:
    """The winner never called; the loser did, and holds nothing in the output."""
    result = first(match)
    if result.winner is None:
        return False
    loser = 1 - result.winner
    return result.calls[result.winner] == 0 and result.calls[loser] > 0


def somebody_called(match: Match) -> bool:
    return sum(first(match).calls) > 0


def chose_in(phase: Phase) -> Check:
    """A choice between two matching field cards was asked in this step (hand or draw)."""

    def check(match: Match) -> bool:
        game = start_match(Record(match.rules, (), deal=match.deal))
        asked = False
        for action in match.actions:
            asked = asked or game.round.phase is phase
            game.apply(action)
        return asked

    return check


def won_with(keys: frozenset[str]) -> Check:
    def check(match: Match) -> bool:
        result = first(match)
        return result.winner is not None and bool(result.yaku[result.winner].keys() & keys)

    return check


def won_with_only(keys: frozenset[str]) -> Check:
    def check(match: Match) -> bool:
        result = first(match)
        held = result.yaku[result.winner] if result.winner is not None else {}
        return bool(held) and held.keys() <= keys

    return check


def doubled_at(least: int) -> Check:
    """The winner's yaku total reached ``double_at``."""

    def check(match: Match) -> bool:
        result = first(match)
        return result.winner is not None and sum(result.yaku[result.winner].values()) >= least

    return check


def dealer(seat: int) -> Check:
    return lambda match: match.round.dealer == seat


def first_decision_after(index: int) -> Check:
    """The first stop or koi-koi comes after action ``index`` (tests change the early ones)."""

    def check(match: Match) -> bool:
        decisions = [i for i, action in enumerate(match.actions) if action >= KOIKOI]
        return bool(decisions) and decisions[0] > index

    return check


def ended_early(match: Match) -> bool:
    return len(match.results) < match.rules.rounds


def with_a_round(reason: str) -> Check:
    return lambda match: any(result.reason == reason for result in match.results)


# -- changes that make a record stop short or go wrong ------------------------------------


def cut_to_half(record: dict[str, Any]) -> dict[str, Any]:
    """The record's first half of actions: a game the record does not finish."""
    changed = copy.deepcopy(record)
    changed["actions"] = changed["actions"][: len(changed["actions"]) // 2]
    return changed


def play_a_stock_card(index: int) -> Change:
    """Action ``index`` plays the stock's last card, which no hand ever holds."""

    def change(record: dict[str, Any]) -> dict[str, Any]:
        changed = copy.deepcopy(record)
        changed["actions"][index] = {"play": changed["stock"][-1]}
        return changed

    return change


def one_action_too_many(record: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    changed["actions"].append({"stop": True})
    return changed


def a_whole_month_on_the_field(record: dict[str, Any]) -> dict[str, Any]:
    """The field's first card brings the rest of its month to the field, each in place
    of a field card of another month (which goes where it came from)."""
    changed = copy.deepcopy(record)
    field = changed["field"]
    month = MONTH_OF[card_from_slug(field[0])]
    places = [changed["hands"][0], changed["hands"][1], changed["stock"]]
    others = [i for i, slug in enumerate(field) if MONTH_OF[card_from_slug(slug)] != month]
    for place in places:
        for i, slug in enumerate(place):
            if MONTH_OF[card_from_slug(slug)] == month:
                swap = others.pop(0)
                place[i], field[swap] = field[swap], slug
    return changed


# -- the cases ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordCase:
    """A record file: a game under ``rules`` that passes ``wanted``."""

    name: str
    rules: Mapping[str, Any]
    about: str
    wanted: Check = lambda match: True
    given: bool = True
    change: Change | None = None
    """What is done to the record before it is replayed (the error cases)."""

    @property
    def error(self) -> bool:
        return self.name.startswith("error-")


CASES: tuple[RecordCase, ...] = (
    # One given deal each: the cases of a round.
    RecordCase(
        "deal-classic-stop",
        {"preset": "classic"},
        "a stop, after a hand card that matched two field cards (the player chose one)",
        both(ended(STOPPED), no_calls, chose_in(Phase.HAND_CHOICE)),
    ),
    RecordCase(
        "deal-classic-final-turn",
        {"preset": "classic"},
        "a yaku made on the player's last turn scores at once: no decision, no action",
        ended(FINAL_TURN),
    ),
    RecordCase(
        "deal-classic-caller-wins",
        {"preset": "classic"},
        "a koi-koi, then the caller stops: per-call doubling",
        both(ended(STOPPED), caller_won),
    ),
    RecordCase(
        "deal-classic-exhausted",
        {"preset": "classic"},
        "nobody stops: a draw with no points, though somebody called koi-koi",
        both(ended(EXHAUSTED), somebody_called),
    ),
    RecordCase(
        "deal-ten-card-stop",
        {"preset": "ten-card"},
        "ten-card hands: a stop with no call, after a drawn card that matched two field"
        " cards (the player chose one)",
        both(ended(STOPPED), no_calls, chose_in(Phase.DRAW_CHOICE)),
    ),
    RecordCase(
        "deal-ten-card-caller-wins",
        {"preset": "ten-card"},
        "a koi-koi, then the caller stops with a new yaku (decision = new-yaku)",
        both(ended(STOPPED), caller_won),
    ),
    RecordCase(
        "deal-single-deal-brights",
        {"preset": "single-deal"},
        "an early stop on a bright yaku (single-deal's bright points)",
        both(ended(STOPPED), no_calls, won_with(BRIGHT_KEYS)),
    ),
    RecordCase(
        "deal-single-deal-caller-loses",
        {"preset": "single-deal"},
        "one player calls koi-koi, the other stops: the caller scores nothing and holds"
        " {} in the output",
        both(ended(STOPPED), caller_lost, dealer(1), first_decision_after(4)),
    ),
    RecordCase(
        "deal-single-deal-hand-yaku",
        {"preset": "single-deal"},
        "a hand yaku (teshi or kuttsuki) decides the round at the deal: no action at all",
        ended(HAND_YAKU),
    ),
    RecordCase(
        "deal-traditional-brights",
        {"preset": "traditional"},
        "an early stop on a bright yaku (forced capture, cards dealt two by two)",
        both(ended(STOPPED), no_calls, won_with(BRIGHT_KEYS)),
    ),
    RecordCase(
        "deal-traditional-viewing",
        {"preset": "traditional"},
        "a stop on a viewing yaku alone",
        both(ended(STOPPED), won_with_only(VIEWING_KEYS)),
    ),
    RecordCase(
        "deal-traditional-doubled",
        {"preset": "traditional"},
        "a stop on a yaku total of 8 or more: doubled (double_at = 8)",
        both(ended(STOPPED, FINAL_TURN), doubled_at(8)),
    ),
    RecordCase(
        "deal-nintendo-caller-wins",
        {"preset": "nintendo"},
        "after a koi-koi, the caller's next yaku ends the round at once (max_koikoi = 1)",
        both(ended(NO_CALL_ALLOWED), caller_won),
    ),
    RecordCase(
        "deal-nintendo-opponent-called",
        {"preset": "nintendo"},
        "after a koi-koi, the other player's yaku ends the round at once, doubled"
        " (koikoi_after_opponent = false, multiplier = opponent-called)",
        both(ended(NO_CALL_ALLOWED), caller_lost),
    ),
    RecordCase(
        "deal-koikoi-japan-exhausted",
        {"preset": "koikoi-japan"},
        "nobody stops: the dealer wins the exhausted round's 1 point",
        ended(EXHAUSTED),
    ),
    RecordCase(
        "deal-koikoi-japan-caller-wins",
        {"preset": "koikoi-japan"},
        "a koi-koi, then the caller stops: +1 point for the call (multiplier = additive)",
        both(ended(STOPPED), caller_won),
    ),
    # Whole matches from a seed: each preset as it stands, and how matches end.
    RecordCase("match-classic", {"preset": "classic"}, "a whole classic match", given=False),
    RecordCase("match-ten-card", {"preset": "ten-card"}, "a whole ten-card match", given=False),
    RecordCase(
        "match-single-deal",
        {"preset": "single-deal"},
        "a single-deal match: one round",
        given=False,
    ),
    RecordCase(
        "match-traditional",
        {"preset": "traditional"},
        "a whole traditional match (the first dealer drawn by card)",
        given=False,
    ),
    RecordCase(
        "match-nintendo",
        {"preset": "nintendo"},
        "a whole nintendo match (the winner deals next)",
        given=False,
    ),
    RecordCase(
        "match-koikoi-japan",
        {"preset": "koikoi-japan"},
        "a whole koikoi-japan match: totals start at 30 and points move between players",
        given=False,
    ),
    RecordCase(
        "match-classic-target",
        {"preset": "classic", "target_score": 12},
        "house rules: a target of 12 points ends the match before its 12 rounds",
        ended_early,
        given=False,
    ),
    RecordCase(
        "match-koikoi-japan-bust",
        {"preset": "koikoi-japan", "starting_points": 10},
        "house rules: both start with 10; a player left with 0 or less ends the match",
        ended_early,
        given=False,
    ),
    RecordCase(
        "match-traditional-hand-yaku",
        {"preset": "traditional", "rounds": 4},
        "house rules: 4 rounds, one of them decided at the deal by a hand yaku",
        with_a_round(HAND_YAKU),
        given=False,
    ),
    RecordCase(
        "match-classic-unfinished",
        {"preset": "classic", "rounds": 3},
        'a record that stops halfway: replayed as far as it goes, "finished": false',
        given=False,
        change=cut_to_half,
    ),
    # Records that koikoi replay refuses (exit status 1).
    RecordCase(
        "error-illegal-action",
        {"preset": "classic"},
        "action 3 plays a card the player does not hold: refused, naming index 3",
        both(ended(STOPPED), first_decision_after(3)),
        change=play_a_stock_card(3),
    ),
    RecordCase(
        "error-after-the-end",
        {"preset": "classic"},
        "one action more than the game takes: refused at its index",
        ended(STOPPED),
        change=one_action_too_many,
    ),
    RecordCase(
        "error-redealt-deal",
        {"preset": "single-deal"},
        "a given deal with a whole month on the field, which single-deal redeals: refused",
        change=a_whole_month_on_the_field,
    ),
)


# -- koikoi score --batch -----------------------------------------------------------------


def line(cards: Sequence[str], rules: Mapping[str, Any] | None = None, **more: int) -> str:
    data: dict[str, Any] = {"cards": list(cards)}
    if rules is not None:
        data["rules"] = dict(rules)
    data.update(more)
    return json.dumps(data)


BRIGHTS = ["pine-crane", "cherry-curtain", "susuki-moon", "willow-rainman", "paulownia-phoenix"]
THREE_BRIGHTS = BRIGHTS[:3]
RAINY_FOUR = [*THREE_BRIGHTS, "willow-rainman"]
POETRY = ["pine-poetry", "plum-poetry", "cherry-poetry"]
BLUE = ["peony-blue", "chrysanthemum-blue", "maple-blue"]
GRASS = ["wisteria-ribbon", "iris-ribbon", "clover-ribbon"]
FIVE_RIBBONS = [*POETRY, "wisteria-ribbon", "iris-ribbon"]
SEVEN_RIBBONS = [*POETRY, *BLUE, "willow-ribbon"]
INOSHIKACHO = ["clover-boar", "maple-deer", "peony-butterflies"]
FIVE_ANIMALS = [*INOSHIKACHO, "plum-warbler", "iris-bridge"]
MOON_VIEWING = ["susuki-moon", "chrysanthemum-sake"]
FLOWER_VIEWING = ["cherry-curtain", "chrysanthemum-sake"]
PINE = ["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2"]
PLUM = ["plum-warbler", "plum-poetry", "plum-plain-1", "plum-plain-2"]
NINE_PLAINS = [
    "pine-plain-1", "pine-plain-2", "plum-plain-1", "plum-plain-2", "cherry-plain-1",
    "cherry-plain-2", "wisteria-plain-1", "wisteria-plain-2", "iris-plain-1",
]  # fmt: skip
"""Nine plains: with one more (the sake cup, the lightning), kasu."""


def classic(**overrides: Any) -> dict[str, Any]:
    """House rules: classic with some fields changed."""
    return {"preset": "classic", **overrides}


BATCH_LINES: tuple[str, ...] = (
    # The presets.
    line(THREE_BRIGHTS),
    line(RAINY_FOUR, {"preset": "single-deal"}),
    line(MOON_VIEWING, classic(viewing_cancelled_by=["rainman"])),
    line(FIVE_RIBBONS, {"preset": "traditional"}, opponent_calls=1),
    line(FIVE_ANIMALS, {"preset": "ten-card"}, own_calls=1, opponent_calls=1),
    # The bright ladder.
    line(BRIGHTS),
    line(RAINY_FOUR),
    line(RAINY_FOUR, classic(ame_shiko=0)),
    line(BRIGHTS, classic(brights_exclusive=False)),
    # The viewing yaku.
    line([*MOON_VIEWING, "willow-rainman"], classic(viewing_cancelled_by=["rainman"])),
    line(FLOWER_VIEWING, classic(viewing="with-other-yaku")),
    line([*FLOWER_VIEWING, *POETRY], classic(viewing="with-other-yaku")),
    line(FLOWER_VIEWING, classic(viewing_in_season=True), month=8),
    line(FLOWER_VIEWING, classic(viewing_in_season=True), month=3),
    # Ribbon sets, month cards, plains, animals.
    line([*POETRY, *BLUE], classic(akatan_aotan=10)),
    line(SEVEN_RIBBONS, {"preset": "traditional"}),
    line(GRASS, classic(kusatan=5)),
    line(PINE, classic(tsukifuda=4), month=1),
    line(PINE, classic(tsukifuda=4), month=2),
    line([*PINE, *PLUM], classic(tsukifuda=4, tsukifuda_month="any")),
    line([*NINE_PLAINS, "chrysanthemum-sake"], classic(sake_cup="both")),
    line([*NINE_PLAINS, "chrysanthemum-sake"]),
    line([*NINE_PLAINS, "willow-lightning"], classic(lightning_is_kasu=False)),
    line(FIVE_ANIMALS, classic(best_per_category="animals")),
    # Koi-koi calls.
    line(THREE_BRIGHTS, own_calls=2, opponent_calls=1),
    line(THREE_BRIGHTS, classic(multiplier="per-opponent-call"), own_calls=2, opponent_calls=1),
    # The presets of other AIs.
    line(SEVEN_RIBBONS, {"preset": "nintendo"}),
    line([*INOSHIKACHO, "susuki-geese"], {"preset": "nintendo"}, opponent_calls=1),
    line([*POETRY, *BLUE], {"preset": "koikoi-japan"}, own_calls=1),
    line(MOON_VIEWING, {"preset": "koikoi-japan"}),
    line(MOON_VIEWING, {"preset": "koikoi-japan"}, own_calls=2),
    line(THREE_BRIGHTS, {"preset": "koikoi-japan"}, own_calls=5),
    # Bad lines.
    line(["pine-crane", "pine-crain"]),
    line(THREE_BRIGHTS, classic(goko=-1)),
    "not json",
)
"""Lines for ``koikoi score --batch``: the presets, one scoring field after another,
the koi-koi multipliers, and three bad lines (each answered with an error)."""

BATCH_WITH_RULES_LINES: tuple[str, ...] = (
    line(FIVE_RIBBONS, opponent_calls=1),
    line(FIVE_RIBBONS, classic(), opponent_calls=1),
    line([*INOSHIKACHO, "susuki-geese"]),
    line(THREE_BRIGHTS, opponent_calls=1),
)
"""Lines for ``koikoi score --batch --rules traditional``: those without ``rules`` are
scored under traditional, those with ``rules`` under their own."""


@dataclass(frozen=True)
class BatchCase:
    name: str
    options: tuple[str, ...]
    lines: tuple[str, ...]
    about: str


BATCHES = (
    BatchCase(
        "score-batch",
        (),
        BATCH_LINES,
        "each line scored under its own `rules` (classic where it has none)",
    ),
    BatchCase(
        "score-batch-traditional",
        ("--rules", "traditional"),
        BATCH_WITH_RULES_LINES,
        "`--rules traditional` is the rule set of the lines without `rules` only",
    ),
)


# -- making the files ---------------------------------------------------------------------


def compact(value: Any, indent: int = 0) -> str:
    """JSON where a value that fits in ``WIDTH`` stays on one line, a longer list of
    plain values fills lines, and anything else takes a line per item."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = " " * (indent + 1)
    if isinstance(value, list) and not any(isinstance(item, (dict, list)) for item in value):
        lines, current = [], ""
        for item in (json.dumps(item, ensure_ascii=False) for item in value):
            if current and len(inner) + len(current) + len(item) + 2 > WIDTH:
                lines.append(current + ",")
                current = ""
            current = f"{current}, {item}" if current else item
        lines.append(current)
        return "[\n" + "\n".join(inner + text for text in lines) + "\n" + " " * indent + "]"
    if isinstance(value, dict):
        items = [
            f"{json.dumps(key, ensure_ascii=False)}: {compact(item, indent + 1)}"
            for key, item in value.items()
        ]
        opening, closing = "{", "}"
    else:
        items = [compact(item, indent + 1) for item in value]
        opening, closing = "[", "]"
    return (
        f"{opening}\n" + ",\n".join(inner + item for item in items) + f"\n{' ' * indent}{closing}"
    )


def replay_json(record: dict[str, Any], folder: Path) -> tuple[int, Any]:
    """What ``koikoi replay FILE --json`` prints for a record, and its exit status."""
    path = folder / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    return result.exit_code, json.loads(result.stdout)


def found_game(case: RecordCase) -> Match:
    rules = RuleSet.from_mapping(case.rules)
    play = given_deal if case.given else seeded_match
    for seed in range(SEARCH):
        match = play(rules, seed)
        if case.wanted(match):
            return match
    raise SystemExit(f"make_examples: no seed below {SEARCH} plays the case {case.name}")


def record_file(case: RecordCase, folder: Path) -> str:
    match = found_game(case)
    played = Record.from_match(match).to_json()
    result = played.pop("result")
    record = case.change(played) if case.change is not None else played
    status, output = replay_json(record, folder)
    if status != (1 if case.error else 0):
        raise SystemExit(f"make_examples: {case.name}: koikoi replay exited {status}: {output}")
    if case.change is None and output != result:
        raise SystemExit(f"make_examples: {case.name}: the replay differs from the game played")
    return compact({"record": record, "replay_output": output}) + "\n"


def batch_files(case: BatchCase) -> dict[str, str]:
    text = "".join(f"{line}\n" for line in case.lines)
    result = CliRunner().invoke(cli, ["score", "--batch", *case.options], input=text)
    if result.exit_code != 0:
        raise SystemExit(f"make_examples: {case.name}: koikoi score exited {result.exit_code}")
    return {f"{case.name}.in.jsonl": text, f"{case.name}.out.jsonl": result.stdout}


README_HEAD = """\
# Worked examples

Every file in this folder is made by `tools/make_examples.py` with koikoi's own
commands, and a test fails while any of them is out of date: after a change to the
engine or the commands, run `python tools/make_examples.py` and look at the difference.
They show the contracts of [docs/rules.md](../rules.md) §7 on real games; the rules
themselves are in §1 to §6.

## Records and their replay

Each `.json` file is one object, `{"record": RECORD, "replay_output": OUTPUT}`.
`RECORD` is a record as koikoi writes it (without its stored `result`); save it alone
to a file and `koikoi replay FILE --json` prints `OUTPUT`, and so does
`koikoi replay --engine js FILE --json`, the browser's engine.

The games are random legal play: the script tries seeds 0, 1, 2, ... and keeps the
first game that shows the case. A `deal-` file is one given deal (the cards written out,
stock top card first; a given deal is one round, and its month is unknown); a `match-`
file is a whole match from a seed (every round dealt from it, in any tool). An `error-`
file holds a record that koikoi refuses: the command exits with status 1, `OUTPUT` is
what it prints on standard output, and `"index"` names the refused action (0-based in
`actions`) where one is to blame.

| file | rules | what it shows |
|---|---|---|
"""

README_BATCH = """
## Scoring captured cards

`koikoi score --batch` reads one JSON object a line and answers one line each, the
score object of `koikoi score --json` or `{"error": "..."}` for a bad line (the
batch goes on). `NAME.in.jsonl` holds the lines, `NAME.out.jsonl` the answers, line
for line:

| files | command | what they show |
|---|---|---|
"""

README_TAIL = """
The lines of `score-batch` go through the presets and then one scoring field after
another: the bright ladder and a switched-off `ame_shiko`, `brights_exclusive`, the
viewing yaku (`viewing_cancelled_by`, `viewing`, `viewing_in_season` with `month`),
the ribbon sets (`akatan_aotan`, traditional's extra points, `kusatan`), `tsukifuda`
by round month and in any month, the sake cup and the lightning among the plains,
`best_per_category`, the multipliers (`own_calls`, `opponent_calls`), the two presets
of other AIs (with koikoi-japan's raised viewing yaku and its additive multiplier),
and three lines that are answered with an error: an unknown card, a bad rule value,
and a line that is not JSON.
"""


def readme() -> str:
    rows = []
    for case in CASES:
        rules = ", ".join(f"`{key} = {json.dumps(value)}`" for key, value in case.rules.items())
        rows.append(f"| `{case.name}.json` | {rules} | {case.about} |\n")
    batches = []
    for batch in BATCHES:
        command = " ".join(("koikoi score --batch", *batch.options))
        files = f"`{batch.name}.in.jsonl`, `{batch.name}.out.jsonl`"
        batches.append(f"| {files} | `{command}` | {batch.about} |\n")
    return README_HEAD + "".join(rows) + README_BATCH + "".join(batches) + README_TAIL


def make_all() -> dict[str, str]:
    """Every file of docs/examples/, by name."""
    files: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for case in CASES:
            files[f"{case.name}.json"] = record_file(case, Path(folder))
    for batch in BATCHES:
        files.update(batch_files(batch))
    files["README.md"] = readme()
    return files


def stale(folder: Path, files: Mapping[str, str]) -> dict[str, str]:
    """The files of ``folder`` that differ from ``files``, are missing, or are not made
    here, by name, each with what is wrong."""
    present = {path.name for path in folder.iterdir()} if folder.is_dir() else set()
    wrong = dict.fromkeys(present - set(files), "is not made by tools/make_examples.py")
    for name, text in files.items():
        if name not in present:
            wrong[name] = "is missing"
        elif (folder / name).read_text(encoding="utf-8") != text:
            wrong[name] = "differs from what tools/make_examples.py makes"
    return dict(sorted(wrong.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the worked examples in docs/examples/.")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    parser.add_argument("--dir", type=Path, default=EXAMPLES, help="the folder (docs/examples)")
    args = parser.parse_args(argv)
    files = make_all()
    if args.check:
        differing = stale(args.dir, files)
        for name, why in differing.items():
            print(f"make_examples: {args.dir / name} {why}", file=sys.stderr)
        if differing:
            print("make_examples: run python tools/make_examples.py", file=sys.stderr)
        return 1 if differing else 0
    args.dir.mkdir(parents=True, exist_ok=True)
    for name in stale(args.dir, files):
        path = args.dir / name
        if name in files:
            path.write_text(files[name], encoding="utf-8")
            print(f"make_examples: wrote {path}")
        else:
            path.unlink()
            print(f"make_examples: removed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
