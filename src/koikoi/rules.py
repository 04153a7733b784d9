"""Rule sets: every option of docs/rules.md §6, the six presets, and their file form.

A rule set is a preset plus overrides. The same keys are used in TOML and JSON rules
files, in ``--set key=value`` on the command line and in the web game's house rules.

>>> rules = RuleSet.from_mapping({"preset": "single-deal", "goko": 12})
>>> rules.goko, rules.shiko, rules.preset
(12, 10, 'single-deal')
>>> rules.to_mapping()
{'preset': 'single-deal', 'goko': 12}
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import reprlib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import tomli_w

from koikoi.cards import CARD_COUNT, MONTH_COUNT
from koikoi.files import FileTooLargeError, read_text


class FirstDealer(StrEnum):
    RANDOM = "random"
    CARD_DRAW = "card-draw"
    SEAT_0 = "seat-0"


class NextDealer(StrEnum):
    ALTERNATE = "alternate"
    WINNER = "winner"


class DrawDealer(StrEnum):
    KEEP = "keep"
    PASS = "pass"


class BothHandYaku(StrEnum):
    REDEAL = "redeal"
    DEALER = "dealer"
    BOTH = "both"
    IGNORE = "ignore"


class Viewing(StrEnum):
    ALWAYS = "always"
    OFF = "off"
    WITH_OTHER_YAKU = "with-other-yaku"


class ViewingCanceller(StrEnum):
    RAINMAN = "rainman"
    LIGHTNING = "lightning"
    WILLOW = "willow"
    PAULOWNIA = "paulownia"


class TsukifudaMonth(StrEnum):
    ROUND = "round"
    ANY = "any"


class SakeCup(StrEnum):
    ANIMAL = "animal"
    PLAIN = "plain"
    BOTH = "both"


class BestPerCategory(StrEnum):
    NONE = "none"
    ANIMALS = "animals"
    RIBBONS = "ribbons"
    BOTH = "both"


class Decision(StrEnum):
    NEW_YAKU = "new-yaku"
    HIGHER_TOTAL = "higher-total"


class Multiplier(StrEnum):
    NONE = "none"
    PER_CALL = "per-call"
    ANY_CALLED = "any-called"
    OPPONENT_CALLED = "opponent-called"
    PER_OPPONENT_CALL = "per-opponent-call"
    ADDITIVE = "additive"


class Exhausted(StrEnum):
    DRAW = "draw"
    DEALER = "dealer"


class RulesError(ValueError):
    """One or more problems with a rule set; ``problems`` lists each one."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


# The kinds of value a rule field holds; each knows how to check and parse it.
POINTS = "points"  # int >= 0, 0 switches a yaku off
COUNT = "count"  # int >= 1
NUMBER = "number"  # int >= 0
BOOL = "bool"
CHOICE = "choice"  # one StrEnum member
CHOICES = "choices"  # a list of StrEnum members

# Every integer field has bounds, so a rule set from any source (--set, a rules file,
# a record, the web game's house rules) is one the whole product can hold. Scores go
# into 64-bit database columns and into the browser, whose numbers are doubles that
# hold integers exactly only up to 2**53. Points of at most 1000 keep a pile's yaku
# total under about 2**18; per-call doubling can multiply a round's score by 2 for
# every call, so _score_problems also refuses rule sets whose calls and rounds could
# still carry a match total past MAX_SCORE.
# (rounds: ten years of months; target_score: far past any match of 120 rounds.)
_BOUNDS = {POINTS: (0, 1000), COUNT: (1, CARD_COUNT)}
"""The bounds of each integer kind; NUMBER fields name their own."""

MAX_CALLS = CARD_COUNT // 2
"""The most koi-koi calls one player makes in a round: one a turn, and a player has at
most half the deck's cards to play."""
MAX_SCORE = 2**53 - 1
"""The largest match total a rule set may make possible: the largest integer a
JavaScript number holds exactly (and well within a 64-bit column)."""


