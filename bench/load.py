"""Load: tables between two people, played live on real server processes.

Starts ``--processes`` ``koikoi serve`` processes (1 or 2) on a fresh PostgreSQL
database of their own (created on the maintenance database, dropped at the end) and
one Redis, each on its own listening socket that this program opens on a free
127.0.0.1 port and hands over with ``--fd``. With two processes, seat 0 of every table
talks to the first and seat 1 to the second, so every move crosses processes through
Redis; the players against the computer alternate between them.

``--tables`` tables, two simulated people each (one asyncio task per person, each
its own guest session: cookie and CSRF token): seat 0 opens the table, seat 1 sits,
both open ``WS /api/tables/{id}/live`` (the cookie and the site's Origin), then the
one whose turn it is thinks ``--think`` seconds (uniform in [0.5x, 1.5x]) and sends
its first legal action with the state's version: over its WebSocket, as the browser
does while it has one, or with ``--over http`` as a POST, the browser's way without
one. A finished match goes on at its rematch table. Meanwhile ``--easy`` more people
play the easy computer (``POST /api/games``, then its actions) at the same pace.

The clock starts once every table is seated and connected, and runs ``--seconds``
(or until every table has made ``--moves`` moves); no move is sent after it, the
ones in flight finish, and the updates still on their way get a few seconds.

Prints one JSON object:

- ``move_latency_ms``: from just before the mover sends its move to the moment the
  *other* player's WebSocket delivers the update of that version (as this program
  reads it, so its own scheduling counts too: see ``client_cpu``); ``answer_ms`` until
  the mover's own answer (its update, or the POST's response); ``easy_move_ms`` a
  move against the easy computer (its reply included), POST round trip.
- ``moves``: table moves sent inside the window and made (``over``: how they went);
  ``moves_per_second`` those over the window's length.
- ``errors``: every non-2xx answer, transport error or timeout, WebSocket drop,
  refusal or error message, and stall (nothing heard for 1.5x think + 20 s while
  playing); ``error_kinds`` counts them by kind, ``error_samples`` shows the first.
- ``lost_moves``: moves answered 200 whose update never reached the other seat's
  WebSocket by the end.
- ``ws_reconnects``: WebSockets opened again after a drop (by the same player).
- ``server_timeouts``: moves the server's own clock made for a seat (it is too slow
  or a player stalled); ``matches``: matches finished (rematches followed).
- ``server_cpu``: CPU seconds of each server process (its children included) over
  the window and the cores that is; ``client_cpu`` the same for this program;
  ``server_log_errors``: error lines the servers wrote.

    python bench/load.py --processes 2 --tables 20 --think 1 --seconds 30
    python bench/load.py --processes 1 --tables 3 --think 0.05 --seconds 5 --easy 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2
import psycopg
from psycopg import sql
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

HOST = "127.0.0.1"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
REQUEST_TIMEOUT = 30.0
"""Seconds any HTTP request may take, connecting included."""
WS_TIMEOUT = 15.0
"""Seconds a WebSocket may take to open and send its first state."""
READY_TRIES = 300
READY_PAUSE = 0.1
"""The servers' start: up to READY_TRIES polls of /api/session, READY_PAUSE apart."""
GRACE = 5.0
"""Seconds, after the last move, for updates still on their way."""
SETUP_AT_ONCE = 16
"""Tables being set up at once (sessions, open, sit, WebSockets)."""
TLS = ssl.create_default_context()
"""Every client's, though all of them speak plain HTTP: a client left to make its own
loads the system's certificates, 35 ms of this machine's CPU, and thousands of them
made the setup take two minutes, longer than the seats' clocks."""
RECONNECTS = 3
"""WebSocket reconnections one player may make in all, beyond one for every
second of the window (a page opens its WebSocket again when it closes)."""
REMATCH_TRIES = 3
"""Rematch offers one player may post at one finished table."""
STOP_SECONDS = 15.0
"""Seconds a server has to stop after SIGTERM before it is killed."""
OVER = ("won", "lost", "drawn")


def percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank percentile, rounded to 0.01; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))], 2)


def summary(values: list[float], *qs: tuple[str, float]) -> dict[str, float | None]:
    return {name: percentile(values, q) for name, q in qs}


@dataclass
class Stats:
    answers_ms: list[float] = field(default_factory=list)
    easy_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    moves: int = 0
    server_timeouts: int = 0
    matches: int = 0

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if len(self.samples) < 20:
            self.samples.append(f"{kind}: {detail}"[:300])


