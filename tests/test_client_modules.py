"""The browser client's modules (src/koikoi/web, no build step): how they import each other.

Every module's static ``import ... from "..."`` and ``export ... from "..."``, its bare
``import "..."``, its dynamic ``import("...")`` and the ``new URL("...", import.meta.url)``
it hands a worker are read from its source and resolved as a browser (or Node.js)
resolves them. The client's modules must then:

- import only files that exist (a browser that misses one loads no module at all);
- import no module that imports them back, directly or through others (a cycle: one
  of its modules runs before another it uses has finished loading);
- if the browser loads them (anything under web/ except web/node/, the Node.js
  programs the service worker never caches), import nothing from web/node/, no
  ``node:`` module and no bare package name (no import map resolves one).

The checks run on a folder (``problems``), so the tests below also show them failing
on small made-up clients.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest

from koikoi.jsengine import WEB

SUFFIXES = (".js", ".mjs")
NODE_ONLY = "node"
"""The folder of web/ whose programs run only under Node.js."""
STATIC_PREFIX = "/static/"
BROWSER = "a module the browser loads"
"""Where the server serves web/ (an absolute specifier names a file there)."""

# Static imports and re-exports stand at the top level of a module, so at the start of
# a line; their clause may span lines ({ a,\n b }) but holds no quote or semicolon.
STATIC = re.compile(
    r"""^[ \t]*(?:import|export)\b(?:[^;"'`]*?\bfrom)?\s*(["'])(?P<spec>[^"'\n]+)\1""",
    re.MULTILINE,
)
DYNAMIC = re.compile(r"""\bimport\s*\(\s*(?P<arg>[^)]*?)\s*\)""")
LITERAL = re.compile(r"""^(["'`])(?P<spec>[^"'`$\n]+)\1$""")
WORKER_URL = re.compile(
    r"""\bnew\s+URL\(\s*(["'])(?P<spec>[^"'\n]+)\1\s*,\s*import\.meta\.url\s*\)"""
)
COMMENT_LINE = re.compile(r"^\s*(?://|/?\*)")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, relative to the client's folder
    spec: str  # as written
    line: int
    edge: bool  # part of the module's own graph (a worker's entry starts another)


def client_modules(web: Path) -> list[Path]:
    return sorted(p for p in web.rglob("*") if p.is_file() and p.suffix in SUFFIXES)


def name(web: Path, path: Path) -> str:
    return path.relative_to(web).as_posix()


def imports(web: Path, path: Path) -> tuple[list[Import], list[str]]:
    """What a module imports, and what could not be read (a computed specifier)."""
    text = path.read_text(encoding="utf-8")
    module = name(web, path)
    found: list[Import] = []
    unreadable: list[str] = []

    def line_of(offset: int) -> int:
        return text.count("\n", 0, offset) + 1

    def in_comment(offset: int) -> bool:
        start = text.rfind("\n", 0, offset) + 1
        return bool(COMMENT_LINE.match(text[start:offset])) or "//" in text[start:offset]

    found.extend(
        Import(module, match["spec"], line_of(match.start("spec")), edge=True)
        for match in STATIC.finditer(text)
    )
    for match in DYNAMIC.finditer(text):
        if in_comment(match.start()):
            continue
        literal = LITERAL.match(match["arg"])
        if literal is None:
            where = f"{module}:{line_of(match.start())}"
            unreadable.append(f"{where}: import({match['arg']}) names no fixed file")
        else:
            found.append(Import(module, literal["spec"], line_of(match.start()), edge=True))
    found.extend(
        Import(module, match["spec"], line_of(match.start()), edge=False)
        for match in WORKER_URL.finditer(text)
        if not in_comment(match.start())
    )
    return found, unreadable


def resolve(web: Path, importer: Path, spec: str) -> Path | None:
    """The file a relative or /static/ specifier names (None: a bare or node: one)."""
    if spec.startswith(("./", "../")):
        return Path(importer.parent, *PurePosixPath(spec).parts).resolve()
    if spec.startswith(STATIC_PREFIX):
        return Path(web, *PurePosixPath(spec[len(STATIC_PREFIX) :]).parts).resolve()
    return None


def in_browser(web: Path, path: Path) -> bool:
    return name(web, path).split("/")[0] != NODE_ONLY


def cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """One cycle through each group of modules that import each other (Tarjan's strongly
    connected components), as the path that goes round it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:  # recursion: the client has a few dozen modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, []):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, []):
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)

    found = []
    for group in groups:
        members = set(group)
        start = min(group)
        # The shortest way from start back to itself, within the group.
        paths = {start: [start]}
        queue = [start]
        path = None
        while queue and path is None:
            node = queue.pop(0)
            for nxt in sorted(graph.get(node, [])):
                if nxt == start:
                    path = [*paths[node], start]
                    break
                if nxt in members and nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    queue.append(nxt)
        assert path is not None
        found.append(path)
    return sorted(found)


def problems(web: Path) -> list[str]:
    """Everything wrong with how the client's modules in ``web`` import each other."""
    found: list[str] = []
    graph: dict[str, list[str]] = {}
    for path in client_modules(web):
        module = name(web, path)
        graph.setdefault(module, [])
        listed, unreadable = imports(web, path)
        found.extend(unreadable)
        for item in listed:
            where = f"{module}:{item.line}: {item.spec!r}"
            target = resolve(web, path, item.spec)
            if in_browser(web, path):
                if item.spec.startswith("node:"):
                    found.append(f"{where}: {BROWSER} imports a Node.js module")
                    continue
                if target is None:
                    found.append(f"{where}: a bare specifier, which no browser resolves")
                    continue
                if target.is_relative_to(web.resolve() / NODE_ONLY):
                    found.append(f"{where}: {BROWSER} imports from web/{NODE_ONLY}/ (Node.js only)")
            if target is None:
                continue  # a Node.js program's node: or package import
            if not target.is_file():
                found.append(f"{where}: no such file")
                continue
            if not target.is_relative_to(web.resolve()):
                found.append(f"{where}: outside the client's folder")
                continue
            if item.edge:
                graph[module].append(name(web.resolve(), target))
    found.extend("an import cycle: " + " -> ".join(cycle) for cycle in cycles(graph))
    return found


def page_modules(web: Path, entry: str = "app.js") -> set[str]:
    """The modules a page that loads ``entry`` fetches before it runs: what ``entry``
    imports statically, directly or through others (relative to the client's folder)."""
    seen: set[str] = set()
    todo = [(web / entry).resolve()]
    while todo:
        path = todo.pop()
        module = name(web.resolve(), path)
        if module in seen:
            continue
        seen.add(module)
        text = path.read_text(encoding="utf-8")
        for match in STATIC.finditer(text):
            target = resolve(web, path, match["spec"])
            if target is not None and target.is_file():
                todo.append(target)
    return seen


# -- the client ----------------------------------------------------------------------------


def test_the_client_has_modules_to_check() -> None:
    names = {name(WEB, path) for path in client_modules(WEB)}
    assert {"app.js", "api.js", "practice.js", "engine/yaku.js", "engine/worker.js"} <= names
    listed, _ = imports(WEB, WEB / "app.js")
    assert listed, "no import read from app.js"


def test_client_modules_import_existing_files_without_cycles() -> None:
    assert problems(WEB) == []


def test_the_page_loads_every_client_module_and_the_engine_s_it_takes_rules_from() -> None:
    loaded = page_modules(WEB)
    client = {path.name for path in WEB.glob("*.js")}
    assert client <= loaded  # none left over, unused
    # The rules facts (the yaku's order, the koi-koi bonus, a round's gains) are the
    # engine's, from its leaf module alone: the page does not load the whole engine.
    assert {module for module in loaded if module.startswith("engine/")} == {"engine/points.js"}
    assert not any(module.startswith(f"{NODE_ONLY}/") for module in loaded)


def test_index_html_loads_an_existing_module() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    sources = re.findall(r"""<script[^>]*type=["']module["'][^>]*src=["']([^"']+)["']""", html)
    assert sources
    for source in sources:
        target = resolve(WEB, WEB / "index.html", source)
        assert target is not None, source
        assert target.is_file(), source


# -- the checks themselves, on made-up clients ------------------------------------------------


def write(web: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = web / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return web


def test_a_cycle_is_named(tmp_path: Path) -> None:
    # The shape the client had: api.js and practice.js imported each other, and app.js both.
    web = write(
        tmp_path,
        {
            "app.js": 'import { api } from "./api.js";\nimport { p } from "./practice.js";\n',
            "api.js": 'import { isPractice, p } from "./practice.js";\nexport const api = {};\n',
            "practice.js": '// api.js calls here\nimport { ApiError } from "./api.js";\n',
        },
    )
    assert problems(web) == ["an import cycle: api.js -> practice.js -> api.js"]


def test_a_longer_cycle_through_a_multiline_import_and_a_dynamic_one(tmp_path: Path) -> None:
    web = write(
        tmp_path,
        {
            "a.js": 'import {\n  one,\n  two,\n} from "./b.js";\n',
            "b.js": 'export { three } from "./engine/c.js";\n',
            "engine/c.js": 'export const three = () => import("../a.js");\n',
            "d.js": 'import "./a.js";\n',
        },
    )
    assert problems(web) == ["an import cycle: a.js -> b.js -> engine/c.js -> a.js"]


def test_a_module_importing_itself_is_a_cycle(tmp_path: Path) -> None:
    web = write(tmp_path, {"a.js": 'import { a } from "/static/a.js";\nexport const a = 1;\n'})
    assert problems(web) == ["an import cycle: a.js -> a.js"]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    web = write(
        tmp_path,
        {
            "app.js": 'import { gone } from "./gone.js";\n',
            "practice.js": 'new Worker(new URL("./engine/worker.js", import.meta.url));\n',
        },
    )
    assert problems(web) == [
        "app.js:1: './gone.js': no such file",
        "practice.js:1: './engine/worker.js': no such file",
    ]


def test_the_browser_never_imports_node_programs(tmp_path: Path) -> None:
    web = write(
        tmp_path,
        {
            "app.js": 'import { text } from "./node/replaytext.js";\n',
            "engine/record.js": 'import fs from "node:fs";\n',
            "engine/round.js": 'import lodash from "lodash";\n',
            # A Node.js program may import Node.js modules and the engine.
            "node/replaytext.js": (
                'import fs from "node:fs";\nimport { r } from "../engine/record.js";\n'
                "export const text = 1;\n"
            ),
        },
    )
    assert problems(web) == [
        f"app.js:1: './node/replaytext.js': {BROWSER} imports from web/node/ (Node.js only)",
        f"engine/record.js:1: 'node:fs': {BROWSER} imports a Node.js module",
        "engine/round.js:1: 'lodash': a bare specifier, which no browser resolves",
    ]


def test_comments_and_strings_that_mention_imports_are_not_imports(tmp_path: Path) -> None:
    web = write(
        tmp_path,
        {
            "a.js": (
                '// import { x } from "./gone.js";\n'
                '/**\n * import("./gone.js") in a comment\n */\n'
                "const note = 'exported from here';\n"
                'export const load = (id) => fetch(id); // import("./gone.js")\n'
            ),
        },
    )
    assert problems(web) == []


def test_a_computed_dynamic_import_cannot_be_checked(tmp_path: Path) -> None:
    web = write(tmp_path, {"a.js": "export const load = (name) => import(`./${name}.js`);\n"})
    assert problems(web) == ["a.js:1: import(`./${name}.js`) names no fixed file"]


@pytest.mark.parametrize("spec", ["./b.js", "/static/b.js"])
def test_both_ways_of_naming_a_file_resolve(tmp_path: Path, spec: str) -> None:
    files = {"a.js": f'import {{ b }} from "{spec}";\n', "b.js": "export const b = 1;\n"}
    web = write(tmp_path, files)
    assert problems(web) == []