def _rule(
    default: Any,
    kind: str,
    help: str,
    choices: type[StrEnum] | None = None,
    *,
    bounds: tuple[int, int] | None = None,
) -> Any:
    if kind in (POINTS, COUNT, NUMBER):
        bounds = bounds or _BOUNDS[kind]
    metadata = {"kind": kind, "help": help, "choices": choices, "bounds": bounds}
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class RuleSet:
    """Every rule option; the defaults are the ``classic`` preset.

    ``preset`` names the base the rule set was built from: it is kept for the file
    form and display, and is not part of equality (two rule sets with the same
    fields play the same game).
    """

    preset: str = field(default="classic", compare=False)
    hand_size: int = _rule(8, COUNT, "cards dealt to each hand")
    field_size: int = _rule(8, COUNT, "cards dealt face up to the field")
    deal_in_pairs: bool = _rule(False, BOOL, "deal two cards at a time")
    first_dealer: FirstDealer = _rule(
        FirstDealer.RANDOM, CHOICE, "who deals the first round", FirstDealer
    )
    next_dealer: NextDealer = _rule(
        NextDealer.ALTERNATE, CHOICE, "who deals after a round someone won", NextDealer
    )
    draw_dealer: DrawDealer = _rule(
        DrawDealer.PASS, CHOICE, "who deals after a round nobody won", DrawDealer
    )
    redeal_four_of_month: bool = _rule(False, BOOL, "redeal when the field holds a whole month")
    redeal_four_pairs: bool = _rule(False, BOOL, "redeal when the field is four pairs")
    redeal_three_of_month: bool = _rule(
        False, BOOL, "redeal when the field holds three or four cards of a month"
    )
    redeal_hand_four_of_month: bool = _rule(
        False, BOOL, "redeal when a hand holds a whole month (teshi then never scores)"
    )
    redeal_hand_four_pairs: bool = _rule(
        False, BOOL, "redeal when a hand is four pairs (kuttsuki then never scores)"
    )
    forced_capture: bool = _rule(
        False, BOOL, "a card that matches nothing may be played only when no card matches"
    )
    teshi: int = _rule(0, POINTS, "four cards of one month in the dealt hand")
    kuttsuki: int = _rule(0, POINTS, "four pairs of months in the dealt hand")
    both_hand_yaku: BothHandYaku = _rule(
        BothHandYaku.REDEAL, CHOICE, "what happens when both hands hold a hand yaku", BothHandYaku
    )
    goko: int = _rule(10, POINTS, "all five brights")
    shiko: int = _rule(8, POINTS, "four brights without the rain man")
    ame_shiko: int = _rule(7, POINTS, "four brights with the rain man")
    sanko: int = _rule(5, POINTS, "three brights without the rain man")
    brights_exclusive: bool = _rule(
        True, BOOL, "only the best bright yaku scores (false: every one that applies)"
    )
    inoshikacho: int = _rule(5, POINTS, "boar, deer and butterflies")
    inoshikacho_extra: bool = _rule(False, BOOL, "inoshikacho: +1 per animal beyond its three")
    tane: int = _rule(1, POINTS, "animals")
    tane_min: int = _rule(5, COUNT, "animals needed for tane")
    tane_extra: int = _rule(1, POINTS, "tane: points per animal beyond the minimum")
    tan: int = _rule(1, POINTS, "ribbons")
    tan_min: int = _rule(5, COUNT, "ribbons needed for tan")
    tan_extra: int = _rule(1, POINTS, "tan: points per ribbon beyond the minimum")
    kasu: int = _rule(1, POINTS, "plains")
    kasu_min: int = _rule(10, COUNT, "plains needed for kasu")
    kasu_extra: int = _rule(1, POINTS, "kasu: points per plain beyond the minimum")
    akatan: int = _rule(5, POINTS, "the three red poem ribbons")
    aotan: int = _rule(5, POINTS, "the three blue ribbons")
    ribbon_set_extra: bool = _rule(False, BOOL, "ribbon sets: +1 per ribbon beyond the set")
    akatan_aotan: int = _rule(0, POINTS, "all six poem and blue ribbons")
    akatan_aotan_replaces: bool = _rule(
        True, BOOL, "akatan-aotan replaces akatan and aotan instead of adding to them"
    )
    kusatan: int = _rule(0, POINTS, "the three plain red ribbons of wisteria, iris, clover")
    tsukimi: int = _rule(5, POINTS, "moon and sake cup")
    hanami: int = _rule(5, POINTS, "cherry curtain and sake cup")
    viewing_after_koikoi: int = _rule(
        0,
        NUMBER,
        "tsukimi and hanami points once their holder has called koi-koi (0: unchanged)",
        bounds=_BOUNDS[POINTS],
    )
    viewing: Viewing = _rule(Viewing.ALWAYS, CHOICE, "when the viewing yaku count", Viewing)
    viewing_in_season: bool = _rule(
        False, BOOL, "hanami only in a round of month 3, tsukimi only in one of month 8"
    )
    viewing_cancelled_by: tuple[ViewingCanceller, ...] = _rule(
        (), CHOICES, "captured cards that cancel the viewing yaku", ViewingCanceller
    )
    tsukifuda: int = _rule(0, POINTS, "all four cards of a month")
    tsukifuda_month: TsukifudaMonth = _rule(
        TsukifudaMonth.ROUND, CHOICE, "which months tsukifuda counts", TsukifudaMonth
    )
    sake_cup: SakeCup = _rule(SakeCup.ANIMAL, CHOICE, "what the sake cup counts as", SakeCup)
    lightning_is_kasu: bool = _rule(True, BOOL, "the lightning card counts as a plain")
    best_per_category: BestPerCategory = _rule(
        BestPerCategory.NONE,
        CHOICE,
        "drop tane/tan when a set of that kind scores",
        BestPerCategory,
    )
    decision: Decision = _rule(
        Decision.HIGHER_TOTAL, CHOICE, "what reopens stop or koi-koi after a call", Decision
    )
    max_koikoi: int = _rule(
        0, NUMBER, "koi-koi calls allowed per player per round (0: any)", bounds=(0, MAX_CALLS)
    )
    koikoi_after_opponent: bool = _rule(
        True, BOOL, "a player may call koi-koi after the opponent has called"
    )
    multiplier: Multiplier = _rule(
        Multiplier.PER_CALL, CHOICE, "how koi-koi calls multiply the score", Multiplier
    )
    double_at: int = _rule(0, POINTS, "double a yaku total at least this high (0: never)")
    exhausted: Exhausted = _rule(
        Exhausted.DRAW, CHOICE, "who wins a round played out without a stop", Exhausted
    )
    exhausted_points: int = _rule(0, POINTS, "the dealer's points for an exhausted round")
    rounds: int = _rule(12, COUNT, "rounds in a match", bounds=(1, 120))
    starting_points: int = _rule(
        0,
        NUMBER,
        "both start with these points, and a round's points move from loser to winner"
        " (0: totals start at 0 and only grow)",
        bounds=(0, 100_000),
    )
    target_score: int = _rule(
        50, NUMBER, "a match ends when a player reaches it (0: none)", bounds=(0, 100_000)
    )

    KEYS: ClassVar[tuple[str, ...]]

    def __post_init__(self) -> None:
        problems = _cross_field_problems(self)
        if problems:
            raise RulesError(problems)

    def __hash__(self) -> int:
        # Rule sets key the caches of compiled scorers, looked up for every deal: hash
        # the fifty fields once. (The cache is not pickled: string hashes differ
        # between processes.)
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, key) for key in self.KEYS))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if key not in _MEMOS}

    # -- building ----------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> RuleSet:
        """A rule set from file-form data: an optional ``preset`` plus overrides.

        Values keep their JSON/TOML types (a bool must be a bool). Every problem is
        reported at once in one :class:`RulesError`.
        """
        if not isinstance(data, Mapping):
            raise RulesError([f"rules must be a table of key = value, not {short_repr(data)}"])
        preset = data.get("preset", "classic")
        problems: list[str] = []
        base = PRESETS.get(preset) if isinstance(preset, str) else None
        if base is None:
            problems.append(_bad_value_message("preset", preset, PRESET_NAMES))
            base = CLASSIC
        overrides = {key: value for key, value in data.items() if key != "preset"}
        try:
            rules = base.with_overrides(overrides)
        except RulesError as error:
            raise RulesError(problems + error.problems) from None
        if problems:
            raise RulesError(problems)
        return rules

    def with_overrides(self, overrides: Mapping[str, Any], *, from_text: bool = False) -> RuleSet:
        """This rule set with some fields changed.

        With ``from_text``, values are command-line strings (``"true"``, ``"8"``,
        ``"rainman,willow"``) and are parsed by each field's kind.
        """
        if len(overrides) > len(self.KEYS):
            # Keys are unique, so most of these are unknown: one problem says so, instead
            # of a problem (and a search for a close key) for each of them.
            raise RulesError(
                [
                    f"rules with {len(overrides)} keys: a rule set has only"
                    f" {len(self.KEYS)} (see 'koikoi rules show' for every key)"
                ]
            )
        changes: dict[str, Any] = {}
        problems: list[str] = []
        unknown = 0
        for key, value in overrides.items():
            if key == "preset":
                problems.append("'preset' chooses the base and cannot be overridden here")
                continue
            spec = FIELDS.get(key)
            if spec is None:
                unknown += 1
                problems.append(_unknown_key_message(key, suggest=unknown <= _SUGGESTIONS))
                continue
            try:
                changes[key] = spec.parse(value) if from_text else spec.check(value)
            except ValueError as error:
                problems.append(str(error))
        try:
            rules = dataclasses.replace(self, **changes)
        except RulesError as error:
            problems.extend(error.problems)
        if problems:
            raise RulesError(problems)
        return rules

    @classmethod
    def from_file(cls, path: str | Path) -> RuleSet:
        """A rule set from a TOML or JSON file (chosen by the suffix, ``.json`` or not)."""
        path = Path(path)
        try:
            text = read_text(path, "rules file")
        except OSError as error:
            raise RulesError([f"cannot read rules file {str(path)!r}: {error.strerror}"]) from None
        except FileTooLargeError as error:
            raise RulesError([str(error)]) from None
        except UnicodeDecodeError as error:
            raise RulesError(
                [f"rules file {str(path)!r} is not UTF-8 text (byte {error.start})"]
            ) from None
        try:
            data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
        except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
            raise RulesError([f"rules file {str(path)!r} is not valid: {error}"]) from None
        except RecursionError:
            raise RulesError([f"rules file {str(path)!r} is nested too deeply"]) from None
        except ValueError:  # from int(): more digits than it converts
            raise RulesError(
                [f"rules file {str(path)!r} holds a number of too many digits to read"]
            ) from None
        return cls.from_mapping(data)

    # -- file form ---------------------------------------------------------------------

    def to_mapping(self, *, full: bool = False) -> dict[str, Any]:
        """The file form: ``preset`` and the fields that differ from it (or all of them).

        Every state the server sends holds the full form, twice: it is made once per
        rule set and kept as pairs of immutable values (a rule set is one, and
        observations hold it), each caller getting a dict and lists of its own.
        """
        slot = "_full" if full else "_short"
        kept: tuple[tuple[str, Any], ...] | None = self.__dict__.get(slot)
        if kept is None:
            base = PRESETS.get(self.preset, CLASSIC)
            pairs = [("preset", self.preset if self.preset in PRESETS else "classic")]
            for key in self.KEYS:
                value = getattr(self, key)
                if full or value != getattr(base, key):
                    pairs.append((key, _plain(value)))
            kept = tuple(pairs)
            object.__setattr__(self, slot, kept)
        return {key: list(value) if type(value) is tuple else value for key, value in kept}

    def to_toml(self, *, full: bool = False) -> str:
        return tomli_w.dumps(self.to_mapping(full=full))

    def to_json(self, *, full: bool = False) -> str:
        return json.dumps(self.to_mapping(full=full), indent=2)


