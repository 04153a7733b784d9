// The perft vectors of docs/perft.jsonl, counted by the browser's engine (docs/perft.md):
//
//   node --test tests/js/perft.test.mjs
//
// Each vector is a position (a given-deal record and the actions that lead to it), a
// depth and the number of action sequences of that depth the Python engine counts
// there; this engine must count the same. The engine is imported from
// src/koikoi/web/engine/, or from the folder KOIKOI_JS_ENGINE names (tests/test_perft.py
// points it at a copy with one rule broken, to show that these tests notice).
//
// When a count differs, the test names the first divergent path: it descends from the
// position along the first action whose count differs from the Python engine's (or that
// one engine has and the other lacks), down to the depth-1 level. The Python engine's
// counts come from spawning `python -m koikoi perft RECORD --depth N --divide --json`
// at each level, with the Python that KOIKOI_PYTHON names, else `python3`; where that
// cannot run, the failure shows this engine's divide alone.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const ENGINE_DIR = path.resolve(process.env.KOIKOI_JS_ENGINE || path.join(ROOT, "src/koikoi/web/engine"));
const VECTORS = path.join(ROOT, "docs/perft.jsonl");
const PYTHON = process.env.KOIKOI_PYTHON || "python3";

const load = (name) => import(pathToFileURL(path.join(ENGINE_DIR, name)).href);
const { recordFromBytes, replay } = await load("record.js");
const { perft, divide, run } = await load("perft.js");
const { jsonDumps } = await load("pytext.js");

const vectors = fs
  .readFileSync(VECTORS, "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line));

/** The position a record (plain JSON data) stands at, read as a record file is read. */
function position(record) {
  return replay(recordFromBytes("vector.json", Buffer.from(JSON.stringify(record), "utf8"))).round.copy();
}

/** This engine's count and divide (a Map) at a record's position. */
function jsCounts(record, depth) {
  return run(position(record), depth, true);
}

/** The Python engine's, from `python -m koikoi perft --divide --json`. */
function pythonCounts(record, depth, folder) {
  const file = path.join(folder, "position.json");
  fs.writeFileSync(file, JSON.stringify(record));
  const done = spawnSync(PYTHON, ["-m", "koikoi", "perft", file, "--depth", String(depth), "--divide", "--json"], {
    encoding: "utf8",
    cwd: ROOT,
  });
  if (done.error) throw new Error(`cannot run ${PYTHON}: ${done.error.message}`);
  if (done.status !== 0) throw new Error(`${PYTHON} -m koikoi perft failed: ${done.stderr.trim()}`);
  const output = JSON.parse(done.stdout);
  return { count: output.count, divide: new Map(Object.entries(output.divide)) };
}

/**
 * The first divergent path below a record's position, as koikoi.perftvectors.first_divergence
 * finds it: lines naming each action (record form) and both engines' counts under it.
 */
function descend(record, depth) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "koikoi-perft-"));
  try {
    const actions = [...(record.actions ?? [])];
    const lines = [];
    for (let level = depth; level >= 1; level--) {
      const here = { ...record, actions };
      const js = jsCounts(here, level);
      const python = pythonCounts(here, level, folder);
      const keys = [...js.divide.keys(), ...[...python.divide.keys()].filter((key) => !js.divide.has(key))];
      const key = keys.find((k) => js.divide.get(k) !== python.divide.get(k));
      if (key === undefined) {
        if (!lines.length) lines.push("  (none: both divide alike; the totals alone differ)");
        break;
      }
      const shown = (n) => (n === undefined ? "no such action" : String(n));
      lines.push(`  ${lines.length + 1}. ${key}: js ${shown(js.divide.get(key))}, python ${shown(python.divide.get(key))}`);
      if (!js.divide.has(key) || !python.divide.has(key)) break;
      actions.push(JSON.parse(key));
    }
    return `the first divergent path (js against python):\n${lines.join("\n")}`;
  } catch (error) {
    return `(no descent: ${error.message})`;
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

test("the vector file is there and has vectors", () => {
  assert.ok(vectors.length >= 20, `${vectors.length} vectors in ${VECTORS}`);
  for (const vector of vectors) assert.deepEqual(Object.keys(vector).sort(), ["count", "depth", "name", "record"]);
});

test("perft of depth 0 is one sequence, and divide adds up to perft", () => {
  const game = position(vectors[0].record);
  assert.equal(perft(game, 0), 1);
  assert.equal(divide(game, 0).size, 0);
  const counts = divide(game, 2);
  assert.equal([...counts.values()].reduce((a, b) => a + b, 0), perft(game, 2));
  assert.equal(counts.size, game.legalActions().length);
  assert.throws(() => perft(game, -1), RangeError);
});

for (const vector of vectors) {
  test(`perft vector ${vector.name}`, () => {
    const result = jsCounts(vector.record, vector.depth);
    if (result.count !== vector.count) {
      const message = [
        `${vector.name}: js counts ${result.count} sequences of ${vector.depth} actions, the file ${vector.count}`,
        `js's divide: ${jsonDumps(result.divide)}`,
        descend(vector.record, vector.depth),
      ].join("\n");
      assert.fail(message);
    }
  });
}