@dataclass
class Pair:
    """One table's two people: what each seat's WebSocket heard, and when."""

    index: int
    arrivals: tuple[dict[tuple[str, int], float], dict[tuple[str, int], float]] = field(
        default_factory=lambda: ({}, {})
    )
    moved: list[tuple[str, int, int, float]] = field(default_factory=list)
    """(table, version after the move, the other seat, perf_counter before the POST)."""
    moves: int = 0


class Bench:
    def __init__(self, args: argparse.Namespace, urls: list[str]) -> None:
        self.args = args
        self.urls = urls
        self.stats = Stats()
        self.random = random.Random(args.seed)
        self.pairs: list[Pair] = []
        self.start = 0.0
        self.deadline = math.inf

    def think_time(self) -> float:
        think: float = self.args.think
        return self.random.uniform(0.5 * think, 1.5 * think)

    def over(self, pair: Pair | None = None) -> bool:
        """Whether play ends (for ``pair``, or for the people against the computer)."""
        if time.perf_counter() >= self.deadline:
            return True
        if not self.args.moves:
            return False
        if pair is not None:
            return bool(pair.moves >= self.args.moves)
        return all(pair.moves >= self.args.moves for pair in self.pairs)

    async def pause(self, seconds: float, pair: Pair | None = None) -> bool:
        """Sleep, but not past the end; whether play goes on."""
        left = self.deadline - time.perf_counter()
        await asyncio.sleep(max(0.0, min(seconds, left)))
        return not self.over(pair)


class Person:
    """A browser: its own cookie jar and CSRF token, on one server process."""

    def __init__(self, bench: Bench, url: str) -> None:
        self.bench = bench
        self.url = url
        self.client = httpx2.AsyncClient(
            base_url=url,
            verify=TLS,
            timeout=REQUEST_TIMEOUT,
            trust_env=False,
            limits=httpx2.Limits(max_connections=2, max_keepalive_connections=1),
        )
        self.csrf = ""

    async def request(
        self, method: str, path: str, label: str, body: Any = None
    ) -> dict[str, Any] | None:
        """The answer's JSON, or None (counted as an error) for anything but a 2xx."""
        stats = self.bench.stats
        try:
            response = await self.client.request(
                method, path, json=body, headers={"X-CSRF-Token": self.csrf}
            )
        except httpx2.TimeoutException as error:
            stats.error(f"{label} timeout", repr(error))
            return None
        except httpx2.HTTPError as error:
            stats.error(f"{label} {type(error).__name__}", str(error))
            return None
        if not 200 <= response.status_code < 300:
            stats.error(f"{label} {response.status_code}", response.text)
            return None
        try:
            answer: dict[str, Any] = response.json()
        except ValueError:
            stats.error(f"{label} not JSON", response.text)
            return None
        return answer

    async def begin(self) -> bool:
        """A guest session: the cookie, and the token every POST carries."""
        session = await self.request("GET", "/api/session", "GET /api/session")
        if session is None:
            return False
        self.csrf = session["csrf"]
        return True

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.client.cookies.items())

    async def close(self) -> None:
        await self.client.aclose()


