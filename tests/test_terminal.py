"""``koikoi play`` and ``koikoi watch``: the Textual apps driven by keys through the pilot."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Static

from koikoi.cards import SLUGS, CardSet, ids, slugs
from koikoi.cli import cli
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.record import Record, start_match
from koikoi.round import CAPTURE_BASE, Phase
from koikoi.rules import PRESETS, RuleSet, resolve_rules
from koikoi.sim import play_out
from koikoi.tui.play import COMPUTER, HUMAN, PlayApp
from koikoi.tui.table import KIND_SIGNS
from koikoi.tui.watch import WatchApp, frames

SIZE = (140, 60)


def run_app(app: Any, scenario: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    """Run the app under the pilot in a thread of its own, with its own event loop:
    the browser tests' Playwright keeps an event loop running in the main thread for
    the whole session, where asyncio.run() refuses to start another."""

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await scenario(pilot)

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, drive()).result()


async def settle(app: Any, pilot: Pilot[None]) -> None:
    """Until the computer has moved and the screen shows the result: no sleeping."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def text(app: Any, widget_id: str) -> str:
    return str(app.query_one(f"#{widget_id}", Static).content)


def shown_slugs(line: str) -> list[str]:
    """The card slugs on a line, in order (each shown after its kind's sign)."""
    words = (word.lstrip("".join(KIND_SIGNS.values())) for word in line.split())
    return [word for word in words if word in SLUGS]


def assert_computer_hand_hidden(app: PlayApp) -> None:
    hidden: CardSet = app.match.round.hands[COMPUTER]
    screen = app.screen_text()
    for slug in slugs(hidden):
        assert slug not in screen
    # Only its size is told.
    assert f"hand: {hidden.bit_count()} cards, face down" in text(app, "opponent")


def new_app(rules: RuleSet, seed: int, opponent: str = "easy") -> PlayApp:
    return PlayApp(Match(rules, seed), make_player(opponent, seed), opponent)


async def play_round_by_keys(app: PlayApp, pilot: Pilot[None], decide: str = "s") -> Counter[Phase]:
    """Play the shown round to its end with keys only; counts the moves by phase.

    The player takes the last legal choice and answers every decision with ``decide``.
    """
    moves: Counter[Phase] = Counter()
    while not app.shown.is_over:
        assert app.match.turn == HUMAN
        assert_computer_hand_hidden(app)
        round = app.shown
        assert shown_slugs(text(app, "hand").split("\n", 1)[1]) == slugs(round.hands[HUMAN])
        assert shown_slugs(text(app, "field").split("\n")[0]) == slugs(round.field)
        assert f"stock: {len(round.stock_left)} cards" in text(app, "stock")
        legal = round.legal_actions()
        phase = round.phase
        calls = round.calls[HUMAN]
        assert f"you · match total {app.match.totals[HUMAN]} · koi-koi calls {calls}" in text(
            app, "hand"
        )
        if phase is Phase.DECISION:
            assert "K to call koi-koi" in text(app, "prompt")
            await pilot.press(decide)
        else:
            options = [card if round.phase is Phase.PLAY else card + CAPTURE_BASE
                       for card in app.options()]  # fmt: skip
            index = options.index(legal[-1])
            if round.phase is not Phase.PLAY:
                choices = shown_slugs(text(app, "prompt"))
                assert choices == [SLUGS[action - CAPTURE_BASE] for action in legal]
            if moves.total() % 2:  # by number, and by the cursor
                await pilot.press(str(index + 1))
            else:
                await pilot.press(*["right"] * index, "enter")
        await settle(app, pilot)
        moves[phase] += 1
    return moves


def test_a_whole_single_deal_by_keys_never_shows_the_computer_hand() -> None:
    app = new_app(PRESETS["single-deal"], seed=4)  # a seed where the player makes a yaku

    async def scenario(pilot: Pilot[None]) -> None:
        status = text(app, "status")
        assert "single-deal · round 1 of 1" in status
        assert "match: you 0 : 0 computer (easy)" in status
        moves = await play_round_by_keys(app, pilot)
        assert moves[Phase.PLAY] > 0
        assert moves[Phase.DECISION] == 1  # and stops at once
        assert app.match.is_over
        result = app.match.results[0]
        prompt = text(app, "prompt")
        assert "Round 1 is over" in prompt
        assert "The match is over" in prompt
        totals = app.match.totals
        assert f"match: you {totals[0]} : {totals[1]} computer (easy)" in text(app, "status")
        assert text(app, "results").startswith("round 1: ")
        if result.winner is not None:
            assert f"{result.points[result.winner]} (" in text(app, "results")
        # The piles and their yaku, as the engine has them.
        piles = app.shown.captured
        assert shown_slugs(text(app, "pile-bottom")) == slugs(piles[HUMAN])
        assert shown_slugs(text(app, "pile-top")) == slugs(piles[COMPUTER])
        for seat, widget in ((HUMAN, "pile-bottom"), (COMPUTER, "pile-top")):
            for key in app.shown.yaku(seat):
                assert key in text(app, widget).split("\n")[-1]
        # The round over, the computer's leftover hand is still not shown.
        assert_computer_hand_hidden(app)
        await pilot.press("q")

    run_app(app, scenario)
    assert app.return_code == 0


