#!/usr/bin/env node
// @ts-check
// The browser's coach (coach.js) as a program, so that it can be held to koikoi.coach:
//
//   node coach-cli.mjs < lines
//
// Each input line is one JSON request, answered by one JSON line in the same order:
//   {"op": "advice", "observation": OBS, "seed": N, "rollouts": N}  coach.advice
//   {"op": "risk", "observation": OBS, "seed": N, "samples": N}     coach.risk().to_json()
//   {"op": "review", "record": RECORD, "seat": 0, "rollouts": N}    coach.review_json
// OBS is an observation in the engine protocol's JSON form (observation_to_json), RECORD
// a record as koikoi writes it (docs/rules.md §7); a missing budget is the coach's default.
// A request that cannot be answered gets {"error": message}.

import readline from "node:readline";
import { HINT_ROLLOUTS, REVIEW_ROLLOUTS, RISK_WORLDS, advice, reviewJson, risk, riskToJson } from "../engine/coach.js";
import { ObservationError, observationFromJson } from "../engine/players-observation.js";
import { Record, RecordError } from "../engine/record.js";

/**
 * @param {{op?: unknown, observation?: unknown, seed: import("../engine/random.js").Seed, rollouts?: number, samples?: number, record?: unknown, seat?: number}} request
 */
function answer(request) {
  const { op } = request;
  if (op === "advice") return advice(observationFromJson(request.observation), request.seed, request.rollouts ?? HINT_ROLLOUTS);
  if (op === "risk") return riskToJson(risk(observationFromJson(request.observation), request.seed, request.samples ?? RISK_WORLDS));
  if (op === "review") return reviewJson(Record.fromJson(request.record), request.seat ?? 0, request.rollouts ?? REVIEW_ROLLOUTS);
  throw new RangeError(`unknown op ${JSON.stringify(op)} (advice, risk, review)`);
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of input) {
  if (!line.trim()) continue;
  let out;
  try {
    out = answer(JSON.parse(line));
  } catch (error) {
    if (!(error instanceof SyntaxError || error instanceof RangeError || error instanceof ObservationError || error instanceof RecordError)) throw error;
    out = { error: error.message };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