_MEMOS = frozenset({"_hash", "_full", "_short"})
"""What a rule set keeps of its own computations, never pickled (a hash differs between
processes) nor compared."""


def _plain(value: Any) -> Any:
    """A field's value as plain data (a list field's as a tuple of strings)."""
    if isinstance(value, tuple):
        return tuple(str(item) for item in value)
    if isinstance(value, StrEnum):
        return str(value)
    return value


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One rule key: its kind of value, its allowed values and a short description."""

    key: str
    kind: str
    help: str
    choices: type[StrEnum] | None
    bounds: tuple[int, int] | None
    """The least and largest value of an integer field (None for the other kinds)."""

    @property
    def allowed(self) -> str:
        """The allowed values in words, for error messages and help."""
        if self.bounds is not None:
            low, high = self.bounds
            off = " (0 switches it off)" if self.kind == POINTS else ""
            return f"an integer from {low} to {high}{off}"
        if self.kind == BOOL:
            return "true or false"
        assert self.choices is not None
        names = ", ".join(member.value for member in self.choices)
        if self.kind == CHOICES:
            return f"a list of: {names} (empty for none)"
        return names

    def _bad(self, value: Any) -> ValueError:
        return ValueError(_bad_value_message(self.key, value, self.allowed))

    def check(self, value: Any) -> Any:
        """Validate a JSON/TOML value and return it in the field's own type."""
        if self.kind == BOOL:
            if not isinstance(value, bool):
                raise self._bad(value)
            return value
        if self.bounds is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._bad(value)
            low, high = self.bounds
            if not low <= value <= high:
                raise self._bad(value)
            return value
        assert self.choices is not None
        if self.kind == CHOICE:
            try:
                return self.choices(value)
            except ValueError:
                raise self._bad(value) from None
        if not isinstance(value, (list, tuple)):
            raise self._bad(value)
        try:
            members = {self.choices(item) for item in value}
        except ValueError:
            raise self._bad(value) from None
        # A canonical order, so equal sets compare and print equal.
        return tuple(member for member in self.choices if member in members)

    def parse(self, text: Any) -> Any:
        """Parse a command-line value (``--set key=value``) and validate it."""
        if not isinstance(text, str):
            return self.check(text)
        if self.bounds is not None:
            # int() also takes " 5", "+5", "1_000" and other scripts' digits (Arabic-Indic
            # "٣", fullwidth ones): a number on the command line is plain ASCII digits,
            # and short (a longer one is out of bounds, and int() refuses thousands).
            if not (text.isascii() and text.isdigit()) or len(text) > _MAX_DIGITS:
                raise self._bad(text)
            return self.check(int(text))
        text = text.strip()
        if self.kind == BOOL:
            if text.lower() not in ("true", "false"):
                raise self._bad(text)
            return text.lower() == "true"
        if self.kind == CHOICES:
            items = [item.strip() for item in text.split(",") if item.strip()]
            try:
                return self.check(items)
            except ValueError:
                raise self._bad(text) from None
        return self.check(text)


