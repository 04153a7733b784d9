#!/usr/bin/env node
// @ts-check
// The browser's computer players as a program that speaks the engine protocol (README,
// "The engine protocol: players in other processes"): `js:LEVEL` in koikoi tournament
// and koikoi simulate runs this.
//
//   node player-cli.mjs LEVEL [--rollouts N] [--budget-ms N]
//
// LEVEL is random, greedy, easy, normal or expert; --rollouts (default 2000) and
// --budget-ms (a wall-clock cap per decision) are the expert's. It reads one JSON object
// a line on standard input: "start" gives its seed, each "observation" is answered with
// one action line in record form, "end" (or the end of the input) ends it with status 0.
// Anything it cannot read or play from ends it with a message on standard error and
// status 2 (the referee then scores a forfeit and shows the message).

import { JSONDecodeError, NestingError, TooManyDigitsError, loads } from "../engine/pyjson.js";
import { ObservationError, observationFromJson } from "../engine/players-observation.js";
import { PLAYERS, makePlayer } from "../engine/players.js";
import { actionToJson } from "../engine/round.js";
import { dictItems, isDict, isInt, shortRepr } from "../engine/pytext.js";
import readline from "node:readline";
import { writeSync } from "node:fs";

const PROTOCOL = 1;
const USAGE = "usage: node player-cli.mjs LEVEL [--rollouts N] [--budget-ms N]";

/**
 * @param {string} message
 * @returns {never}
 */
function die(message) {
  try {
    writeSync(2, `player-cli: ${message}\n`);
  } catch {
    // standard error is gone too: the status still says it
  }
  process.exit(2);
}

/**
 * {level, options} from the command line (null: --help), or a usage error (RangeError).
 * @param {readonly string[]} argv
 * @returns {{level: string, options: import("../engine/players-expert.js").ExpertOptions} | null}
 */
function parseArguments(argv) {
  /** @type {string | null} */
  let level = null;
  /** @type {{rollouts?: number, budgetMs?: number}} */
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value = null;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === "--rollouts" || arg === "--budget-ms") {
      if (value === null) value = argv[++i];
      if (value === undefined) throw new RangeError(`${arg} needs a number`);
      if (arg === "--rollouts") {
        if (!/^[0-9]{1,15}$/.test(value) || Number(value) < 1) throw new RangeError(`--rollouts takes a whole number >= 1, not ${JSON.stringify(value)}`);
        options.rollouts = Number(value);
      } else {
        if (!/^[0-9]{1,15}(\.[0-9]{1,15})?$/.test(value)) throw new RangeError(`--budget-ms takes a number of milliseconds, not ${JSON.stringify(value)}`);
        options.budgetMs = Number(value);
      }
    } else if (arg === "-h" || arg === "--help") {
      return null;
    } else if (arg.startsWith("-")) {
      throw new RangeError(`unknown option ${JSON.stringify(argv[i])}`);
    } else if (level === null) {
      level = arg;
    } else {
      throw new RangeError(`unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  if (level === null) throw new RangeError(`a LEVEL is needed (${Object.keys(PLAYERS).join(", ")})`);
  if (!Object.hasOwn(PLAYERS, level)) throw new RangeError(`unknown level ${JSON.stringify(level)}; levels: ${Object.keys(PLAYERS).join(", ")}`);
  if (level !== "expert" && Object.keys(options).length) throw new RangeError("--rollouts and --budget-ms are the expert's options");
  return { level, options };
}

/** @param {import("../engine/pytext.js").Dict} message */
function typeOf(message) {
  for (const [key, value] of dictItems(message)) if (key === "type") return value;
  return undefined;
}

/**
 * @param {import("../engine/pytext.js").Dict} message
 * @param {string} key
 */
function valueOf(message, key) {
  for (const [k, value] of dictItems(message)) if (k === key) return value;
  return undefined;
}

/**
 * Play one seat: answer every observation until "end" or the end of the input.
 * @param {string} level
 * @param {import("../engine/players-expert.js").ExpertOptions} options
 */
async function serve(level, options) {
  /** @type {import("../engine/players.js").Player | null} */
  let player = null;
  let lineNumber = 0;
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of input) {
    lineNumber += 1;
    if (!line.trim()) continue;
    const where = `input line ${lineNumber}`;
    let message;
    try {
      message = loads(line);
    } catch (error) {
      if (error instanceof JSONDecodeError || error instanceof NestingError || error instanceof TooManyDigitsError) {
        die(`${where}: not JSON (${error.message || "an integer of too many digits"})`);
      }
      throw error;
    }
    if (!isDict(message)) die(`${where}: a message is a JSON object, not ${shortRepr(message)}`);
    const type = typeOf(message);
    if (type === "start") {
      if (player !== null) die(`${where}: a second "start"; one program plays one game`);
      const protocol = valueOf(message, "protocol");
      if (protocol !== PROTOCOL) die(`${where}: protocol ${shortRepr(protocol)}; this program speaks protocol ${PROTOCOL}`);
      const seed = valueOf(message, "seed");
      if (!isInt(seed)) die(`${where}: "seed" must be an integer, not ${shortRepr(seed)}`);
      player = makePlayer(level, seed, options);
    } else if (type === "observation") {
      if (player === null) die(`${where}: an observation before "start"`);
      let obs;
      try {
        obs = observationFromJson(message);
      } catch (error) {
        if (error instanceof ObservationError) die(`${where}: ${error.message}`);
        throw error;
      }
      const action = player.choose(obs);
      process.stdout.write(JSON.stringify(actionToJson(action)) + "\n");
    } else if (type === "end") {
      break;
    } else {
      die(`${where}: unknown message type ${shortRepr(type)} (start, observation, end)`);
    }
  }
  input.close();
  process.exitCode = 0;
}

/** @param {readonly string[]} argv */
function main(argv) {
  let parsed;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    if (error instanceof RangeError) die(`${error.message}\n${USAGE}`);
    throw error;
  }
  if (parsed === null) {
    process.stdout.write(`${USAGE}\nlevels: ${Object.keys(PLAYERS).join(", ")}\n`);
    return;
  }
  process.stdout.on("error", (error) => die(`cannot write the answer: ${error.message}`));
  serve(parsed.level, parsed.options).catch((error) => die(`internal error: ${(error && error.stack) || error}`));
}

main(process.argv.slice(2));
