// The coach's pure parts (coach.py's doctests): which moves of the win chance a review
// calls its biggest swings.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { coach } from "./helpers.mjs";

describe("swings", () => {
  test("the biggest moves, in order, none under a point", () => {
    assert.deepEqual(coach.swings([0.5, 0.8, 0.8, 0.804, 0.3, 0.35]), [1, 4, 5]);
    assert.deepEqual(coach.swings([0.5, 0.5, 0.503]), []);
    assert.deepEqual(coach.swings([0.4]), []);
  });

  test("at most SWINGS of them", () => {
    const chances = [0, 0.1, 0.3, 0.6, 1, 0.5];
    assert.equal(coach.swings(chances).length, coach.SWINGS);
    assert.deepEqual(coach.swings(chances), [3, 4, 5]);
  });
});