class Player(Person):
    """One seat of a table, its WebSocket and its turn."""

    def __init__(self, bench: Bench, url: str, pair: Pair, seat: int) -> None:
        super().__init__(bench, url)
        self.pair = pair
        self.seat = seat
        self.table_id = ""
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.acted = -1
        self.offers = 0
        self.reconnects = 0
        self.refusal: dict[str, Any] | None = None

    def take(self, state: dict[str, Any]) -> None:
        """A state heard or answered: kept if it is this table's newest."""
        if state.get("id") != self.table_id:
            return
        if self.state is None or state["version"] > self.state["version"]:
            self.state = state
            self.changed.set()

    async def listen(self) -> bool:
        """Open the table's WebSocket and read its first state."""
        stats = self.bench.stats
        address = urlsplit(self.url)
        uri = f"ws://{address.netloc}/api/tables/{self.table_id}/live"
        try:
            ws = await connect(
                uri,
                origin=Origin(self.url),
                additional_headers={"Cookie": self.cookie_header()},
                proxy=None,
                open_timeout=WS_TIMEOUT,
                close_timeout=5,
                # As a browser: it answers the server's pings and sends none.
                ping_interval=None,
                max_size=2**22,
            )
        except (OSError, WebSocketException, TimeoutError) as error:
            stats.error(f"WS open {type(error).__name__}", str(error))
            return False
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), WS_TIMEOUT))
        except (ConnectionClosed, TimeoutError, ValueError) as error:
            stats.error(f"WS first {type(error).__name__}", str(error))
            await ws.close()
            return False
        if first.get("type") != "state":
            stats.error("WS refused", json.dumps(first))
            await ws.close()
            return False
        self.ws = ws
        self.take(first["state"])
        self.reader = asyncio.create_task(self.read(ws))
        return True

    async def read(self, ws: ClientConnection) -> None:
        stats = self.bench.stats
        try:
            async for text in ws:
                heard = time.perf_counter()
                message = json.loads(text)
                kind = message.get("type")
                if kind == "refused":
                    self.refusal = message
                    self.changed.set()
                    continue
                if kind not in ("update", "state"):
                    stats.error(f"WS {kind}", str(text))
                    continue
                state = message["state"]
                if kind == "update":
                    self.pair.arrivals[self.seat].setdefault((state["id"], state["version"]), heard)
                    if self.seat == 0:
                        timeouts = [e for e in message["events"] if e.get("type") == "timeout"]
                        stats.server_timeouts += len(timeouts)
                self.take(state)
            if ws is self.ws:
                stats.error(f"WS closed {ws.close_code}", str(ws.close_reason))
        except ConnectionClosed as error:
            if ws is self.ws:
                stats.error("WS drop", str(error))
        if ws is self.ws:
            self.ws = None
            self.changed.set()

    async def unlisten(self) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            with contextlib.suppress(OSError, WebSocketException):
                await ws.close()
        if self.reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self.reader, 10)
            self.reader = None

    async def resync(self) -> None:
        """Read the table again (after a refusal, a drop or a stall)."""
        body = await self.request("GET", f"/api/tables/{self.table_id}", "GET /api/tables/{id}")
        if body is not None and body.get("state"):
            self.take(body["state"])

    async def move(self, state: dict[str, Any]) -> None:
        self.acted = state["version"]
        body = {"action": state["legal"][0], "version": state["version"]}
        started = time.perf_counter()
        if self.ws is not None and self.bench.args.over == "ws":
            answer = await self.socket_move(self.ws, body)
        else:
            path = f"/api/tables/{self.table_id}/actions"
            answer = await self.request("POST", path, "POST /api/tables/{id}/actions", body)
        done = time.perf_counter()
        if answer is None:
            await self.resync()
            return
        new = answer["state"]
        self.pair.moved.append((new["id"], new["version"], 1 - self.seat, started))
        self.pair.moves += 1
        self.bench.stats.moves += 1
        self.bench.stats.answers_ms.append((done - started) * 1000)
        self.take(new)

    async def socket_move(
        self, ws: ClientConnection, body: dict[str, Any]
    ) -> dict[str, Any] | None:
        """A move over the table's WebSocket: answered by this seat's next update (the
        reader takes it), or refused; None (counted as an error) unless it was made."""
        stats = self.bench.stats
        self.refusal = None
        try:
            await ws.send(json.dumps({"type": "move", **body}))
        except ConnectionClosed as error:
            stats.error("WS move ConnectionClosed", str(error))
            return None
        waited = time.perf_counter() + REQUEST_TIMEOUT
        while self.state is None or self.state["version"] <= body["version"]:
            if self.refusal is not None:
                stats.error(f"WS move {self.refusal['status']}", self.refusal["detail"])
                return None
            if self.ws is not ws:
                stats.error("WS move unanswered", "the socket closed before the answer")
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), waited - time.perf_counter())
            except TimeoutError:
                stats.error("WS move timeout", f"no answer in {REQUEST_TIMEOUT} s")
                return None
        return {"state": self.state}

    async def follow(self, next_id: str) -> None:
        """Go on at the rematch's table."""
        await self.unlisten()
        self.table_id, self.state, self.acted = next_id, None, -1
        self.offers = 0
        if self.seat == 0:
            self.bench.stats.matches += 1
        if not await self.listen():
            await self.resync()

    async def play(self) -> None:
        bench = self.bench
        stall = 1.5 * bench.args.think + 20
        while not bench.over(self.pair):
            self.changed.clear()
            if self.ws is None:
                if self.reconnects >= RECONNECTS + bench.args.seconds:
                    bench.stats.error("WS gave up", f"table {self.table_id} seat {self.seat}")
                    return
                self.reconnects += 1
                if not await self.listen():
                    await bench.pause(1.0, self.pair)
                continue
            state = self.state
            if state is not None and state["status"] == "playing":
                if state["your_turn"] and state["version"] > self.acted and state["legal"]:
                    if not await bench.pause(bench.think_time(), self.pair):
                        return
                    latest = self.state
                    if latest is not None and latest["version"] == state["version"]:
                        await self.move(state)
                    continue
            elif state is not None and state["status"] in OVER:
                next_id = state["table"]["next"]
                if next_id:
                    await self.follow(next_id)
                    continue
                # Seat 0 offers, seat 1 accepts once it sees the offer (both at once:
                # one of the two is refused as stale, see the module's notes).
                mine, theirs = state["table"]["rematch"]
                if not mine and (self.seat == 0 or theirs) and self.offers < REMATCH_TRIES:
                    self.offers += 1
                    answer = await self.request(
                        "POST",
                        f"/api/tables/{self.table_id}/rematch",
                        "POST /api/tables/{id}/rematch",
                    )
                    if answer is None:
                        await self.resync()
                    else:
                        self.take(answer["state"])
                    continue
            left = bench.deadline - time.perf_counter()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, min(stall, left + 0.05)))
            except TimeoutError:
                if not bench.over(self.pair):
                    bench.stats.error("stall", f"table {self.table_id} seat {self.seat}")
                    await self.resync()