_MAX_DIGITS = 20
"""Digits a command-line number may have (leading zeros included)."""
_SUGGESTIONS = 3
"""Unknown keys that get a did-you-mean; past a few, the key is no typo of a rule's."""

_briefly = reprlib.Repr()
_briefly.maxstring = _briefly.maxother = _briefly.maxlong = 60
_briefly.maxlevel = 3


def short_repr(value: Any) -> str:
    """``repr(value)`` cut short, for error messages: a bad value may be megabytes of
    text, a list nested hundreds deep, or an integer of more digits than repr() prints."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        sign = "-" if value < 0 else ""
        return f"{sign}an integer of about {value.bit_length() * 0.30103:.0f} digits"
    return _briefly.repr(value)


def _bad_value_message(key: str, value: Any, allowed: str | Iterable[str]) -> str:
    if not isinstance(allowed, str):
        allowed = ", ".join(allowed)
    return f"rule {key!r}: {short_repr(value)} is not allowed; allowed: {allowed}"


def _unknown_key_message(key: str, *, suggest: bool = True) -> str:
    message = f"unknown rule {short_repr(key)}"
    close = difflib.get_close_matches(key, RuleSet.KEYS, n=1) if suggest else []
    if close:
        message += f"; did you mean {close[0]!r}?"
    return message + " (see 'koikoi rules show' for every key)"


def fullest_field(rules: RuleSet) -> int:
    """The most cards a field can hold without meeting a field redeal condition.

    Each month may hold at most 2 cards (three of a month redeals), 3 (four of a month
    does) or all 4; with four pairs redealing, at most three months hold exactly two.
    """
    if rules.redeal_three_of_month:
        most = 2
    elif rules.redeal_four_of_month:
        most = 3
    else:
        most = 4
    if rules.redeal_four_pairs and most == 2:
        return 3 * 2 + (MONTH_COUNT - 3)  # three pairs, and one card of every other month
    return most * MONTH_COUNT


MIN_DEAL_CHANCE = 0.05
"""The least share of shuffled deals a rule set's redeal conditions must let stand.
A deal is redealt until one stands, at most MAX_REDEALS times: at 5%, running out of
tries has a chance of about 1 in 10**22, so no match ever stops for want of a deal."""


def deal_chance(rules: RuleSet) -> float:
    """About the share of shuffled deals that meet none of the redeal conditions: the
    exact share for the field and for each hand, taken as independent."""
    field_most = 2 if rules.redeal_three_of_month else 3 if rules.redeal_four_of_month else 4
    hand_most = 3 if rules.redeal_hand_four_of_month else 4
    field = _standing_share(rules.field_size, field_most, rules.redeal_four_pairs)
    hand = _standing_share(rules.hand_size, hand_most, rules.redeal_hand_four_pairs)
    return field * hand * hand


@lru_cache(maxsize=256)
def _standing_share(size: int, most: int, no_four_pairs: bool) -> float:
    """The share of the deck's ``size``-card subsets with at most ``most`` cards of any
    month and, with ``no_four_pairs``, fewer than four months of exactly two."""
    # ways[cards][pairs]: the subsets of the months so far, by cards and pairs held.
    ways = [[0] * 5 for _ in range(size + 1)]
    ways[0][0] = 1
    for _ in range(MONTH_COUNT):
        grown = [[0] * 5 for _ in range(size + 1)]
        for cards, by_pairs in enumerate(ways):
            for pairs, count in enumerate(by_pairs):
                if not count:
                    continue
                for taken in range(min(most, size - cards) + 1):
                    paired = min(pairs + (taken == 2), 4)
                    grown[cards + taken][paired] += count * math.comb(4, taken)
        ways = grown
    standing = ways[size][:4] if no_four_pairs else ways[size]
    return sum(standing) / math.comb(CARD_COUNT, size)


# The rule names of each field redeal condition, for the message that says which.
_FIELD_REDEALS = ("redeal_four_of_month", "redeal_three_of_month", "redeal_four_pairs")
# Each hand redeal condition and the hand yaku it keeps from scoring.
_HAND_REDEALS = (("redeal_hand_four_of_month", "teshi"), ("redeal_hand_four_pairs", "kuttsuki"))


def _redeal_names(rules: RuleSet) -> str:
    """The sizes and the redeal rules in force, quoted, for a message."""
    keys = [*_FIELD_REDEALS, *(redeal for redeal, _ in _HAND_REDEALS)]
    return ", ".join(["'hand_size'", "'field_size'", *(repr(k) for k in keys if getattr(rules, k))])


def _cross_field_problems(rules: RuleSet) -> list[str]:
    dealt = 2 * rules.hand_size + rules.field_size
    if dealt > CARD_COUNT:
        return [
            f"rules 'hand_size' and 'field_size': 2 x {rules.hand_size} + {rules.field_size}"
            f" = {dealt} cards dealt, more than the deck's {CARD_COUNT}"
        ]
    problems = []
    # Only a field can be forced to redeal (no hand size forces a hand condition: a
    # hand of up to 36 cards can hold three of some months and no pair); other sizes
    # and redeal rules may let too few deals stand.
    fullest = fullest_field(rules)
    if rules.field_size > fullest:
        names = " and ".join(repr(key) for key in _FIELD_REDEALS if getattr(rules, key))
        problems.append(
            f"rules 'field_size' and {names}: a field of {rules.field_size} cards always"
            f" meets a redeal condition (at most {fullest} cards meet none), so every deal"
            " would be redealt"
        )
    elif (chance := deal_chance(rules)) < MIN_DEAL_CHANCE:
        problems.append(
            f"rules {_redeal_names(rules)}: only about {chance:.2%} of deals of"
            f" {rules.hand_size}-card hands and a {rules.field_size}-card field meet none"
            f" of these redeal conditions (at least {MIN_DEAL_CHANCE:.0%} must), so most"
            " deals would be redealt; deal fewer cards or drop a redeal rule"
        )
    # A hand redealt for a hand yaku never scores it: the two settings contradict.
    for redeal, points in _HAND_REDEALS:
        if getattr(rules, redeal) and getattr(rules, points):
            problems.append(
                f"rules {redeal!r} and {points!r}: a hand that holds {points} is redealt,"
                f" so {points} never scores; set {points} = 0 or {redeal} = false"
            )
    return problems + _score_problems(rules)


def largest_pile_total(rules: RuleSet) -> int:
    """More than any pile of captured cards scores under these rules: every yaku at
    once, each with every card of the deck beyond its minimum."""
    sets = (
        rules.inoshikacho, rules.akatan, rules.aotan, rules.akatan_aotan, rules.kusatan,
        rules.tsukimi, rules.hanami, rules.tane, rules.tan, rules.kasu,
    )  # fmt: skip
    extras = rules.tane_extra + rules.tan_extra + rules.kasu_extra
    # +1 a card beyond their own cards: inoshikacho and the four ribbon sets.
    ones = (rules.inoshikacho_extra + 4 * rules.ribbon_set_extra) * CARD_COUNT
    brights = (rules.goko, rules.shiko, rules.ame_shiko, rules.sanko)
    return (
        (max(brights) if rules.brights_exclusive else sum(brights))
        + sum(sets)
        + 2 * rules.viewing_after_koikoi
        + rules.tsukifuda * MONTH_COUNT
        + extras * CARD_COUNT
        + ones
    )


def largest_match_total(rules: RuleSet) -> int:
    """More than any player's match total under these rules (every round at its most)."""
    calls = min(rules.max_koikoi or rules.hand_size, rules.hand_size)
    factor = {
        Multiplier.NONE: 1,
        Multiplier.PER_CALL: 1 << (2 * calls),
        Multiplier.ANY_CALLED: 2,
        Multiplier.OPPONENT_CALLED: 2,
        Multiplier.PER_OPPONENT_CALL: 1 << calls,
        Multiplier.ADDITIVE: max(calls - 2, 1),
    }[rules.multiplier]
    doubled = 2 if rules.double_at else 1
    bonus = 3 if rules.multiplier is Multiplier.ADDITIVE else 0
    # Hand yaku and an exhausted round's points take no multiplier.
    flat = max(rules.teshi, rules.kuttsuki, rules.exhausted_points)
    most = max(largest_pile_total(rules) * doubled * factor + bonus, flat)
    # Zero-sum matches start from starting_points and can fall as far below zero.
    return rules.starting_points + rules.rounds * most


