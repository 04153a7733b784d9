// @ts-check
// Perft: the action sequences from a position, counted as chess engines count moves
// (docs/perft.md, perft.py).
//
// perft(round, depth) is the number of sequences of ``depth`` actions that can be
// played from a round. A round that ends before ``depth`` actions counts as one
// sequence, cut short: so a count sees every ending (an engine that misses the end of a
// round, or ends one too soon, counts differently). divide() gives the count under each
// legal first action, keyed by the action in record form as Python's json.dumps writes
// it ('{"play": "pine-crane"}'), in the order of legalActions(). docs/perft.jsonl holds
// positions with their counts that this engine and the Python one must both reproduce.
//
// Plain functions over Round's public face (copy, legalActions, apply, isOver): safe in
// the browser and under Node.js alike.

import { actionToJson } from "./round.js";
import { jsonDumps } from "./pytext.js";

/**
 * The part of a Round that perft uses.
 * @typedef {object} PerftRound
 * @property {boolean} isOver
 * @property {() => PerftRound} copy
 * @property {() => number[]} legalActions
 * @property {(action: number) => void} apply
 */

/**
 * An action as a divide key: its record form as JSON text, exactly as perft.py's
 * action_key (json.dumps) writes it.
 * @param {number} action
 * @returns {string}
 */
export function actionKey(action) {
  return jsonDumps(actionToJson(action));
}

/**
 * @param {number} depth
 * @returns {void}
 */
function checkDepth(depth) {
  if (!(Number.isInteger(depth) && depth >= 0)) throw new RangeError(`depth must be 0 or more, not ${depth}`);
}

/**
 * The number of sequences of ``depth`` actions from ``game`` (which is unchanged). A
 * round that ends before ``depth`` actions counts as one sequence, the actions up to its
 * end; a round already over, or depth 0, is one sequence (of no actions).
 * @param {PerftRound} game
 * @param {number} depth
 * @returns {number}
 */
export function perft(game, depth) {
  checkDepth(depth);
  return count(game, depth);
}

/**
 * perft without the check of its depth, for the recursion.
 * @param {PerftRound} game
 * @param {number} depth
 * @returns {number}
 */
function count(game, depth) {
  if (depth === 0 || game.isOver) return 1;
  const actions = game.legalActions();
  // Each action is one sequence, whether or not it ends the round.
  if (depth === 1) return actions.length;
  let total = 0;
  for (const action of actions) {
    const child = game.copy();
    child.apply(action);
    total += count(child, depth - 1);
  }
  return total;
}

/**
 * The perft count under each legal first action (actionKey its key), in the order of
 * legalActions(); empty at depth 0 or once the round is over (their count is 1, the
 * empty sequence). Otherwise the counts add up to perft(game, depth).
 * @param {PerftRound} game
 * @param {number} depth
 * @returns {Map<string, number>}
 */
export function divide(game, depth) {
  checkDepth(depth);
  /** @type {Map<string, number>} */
  const counts = new Map();
  if (depth === 0 || game.isOver) return counts;
  for (const action of game.legalActions()) {
    const child = game.copy();
    child.apply(action);
    counts.set(actionKey(action), count(child, depth - 1));
  }
  return counts;
}

/**
 * A position's count and its divide (empty unless asked for), as perft.py's run().
 * @param {PerftRound} game
 * @param {number} depth
 * @param {boolean} [withDivide]
 * @returns {{count: number, divide: Map<string, number>}}
 */
export function run(game, depth, withDivide = true) {
  if (!withDivide) return { count: perft(game, depth), divide: new Map() };
  const counts = divide(game, depth);
  let total = 0;
  for (const n of counts.values()) total += n;
  return { count: counts.size ? total : 1, divide: counts };
}