async def seat_pair(bench: Bench, pair: Pair, gate: asyncio.Semaphore) -> list[Player] | None:
    """Two guests at a new table, both listening; None (errors counted) if it failed."""
    urls = bench.urls
    async with gate:
        # Made as their table's turn comes, a few at a time, not thousands at once.
        players = [Player(bench, urls[seat % len(urls)], pair, seat) for seat in (0, 1)]
        if not all([await player.begin() for player in players]):
            await abandon(players)
            return None
        # The longest clock: the first tables seated wait for the last before play begins.
        opened = await players[0].request(
            "POST", "/api/tables", "POST /api/tables", {"move_seconds": 120}
        )
        if opened is None:
            await abandon(players)
            return None
        table_id = opened["state"]["id"]
        for player in players:
            player.table_id = table_id
        sat = await players[1].request(
            "POST", f"/api/tables/{table_id}/seat", "POST /api/tables/{id}/seat"
        )
        if sat is None:
            await abandon(players)
            return None
        for player in players:
            if not await player.listen():
                await abandon(players)
                return None
    return players


async def abandon(players: list[Player]) -> None:
    """Let go of a table that could not be set up."""
    for player in players:
        await player.unlisten()
        await player.close()


async def play_easy(bench: Bench, person: Person) -> None:
    """Matches against the easy computer, one after another, at the players' pace."""
    if not await person.begin():
        return
    while not bench.over():
        created = await person.request(
            "POST", "/api/games", "POST /api/games", {"difficulty": "easy"}
        )
        if created is None:
            await bench.pause(1.0)
            continue
        state = created["state"]
        while not state["over"] and state["legal"]:
            if not await bench.pause(bench.think_time()):
                return
            body = {"action": state["legal"][0], "version": state["version"]}
            started = time.perf_counter()
            answer = await person.request(
                "POST", f"/api/games/{state['id']}/actions", "POST /api/games/{id}/actions", body
            )
            if answer is None:
                break
            bench.stats.easy_ms.append((time.perf_counter() - started) * 1000)
            state = answer["state"]


def cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its living descendants (Linux /proc); 0 if gone."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    family, grown = {pid}, True
    while grown:
        more = {child for child, parent in parents.items() if parent in family} - family
        family |= more
        grown = bool(more)
    return sum(times.get(member, 0.0) for member in family)


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def drive(args: argparse.Namespace, urls: list[str], pids: list[int]) -> dict[str, Any]:
    bench = Bench(args, urls)
    stats = bench.stats
    gate = asyncio.Semaphore(SETUP_AT_ONCE)
    setup_began = time.perf_counter()
    pairs = bench.pairs = [Pair(index) for index in range(args.tables)]
    seated = await asyncio.gather(*(seat_pair(bench, pair, gate) for pair in pairs))
    tables = [players for players in seated if players is not None]
    everyone = [player for players in tables for player in players]
    easy = [Person(bench, urls[index % len(urls)]) for index in range(args.easy)]
    setup_s = time.perf_counter() - setup_began
    # The bench's own thousands of connections live to its end, and a full pass of its
    # collector over them stalls every simulated player for up to a few hundred ms,
    # which would be counted as the servers' latency: no collection while it measures.
    gc.collect()
    gc.freeze()
    gc.disable()

    cpu_before = [cpu_seconds(pid) for pid in pids]
    own_before = own_cpu_seconds()
    bench.start = time.perf_counter()
    bench.deadline = bench.start + args.seconds
    tasks = [asyncio.create_task(player.play()) for player in everyone]
    tasks += [asyncio.create_task(play_easy(bench, person)) for person in easy]
    # Every wait inside is bounded; this bounds them all together.
    _, late = await asyncio.wait(tasks, timeout=args.seconds + 2 * REQUEST_TIMEOUT + 30)
    for task in late:
        stats.error("bench timeout", "a player was still busy long after the end")
        task.cancel()
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            stats.error("bench crash", repr(task.exception()))
    window = min(time.perf_counter(), bench.deadline) - bench.start
    gc.enable()
    cpu_after = [cpu_seconds(pid) for pid in pids]
    own_after = own_cpu_seconds()

    # Updates still on their way.
    wanted = [(pair, entry) for pair in pairs for entry in pair.moved]
    grace_end = time.perf_counter() + GRACE
    while time.perf_counter() < grace_end and any(
        (table, version) not in pair.arrivals[other] for pair, (table, version, other, _) in wanted
    ):
        await asyncio.sleep(0.05)

    latencies: list[float] = []
    lost = 0
    for pair, (table, version, other, started) in wanted:
        heard = pair.arrivals[other].get((table, version))
        if heard is None:
            lost += 1
        else:
            latencies.append((heard - started) * 1000)
    for player in everyone:
        await player.unlisten()
    await asyncio.gather(*(person.close() for person in [*everyone, *easy]))

    used = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)]
    own = own_after - own_before
    return {
        "processes": args.processes,
        "over": args.over,
        "tables": args.tables,
        "tables_seated": len(tables),
        "players": 2 * args.tables,
        "easy_players": args.easy,
        "seconds": round(window, 2),
        "setup_s": round(setup_s, 2),
        "think_s": args.think,
        "moves": stats.moves,
        "moves_per_second": round(stats.moves / window, 2) if window > 0 else None,
        "move_latency_ms": summary(latencies, ("p50", 0.5), ("p99", 0.99), ("max", 1.0)),
        "answer_ms": summary(stats.answers_ms, ("p50", 0.5), ("p99", 0.99), ("max", 1.0)),
        "easy_moves": len(stats.easy_ms),
        "easy_move_ms": summary(stats.easy_ms, ("p50", 0.5), ("p99", 0.99), ("max", 1.0)),
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "error_samples": stats.samples,
        "lost_moves": lost,
        "ws_reconnects": sum(player.reconnects for player in everyone),
        "server_timeouts": stats.server_timeouts,
        "matches": stats.matches,
        "server_cpu": {
            "cpu_s": [round(seconds, 2) for seconds in used],
            "cores": round(sum(used) / window, 2) if window > 0 else None,
        },
        "client_cpu": {
            "cpu_s": round(own, 2),
            "cores": round(own / window, 2) if window > 0 else None,
        },
    }


def local_url(url: str, what: str) -> str:
    host = urlsplit(url).hostname
    if host not in LOCAL_HOSTS:
        raise SystemExit(f"{what} must be on this machine (127.0.0.1), not {host!r}")
    return url


