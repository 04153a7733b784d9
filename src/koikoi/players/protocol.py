"""The engine protocol: players in other processes (the README's contract).

A :class:`ProcessPlayer` runs a program and talks to it in JSON lines: a ``start``
line with its seed, an ``observation`` line for every decision of its seat (answered
by one action in record form), and an ``end`` line. What it sends is built from the
seat's :class:`~koikoi.round.Observation` alone, so a program sees exactly what a
built-in player sees.

>>> from koikoi.match import Match
>>> from koikoi.rules import PRESETS
>>> view = observation_to_json(Match(PRESETS["classic"], 1).observation(0))
>>> sorted(view)[:6]
['calls', 'captured', 'dealer', 'decided', 'field', 'hand']
"""

from __future__ import annotations

import contextlib
import json
import shlex
import subprocess
import threading
import weakref
from typing import Any

from koikoi.cards import SLUGS, slugs
from koikoi.jsengine import PROGRAMS, node_command
from koikoi.match import Match
from koikoi.players.baseline import Seed, generator
from koikoi.round import Action, Observation, action_from_json, action_name, action_to_json

PROTOCOL = 1
"""The protocol's version, sent in the ``start`` line."""

MOVE_TIMEOUT = 60.0
"""Seconds a program may take for one answer before it forfeits."""

NODE_PLAYER = PROGRAMS / "player-cli.mjs"
"""The browser's computer players as a protocol program (``js:LEVEL``)."""


class PlayerError(RuntimeError):
    """A program broke the protocol: it forfeits the game. The message names the
    player, the line and what was wrong."""


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """The protocol's (and the README's) JSON form of what a seat may know."""
    view = obs.match
    return {
        "type": "observation",
        "seat": obs.seat,
        "turn": obs.turn,
        "dealer": obs.dealer,
        "rules": obs.rules.to_mapping(full=True),
        "phase": obs.phase.value,
        "month": obs.month,
        "hand": slugs(obs.hand),
        "field": slugs(obs.field),
        "captured": [slugs(obs.captured[0]), slugs(obs.captured[1])],
        "opponent_hand": obs.opponent_hand_size,
        "stock": obs.stock_size,
        "pending": None if obs.pending_card is None else SLUGS[obs.pending_card],
        "legal": [action_to_json(action) for action in obs.legal_actions],
        "calls": list(obs.calls),
        "yaku": [obs.yaku[0], obs.yaku[1]],
        "decided": list(obs.decided),
        "history": [
            {
                "seat": event.seat,
                "source": event.source,
                "card": SLUGS[event.card],
                "captured": slugs(event.captured),
            }
            for event in obs.history
        ],
        "match": None
        if view is None
        else {
            "round": view.round_number,
            "rounds": view.rounds,
            "totals": list(view.totals),
            "target_score": view.target_score,
        },
    }


def command_for(name: str) -> list[str] | None:
    """The program behind a player name (``cmd:PROGRAM ARGS``, ``js:LEVEL``), or None
    for a built-in player. A name whose program cannot be found is an error."""
    if name.startswith("cmd:"):
        try:
            command = shlex.split(name[len("cmd:") :])
        except ValueError as error:
            raise ValueError(f"player {name!r}: cannot split the command: {error}") from None
        if not command:
            raise ValueError(f"player {name!r}: cmd: needs a program to run")
        return command
    if name.startswith("js:"):
        return node_command(
            NODE_PLAYER.name, *shlex.split(name[len("js:") :]), needed_by=f"player {name!r}"
        )
    return None


class ProcessPlayer:
    """A player that is a program speaking the engine protocol.

    The program starts with the first decision and stops at :meth:`close` (or when the
    player is collected). Any protocol fault raises :class:`PlayerError`.
    """

    def __init__(
        self, name: str, command: list[str], seed: Seed, *, move_timeout: float = MOVE_TIMEOUT
    ) -> None:
        self.name = name
        self.command = command
        self.seed = generator(seed).getrandbits(32)
        self.move_timeout = move_timeout
        self._process: subprocess.Popen[str] | None = None
        self._line = 0  # lines read from the program, for messages

    def choose(self, observation: Observation) -> Action:
        self._send(observation_to_json(observation))
        answer = self._read()
        where = f"player {self.name!r}, line {self._line} of its output"
        try:
            data = json.loads(answer)
        except json.JSONDecodeError as error:
            raise PlayerError(f"{where}: not JSON ({error.msg}): {answer[:200]!r}") from None
        try:
            action = action_from_json(data)
        except ValueError as error:
            raise PlayerError(f"{where}: {error}") from None
        if action not in observation.legal_actions:
            legal = ", ".join(action_name(a) for a in observation.legal_actions)
            raise PlayerError(f"{where}: {action_name(action)} is not legal now; legal: {legal}")
        return action

    def finish(self, match: Match) -> None:
        """Tell the program how the game ended, then stop it."""
        if self._process is not None and self._process.poll() is None:
            # One that has gone already needs telling nothing more.
            with contextlib.suppress(PlayerError):
                self._send({"type": "end", "totals": list(match.totals), "winner": match.winner})
        self.close()

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            _stop(process)

    # -- the pipe --------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[str]:
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as error:
            raise PlayerError(
                f"player {self.name!r}: cannot run {self.command[0]!r}: {error.strerror}"
            ) from None
        weakref.finalize(self, _stop, process)
        self._process = process
        self._send({"type": "start", "protocol": PROTOCOL, "seed": self.seed})
        return process

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process or self._start()
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        except OSError:
            raise PlayerError(f"player {self.name!r}: {self._gone(process)}") from None

    def _read(self) -> str:
        process = self._process
        assert process is not None
        output = process.stdout
        assert output is not None
        got: list[str] = []
        # A thread reads, so that a program that never answers costs only the timeout.
        reader = threading.Thread(target=lambda: got.append(output.readline()))
        reader.daemon = True
        reader.start()
        reader.join(self.move_timeout)
        if reader.is_alive():
            self._process = None
            _stop(process, wait=0)  # it is not answering: no time to say goodbye
            raise PlayerError(
                f"player {self.name!r}: no answer within {self.move_timeout:g} s"
                f" (after line {self._line} of its output)"
            )
        line = got[0] if got else ""
        if not line:
            raise PlayerError(f"player {self.name!r}: {self._gone(process)}")
        self._line += 1
        return line.strip()

    def _gone(self, process: subprocess.Popen[str]) -> str:
        try:
            code = process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return f"closed its output after line {self._line}"
        return f"exited with status {code} after line {self._line} of its output"


def _stop(process: subprocess.Popen[str], *, wait: float = 2.0) -> None:
    """End the program: close its input and give it ``wait`` seconds to exit, then kill
    it. Its output is closed last, once nothing can be reading it any more."""
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout is not None:
        with contextlib.suppress(OSError):
            process.stdout.close()


__all__ = [
    "MOVE_TIMEOUT",
    "PROTOCOL",
    "PlayerError",
    "ProcessPlayer",
    "command_for",
    "observation_to_json",
]
