// @ts-check
// The practice-match worker: a module Web Worker that deals, plays the computer's moves
// and scores on the device, so thinking never blocks the page. Each message is one
// request ({key, op, ...}, see localgame.handle); the answer is {key, body, record} or
// {key, error: {status, detail}}, the body in exactly the server API's JSON shapes.

import { LocalError, handle } from "./localgame.js";

self.addEventListener("message", (event) => {
  const { key, ...message } = event.data || {};
  let answer;
  try {
    answer = { key, ...handle(message) };
  } catch (error) {
    const status = error instanceof LocalError ? error.status : 500;
    const text = error !== null && typeof error === "object" && "message" in error ? error.message : undefined;
    answer = { key, error: { status, detail: String(text ? text : error) } };
  }
  self.postMessage(answer);
});