@contextlib.contextmanager
def fresh_database(maintenance: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the server of ``maintenance``; its URL.
    Dropped afterwards (the servers are stopped by then)."""
    name = f"koikoi_load_{secrets.token_hex(4)}"
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=10) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        parts = urlsplit(maintenance)
        yield urlunsplit((parts.scheme, parts.netloc, "/" + name, "", ""))
    finally:
        with psycopg.connect(maintenance, autocommit=True, connect_timeout=10) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def koikoi_command() -> str:
    beside = Path(sys.executable).parent / "koikoi"
    found = str(beside) if beside.exists() else shutil.which("koikoi")
    if found is None:
        raise SystemExit("no koikoi command beside this Python nor on PATH (pip install -e .)")
    return found


def raise_open_files(needed: int) -> None:
    """At least ``needed`` open files for this program and the servers it starts."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise SystemExit(f"{needed} open files are needed, but the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    log: Path


@contextlib.contextmanager
def servers(
    count: int, database_url: str, redis_url: str, max_connections: int, folder: Path
) -> Iterator[list[Server]]:
    """``count`` server processes, each on its own socket, ready; stopped afterwards."""
    command = koikoi_command()
    started: list[Server] = []
    try:
        for index in range(count):
            with socket.socket() as sock:
                sock.bind((HOST, 0))
                sock.listen(2048)
                log = folder / f"server-{index}.log"
                with log.open("wb") as out:
                    process = subprocess.Popen(
                        [
                            command,
                            "serve",
                            "--fd",
                            str(sock.fileno()),
                            "--database",
                            database_url,
                            "--redis",
                            redis_url,
                            "--log-level",
                            "warning",
                            "--max-connections",
                            str(max_connections),
                            # Every simulated person comes from this machine's one
                            # address: it is named a proxy (as a deployment of this size
                            # sits behind one), so no per-address share applies.
                            "--forwarded-allow-ips",
                            HOST,
                        ],
                        pass_fds=[sock.fileno()],
                        stdin=subprocess.DEVNULL,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                started.append(Server(process, f"http://{HOST}:{sock.getsockname()[1]}", log))
        for server in started:
            wait_ready(server)
        yield started
    finally:
        for server in started:
            stop(server.process)


def wait_ready(server: Server) -> None:
    with httpx2.Client(base_url=server.url, timeout=2.0, trust_env=False) as client:
        for _ in range(READY_TRIES):
            if server.process.poll() is not None:
                break
            try:
                if client.get("/api/session").status_code == 200:
                    return
            except httpx2.HTTPError:
                pass
            time.sleep(READY_PAUSE)
    tail = server.log.read_text(errors="replace")[-2000:]
    raise SystemExit(f"the server at {server.url} did not start:\n{tail}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then after STOP_SECONDS the whole process group (its thinking pool too)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(STOP_SECONDS)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)


def log_errors(logs: list[Path]) -> dict[str, Any]:
    lines = []
    for log in logs:
        text = log.read_text(errors="replace") if log.exists() else ""
        lines += [
            f"{log.stem}: {line}"
            for line in text.splitlines()
            if "Traceback" in line or "ERROR" in line or "Error" in line
        ]
    return {"count": len(lines), "first": [line[:300] for line in lines[:10]]}


def run(args: argparse.Namespace) -> dict[str, Any]:
    maintenance = local_url(args.postgresql, "--postgresql")
    redis_url = local_url(args.redis, "--redis")
    connections = 4 * (args.tables + args.easy) + 64
    raise_open_files(2 * connections + 1024)
    with tempfile.TemporaryDirectory(prefix="koikoi-load-") as folder:
        logs: list[Path] = []
        with fresh_database(maintenance) as database_url:
            with servers(
                args.processes, database_url, redis_url, connections, Path(folder)
            ) as running:
                logs = [server.log for server in running]
                report = asyncio.run(
                    drive(
                        args,
                        [server.url for server in running],
                        [server.process.pid for server in running],
                    )
                )
            report["server_exit"] = [server.process.returncode for server in running]
        report["server_log_errors"] = log_errors(logs)
    report["load_average"] = list(os.getloadavg())
    return report


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(__doc__ or "").split("\n\n", 1)[1],
    )
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--tables", type=int, default=20, help="tables (two people each)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the play window")
    parser.add_argument(
        "--moves", type=int, default=0, help="stop a table after this many moves (0: no limit)"
    )
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--easy", type=int, default=4, help="people playing the easy computer")
    parser.add_argument("--seed", type=int, default=1, help="the think times' random seed")
    parser.add_argument(
        "--over",
        choices=("ws", "http"),
        default="ws",
        help="how table moves go: the WebSocket (as in the browser) or HTTP POST",
    )
    parser.add_argument(
        "--postgresql",
        metavar="URL",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="the maintenance database, where the run's own database is created",
    )
    parser.add_argument("--redis", metavar="URL", default="redis://127.0.0.1:6379/15")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.easy < 0 or args.seconds <= 0 or args.think < 0:
        parser.error("--tables must be at least 1, --seconds above 0, --easy and --think >= 0")
    return args


def main(argv: list[str] | None = None) -> None:
    print(json.dumps(run(arguments(argv))))


if __name__ == "__main__":
    main()