def test_a_round_of_a_match_then_enter_deals_the_next() -> None:
    app = new_app(resolve_rules("classic", ("rounds=3",)), seed=1, opponent="normal")

    async def scenario(pilot: Pilot[None]) -> None:
        assert "round 1 of 3" in text(app, "status")
        moves = await play_round_by_keys(app, pilot, decide="k")
        assert moves[Phase.DECISION] >= 1  # koi-koi called, and the round played on
        assert app.shown.calls[HUMAN] == moves[Phase.DECISION]
        assert "Press Enter to deal the next round" in text(app, "prompt")
        assert app.match.round_number == 2
        await pilot.press("enter")
        await settle(app, pilot)
        assert "round 2 of 3" in text(app, "status")
        assert app.shown is app.match.round
        assert_computer_hand_hidden(app)
        totals = app.match.totals
        assert f"you {totals[0]} : {totals[1]} computer" in text(app, "status")

    run_app(app, scenario)


def test_keys_that_choose_nothing_change_nothing_and_help_toggles() -> None:
    # Forced capture: a hand card that matches nothing on the field may not be played.
    rules = resolve_rules("classic", ("forced_capture=true",))
    seed = next(
        seed
        for seed in range(200)
        if (m := Match(rules, seed)).turn == HUMAN
        and len(m.legal_actions()) < m.round.hands[HUMAN].bit_count()
    )
    app = new_app(rules, seed)

    async def scenario(pilot: Pilot[None]) -> None:
        before = app.match.actions.copy()
        await pilot.press("k", "s", "9")  # no decision to take; no ninth card
        hand = ids(app.shown.hands[HUMAN])
        refused = next(i for i, card in enumerate(hand) if card not in app.match.legal_actions())
        await pilot.press(str(refused + 1))
        await settle(app, pilot)
        assert app.match.actions == before
        assert "cannot be played now" in text(app, "prompt")
        assert not app.query_one("#help").has_class("shown")
        await pilot.press("question_mark")
        assert app.query_one("#help").has_class("shown")
        assert "K / S" in text(app, "help")
        await pilot.press("h")
        assert not app.query_one("#help").has_class("shown")

    run_app(app, scenario)


def test_the_expert_thinks_in_the_background() -> None:
    rules = PRESETS["single-deal"]
    app = PlayApp(Match(rules, 2), make_player("expert", 2, rollouts=20), "expert")

    async def scenario(pilot: Pilot[None]) -> None:
        assert (await play_round_by_keys(app, pilot))[Phase.DECISION] == 1
        assert app.match.is_over

    run_app(app, scenario)


# -- watch ---------------------------------------------------------------------------------------


def a_record(tmp_path: Path) -> tuple[Path, Record]:
    rules = resolve_rules("classic", ("rounds=2",))
    match = play_out(Match(rules, 21), [make_player("normal", 1), make_player("easy", 2)])
    record = Record.from_match(match)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()))
    return path, record


def test_watch_steps_through_a_record_with_every_card_face_up(tmp_path: Path) -> None:
    _, record = a_record(tmp_path)
    steps = frames(record)
    app = WatchApp(steps, "watch")
    deal = start_match(record).round
    total = len(record.actions)

    async def scenario(pilot: Pilot[None]) -> None:
        assert "the deal" in text(app, "prompt")
        assert shown_slugs(text(app, "opponent")) == slugs(deal.hands[1])
        assert shown_slugs(text(app, "hand").split("\n", 1)[1]) == slugs(deal.hands[0])
        assert shown_slugs(text(app, "field")) == slugs(deal.field)
        await pilot.press("right")
        first = record.actions[0]["play"]
        assert f"step 1 of {total}: seat {deal.dealer}: play {first}" in text(app, "prompt")
        hands = text(app, "opponent") + text(app, "hand")
        assert first not in hands
        await pilot.press("space", "left")
        assert "step 1 of" in text(app, "prompt")
        await pilot.press("end")
        assert "(the end of the record)" in text(app, "prompt")
        assert text(app, "results").count("round ") == 2
        await pilot.press("right")  # past the end: stays
        assert "(the end of the record)" in text(app, "prompt")
        await pilot.press("home")
        assert "the deal" in text(app, "prompt")
        seen = 0
        while "(the end of the record)" not in text(app, "prompt"):
            await pilot.press("space")
            seen += 1
        assert seen == len(steps) - 1
        assert "round 2 dealt" in "\n".join(step.caption for step in steps)

    run_app(app, scenario)


# -- the commands -------------------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--rules", "nonsense"], "nonsense"),
        (["play", "--set", "rounds=zero"], "rounds"),
        (["play"], "koikoi play needs a terminal"),
        (["watch", "missing.json"], "cannot read record 'missing.json'"),
    ],
)
def test_command_errors_are_clear(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 1
    assert "koikoi: error:" in result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_watch_rejects_a_bad_record(tmp_path: Path) -> None:
    path, record = a_record(tmp_path)
    data = record.to_json()
    data["actions"][3] = {"play": "pine-crane-9"}
    path.write_text(json.dumps(data))
    result = invoke("watch", str(path))
    assert result.exit_code == 1
    assert "action 3:" in result.output
    path.write_text("{")
    result = invoke("watch", str(path))
    assert result.exit_code == 1
    assert "is not JSON" in result.output
    assert invoke("watch", str(tmp_path)).exit_code == 1  # a folder


def test_play_passes_rules_and_opponent_to_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[PlayApp] = []
    monkeypatch.setattr("koikoi.cli.play._need_terminal", lambda command: None)
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    result = invoke("play", "--rules", "traditional", "--set", "rounds=3", "--opponent", "expert",
                    "--rollouts", "30", "--seed", "4")  # fmt: skip
    assert result.exit_code == 0, result.output
    (app,) = started
    assert app.match.rules == resolve_rules("traditional", ("rounds=3",))
    assert app.match.seed == 4
    assert app.names[1] == "computer (expert)"
    assert getattr(app.computer, "rollouts", None) == 30
