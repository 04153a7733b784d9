"""Records: a whole game as JSON, and replay that re-checks every action and result.

Two forms (docs/rules.md §7), written the same way by the live game and the simulator:

- a match from a seed: ``{"version": 1, "rules": {...}, "seed": 42, "actions": [...]}``;
- one given deal: ``{"rules": {...}, "dealer": 0, "hands": [[...], [...]], "field":
  [...], "stock": [...], "actions": [...]}`` (stock top card first).

Both may carry the replay's output as ``result``; when present it is checked, and so
is ``version``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koikoi.files import FileTooLargeError, read_text
from koikoi.match import Match
from koikoi.round import (
    DealError,
    IllegalActionError,
    Round,
    action_from_json,
    action_to_json,
)
from koikoi.rules import RulesError, RuleSet, short_repr

RECORD_VERSION = 1
_DEAL_KEYS = ("dealer", "hands", "field", "stock")
_KEYS = frozenset({"version", "rules", "seed", "actions", "result", *_DEAL_KEYS})


class RecordError(ValueError):
    """A record that cannot be replayed; ``index`` names the bad action, if one is."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)


@dataclass(frozen=True)
class Record:
    """A game as data: its rules, its seed or given deal, and every action taken."""

    rules: RuleSet
    actions: tuple[Any, ...]
    seed: int | None = None
    deal: dict[str, Any] | None = None
    result: dict[str, Any] | None = None

    @classmethod
    def from_match(cls, match: Match) -> Record:
        return cls(
            rules=match.rules,
            actions=tuple(action_to_json(action) for action in match.actions),
            seed=match.seed,
            deal=match.deal,
            result=replay_output(match),
        )

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check a record's shape; the actions themselves are checked by :func:`replay`."""
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, not {_short(data)}")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise RecordError(
                f"unknown record key {unknown[0]!r}; a record holds {', '.join(sorted(_KEYS))}"
            )
        version = data.get("version", RECORD_VERSION)
        if type(version) is not int or version != RECORD_VERSION:
            raise RecordError(f"record version {short_repr(version)} is not supported (only 1)")
        try:
            rules = RuleSet.from_mapping(data.get("rules", {}))
        except RulesError as error:
            raise RecordError(f"record rules: {error}") from None
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"record 'actions' must be a list, not {_short(actions)}")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError(f"record 'result' must be an object, not {_short(result)}")
        given = [key for key in _DEAL_KEYS if key in data]
        if "seed" in data:
            if given:
                raise RecordError(f"a record has a seed or a deal, not both (it has {given[0]!r})")
            seed = data["seed"]
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise RecordError(f"record 'seed' must be an integer >= 0, not {_short(seed)}")
            return cls(rules, tuple(actions), seed=seed, result=result)
        missing = [key for key in _DEAL_KEYS if key not in data]
        if missing:
            raise RecordError(f"a record needs a 'seed' or a whole deal; {missing[0]!r} is missing")
        deal = {key: data[key] for key in _DEAL_KEYS}
        return cls(rules, tuple(actions), deal=deal, result=result)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"version": RECORD_VERSION, "rules": self.rules.to_mapping()}
        if self.deal is not None:
            data.update(self.deal)
        else:
            data["seed"] = self.seed
        data["actions"] = list(self.actions)
        if self.result is not None:
            data["result"] = self.result
        return data


def start_match(record: Record) -> Match:
    """The match a record starts from, before any action."""
    if record.deal is None:
        assert record.seed is not None
        try:
            return Match(record.rules, record.seed)
        except RulesError as error:  # rules that can never deal (endless redeals)
            raise RecordError(f"record rules: {error}") from None
    deal = record.deal
    dealer = deal["dealer"]
    hands = deal["hands"]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer not in (0, 1):
        raise RecordError(f"record 'dealer' must be 0 or 1, not {_short(dealer)}")
    for key, value in (("field", deal["field"]), ("stock", deal["stock"])):
        if not _is_slug_list(value):
            raise RecordError(f"record {key!r} must be a list of card slugs, not {_short(value)}")
    if not isinstance(hands, list) or len(hands) != 2 or not all(map(_is_slug_list, hands)):
        raise RecordError(f"record 'hands' must be two lists of card slugs, not {_short(hands)}")
    try:
        given = Round.from_deal(record.rules, dealer, hands, deal["field"], deal["stock"])
    except DealError as error:
        raise RecordError(f"record deal: {error}") from None
    return Match.single(given)


def replay(record: Record) -> Match:
    """Replay every action, re-checking each; raises :class:`RecordError` on the first bad one.

    A record whose actions stop early gives a match that is not over; a stored
    ``result`` must equal the replay's.
    """
    match = start_match(record)
    for index, data in enumerate(record.actions):
        try:
            action = action_from_json(data)
        except ValueError as error:
            raise RecordError(f"action {index}: {error}", index) from None
        if match.is_over:
            raise RecordError(
                f"action {index} ({_short(data)}) is illegal: the game is already over", index
            )
        try:
            match.apply(action)
        except IllegalActionError as error:
            raise RecordError(f"action {index} ({_short(data)}): {error}", index) from None
        except RulesError as error:  # the next round could not be dealt
            raise RecordError(f"record rules: {error}") from None
    if record.result is not None:
        output = replay_output(match)
        if output != record.result:
            stored, replayed = _short(record.result), _short(output)
            raise RecordError(f"the stored result {stored} differs from the replay's {replayed}")
    return match


def replay_output(match: Match) -> dict[str, Any]:
    """The docs/rules.md §7 output of ``koikoi replay --json`` for a (replayed) match."""
    output: dict[str, Any] = {
        "rounds": [result.to_json() for result in match.results],
        "totals": list(match.totals),
        "winner": match.winner,
    }
    if not match.is_over:
        output["finished"] = False
    return output


def load_record(path: str | Path) -> Record:
    path = Path(path)
    try:
        text = read_text(path, "record")
    except OSError as error:
        raise RecordError(f"cannot read record {str(path)!r}: {error.strerror}") from None
    except FileTooLargeError as error:
        raise RecordError(str(error)) from None
    except UnicodeDecodeError as error:
        raise RecordError(f"record {str(path)!r} is not UTF-8 text (byte {error.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"record {str(path)!r} is not JSON: {error}") from None
    except RecursionError:
        raise RecordError(f"record {str(path)!r} is nested too deeply") from None
    except ValueError:  # from int(): more digits than it converts
        raise RecordError(f"record {str(path)!r} holds a number of too many digits") from None
    return Record.from_json(data)


def _is_slug_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _short(value: Any) -> str:
    try:
        text = json.dumps(value) if not isinstance(value, str) else repr(value)
    except (RecursionError, ValueError):  # nested too deeply, or an integer too long
        return short_repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