def _score_problems(rules: RuleSet) -> list[str]:
    largest = largest_match_total(rules)
    if largest <= MAX_SCORE:
        return []
    return [
        f"rules 'multiplier', 'max_koikoi', 'hand_size', 'rounds' and the points: a match"
        f" total could reach {largest} (about 2**{largest.bit_length() - 1}), past the"
        " 2**53 that scores are kept within; allow fewer koi-koi calls (max_koikoi), deal"
        " smaller hands, play fewer rounds, lower the points or choose another multiplier"
    ]


FIELDS: dict[str, FieldSpec] = {
    f.name: FieldSpec(
        f.name, f.metadata["kind"], f.metadata["help"], f.metadata["choices"], f.metadata["bounds"]
    )
    for f in dataclasses.fields(RuleSet)
    if f.metadata
}
RuleSet.KEYS = tuple(FIELDS)

CLASSIC = RuleSet()
PRESETS: dict[str, RuleSet] = {
    "classic": CLASSIC,
    "ten-card": dataclasses.replace(
        CLASSIC,
        preset="ten-card",
        hand_size=10,
        tane=5,
        tan=5,
        akatan=3,
        aotan=3,
        decision=Decision.NEW_YAKU,
        target_score=0,
    ),
    "single-deal": dataclasses.replace(
        CLASSIC,
        preset="single-deal",
        redeal_four_of_month=True,
        redeal_four_pairs=True,
        teshi=6,
        kuttsuki=6,
        goko=15,
        shiko=10,
        ame_shiko=8,
        sanko=6,
        akatan=6,
        aotan=6,
        tsukimi=0,
        hanami=0,
        sake_cup=SakeCup.BOTH,
        multiplier=Multiplier.NONE,
        rounds=1,
        target_score=0,
    ),
    "traditional": dataclasses.replace(
        CLASSIC,
        preset="traditional",
        deal_in_pairs=True,
        first_dealer=FirstDealer.CARD_DRAW,
        redeal_four_of_month=True,
        forced_capture=True,
        teshi=6,
        kuttsuki=6,
        inoshikacho_extra=True,
        ribbon_set_extra=True,
        akatan_aotan=10,
        decision=Decision.NEW_YAKU,
        multiplier=Multiplier.OPPONENT_CALLED,
        double_at=8,
        target_score=0,
    ),
    # The rule sets other AIs play (see the README's "Rule sets" for where each rule
    # comes from).
    "nintendo": dataclasses.replace(
        CLASSIC,
        preset="nintendo",
        next_dealer=NextDealer.WINNER,
        redeal_four_of_month=True,
        redeal_three_of_month=True,
        redeal_four_pairs=True,
        redeal_hand_four_of_month=True,
        redeal_hand_four_pairs=True,
        inoshikacho_extra=True,
        ribbon_set_extra=True,
        akatan_aotan=10,
        sake_cup=SakeCup.BOTH,
        best_per_category=BestPerCategory.BOTH,
        max_koikoi=1,
        koikoi_after_opponent=False,
        multiplier=Multiplier.OPPONENT_CALLED,
        double_at=7,
        target_score=0,
    ),
    "koikoi-japan": dataclasses.replace(
        CLASSIC,
        preset="koikoi-japan",
        next_dealer=NextDealer.WINNER,
        redeal_four_of_month=True,
        redeal_hand_four_of_month=True,
        akatan_aotan=10,
        akatan_aotan_replaces=False,
        tsukimi=1,
        hanami=1,
        viewing_after_koikoi=3,
        sake_cup=SakeCup.BOTH,
        multiplier=Multiplier.ADDITIVE,
        exhausted=Exhausted.DEALER,
        exhausted_points=1,
        rounds=8,
        starting_points=30,
        target_score=0,
    ),
}
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)


