// @ts-check
// The parts of Python's random.Random the computer players use, on top of random.js's
// generator (which ports the Mersenne Twister, seeding, random(), getrandbits() and
// randrange()), so that a seed gives the players exactly the draws it gives them in
// Python (CPython 3.11's random.py, from which each function below is taken).

import { PyRandom, seedWords } from "./random.js";

/** @typedef {import("./random.js").Seed} Seed */

/**
 * A generator from a seed (a number or a BigInt), or the shared one given.
 * @param {Seed | PyRandom} seed
 * @returns {PyRandom}
 */
export function generator(seed) {
  return seed instanceof PyRandom ? seed : new PyRandom(seed);
}

/**
 * ``rng.choice(seq)``: seq[_randbelow(len(seq))].
 * @template T
 * @param {PyRandom} rng
 * @param {readonly T[]} seq
 * @returns {T}
 */
export function choice(rng, seq) {
  if (!seq.length) throw new RangeError("Cannot choose from an empty sequence");
  return seq[rng.randbelow(seq.length)];
}

/**
 * ``rng.shuffle(x)`` in place: from the end, swap each item with one at or before it.
 * @param {PyRandom} rng
 * @param {unknown[]} x
 */
export function shuffle(rng, x) {
  for (let i = x.length - 1; i > 0; i--) {
    const j = rng.randbelow(i + 1);
    const item = x[i];
    x[i] = x[j];
    x[j] = item;
  }
}

/**
 * Make ``target`` continue exactly as ``source`` would (a cheap random.Random(seed)
 * for the second and later times one seed is needed).
 * @param {PyRandom} source
 * @param {PyRandom} target
 * @returns {PyRandom} target
 */
export function copyState(source, target) {
  target.mt.set(source.mt);
  target.index = source.index;
  return target;
}

/**
 * ``random.Random(seed)`` made again in ``rng`` (no new state is allocated), with its
 * first block of outputs already generated: every copy taken of it (copyState) then
 * starts drawing at once, instead of each regenerating the same block. The outputs are
 * those of a fresh random.Random(seed).
 * @param {PyRandom} rng
 * @param {Seed} seed
 * @returns {PyRandom} rng
 */
export function reseed(rng, seed) {
  rng._seedByArray(seedWords(seed));
  rng._twist();
  return rng;
}