def parse_assignments(assignments: Iterable[str]) -> dict[str, str]:
    """``["goko=12", "viewing=off"]`` as a mapping; a malformed item is an error."""
    result: dict[str, str] = {}
    problems = []
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            problems.append(f"{item!r} is not KEY=VALUE (for example goko=12)")
            continue
        result[key.strip()] = value
    if problems:
        raise RulesError(problems)
    return result


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name too long for the system, or one with a NUL
        return False


def resolve_rules(spec: str | None = None, assignments: Iterable[str] = ()) -> RuleSet:
    """The rule set named on a command line: a preset name or a rules file, then ``--set``s.

    ``--set preset=NAME`` chooses the base like ``--rules NAME``, and wins over it.

    >>> resolve_rules("ten-card", ["tane=2"]).tane
    2
    >>> resolve_rules(None, ["preset=traditional", "goko=12"]).double_at
    8
    """
    overrides = parse_assignments(assignments)
    if "preset" in overrides:
        spec = overrides.pop("preset").strip()
        if spec not in PRESETS:
            raise RulesError([_bad_value_message("preset", spec, PRESET_NAMES)])
    if spec is None:
        rules = CLASSIC
    elif spec in PRESETS:
        rules = PRESETS[spec]
    elif Path(spec).suffix.lower() in (".toml", ".json") or _exists(spec):
        rules = RuleSet.from_file(spec)
    else:
        raise RulesError([_bad_value_message("preset", spec, PRESET_NAMES) + ", or a rules file"])
    return rules.with_overrides(overrides, from_text=True) if overrides else rules
