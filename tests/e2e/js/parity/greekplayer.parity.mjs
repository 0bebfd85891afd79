// The computer's decisions offline in a Tavli match (Portes, Plakoto, Fevga in turn) = the server's
// computer's, at Mediu and Greu, and Greu's hints = the server's (tests/e2e/test_greek_bot_parity.py),
// each game judged with its own networks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalGame } from "../../../../src/table/web/js/engine/match.js";
import { makeJudge } from "../../../../src/table/web/js/engine/search.js";
import { computerAction } from "../../../../src/table/web/js/engine/player.js";
import { hintFor } from "../../../../src/table/web/js/engine/hint.js";
import { networkFile } from "../../../../src/table/web/js/engine/variants.js";
import { readFileSync } from "node:fs";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const WEB = new URL("../../../../src/table/web/bot/", import.meta.url);

const db = pythonBearoff();
const judges = new Map(); // one per variant, as the worker keeps them
const judgeFor = (variant) => {
  if (!judges.has(variant.name)) judges.set(variant.name, makeJudge(weights({}, networkFile(variant)), db, variant.checkers, variant));
  return judges.get(variant.name);
};

test("a match against the computer is allowed in every Greek game and the Tavli match", () => {
  for (const variant of ["plakoto", "fevga", "portes", "tavli"]) {
    const game = new LocalGame({ mode: "computer", length: 3, cube: false, variant });
    assert.equal(game.config.mode, "computer");
  }
});

// Numbers within 1e-5 (single-precision networks), everything else equal.
function close(got, want, where, wrong) {
  if (typeof want === "number") {
    if (!(Math.abs(got - want) < 1e-5)) wrong.push(`${where}: ${got} vs ${want}`);
  } else if (want && typeof want === "object") {
    for (const k of new Set([...Object.keys(want), ...Object.keys(got || {})])) close((got || {})[k], want[k], `${where}.${k}`, wrong);
  } else if (got !== want) wrong.push(`${where}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
}

// Of each game, the first play asked at Mediu: [state, the server's answer], for the worker's test.
const firstPlays = new Map();

test("every decision asked of the computer gets the server's answer, and Greu's hints", () => {
  const wrong = [];
  let seen = 0;
  fixture.matches.forEach((m, i) => {
    let k = 0;
    const game = new LocalGame(m.config, { rollDie: () => m.faces[k++] });
    const asked = fixture.asked.filter((a) => a.match === i);
    m.steps.forEach((st, n) => {
      for (const a of asked.filter((q) => q.step === n)) {
        seen += 1;
        assert.equal(game.state.variant.name, a.variant);
        const got = computerAction(judgeFor(game.state.variant), a.level, game.state);
        if (a.level === "medium" && a.want.type === "move" && !firstPlays.has(a.variant)) firstPlays.set(a.variant, [game.state, a.want]);
        if (JSON.stringify(got) !== JSON.stringify(a.want)) wrong.push(`match ${i} step ${n} ${a.variant} ${a.level}: ${JSON.stringify(got)} vs ${JSON.stringify(a.want)}`);
      }
      for (const h of fixture.hints.filter((q) => q.match === i && q.step === n)) {
        seen += 1;
        close(hintFor(judgeFor(game.state.variant), game.state), h.want, `match ${i} step ${n} ${game.state.variant.name} hint`, wrong);
      }
      if (st.seats === null) game.applyAutomatic(st.action); else game.act(st.seats, st.action);
    });
  });
  assert.equal(seen, fixture.asked.length + fixture.hints.length);
  assert.deepEqual(wrong, []);
});

test("the page's worker loads each game's own networks and answers as the server", async () => {
  // worker.js as the browser runs it: its networks fetched from /static/bot/, its messages posted.
  const posted = [];
  globalThis.self = { postMessage: (msg) => posted.push(msg) };
  const fetched = [];
  globalThis.fetch = async (url) => {
    fetched.push(url);
    const file = readFileSync(new URL(url.replace("/static/bot/", ""), WEB));
    return { json: async () => JSON.parse(file.toString("utf8")),
      arrayBuffer: async () => file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) };
  };
  await import("../../../../src/table/web/js/engine/worker.js");
  assert.deepEqual([...firstPlays.keys()].sort(), ["fevga", "plakoto", "portes"]);
  let id = 0;
  for (const [state, want] of firstPlays.values()) {
    // The page posts a copy of the state: its variant travels as data and is found again by name.
    await globalThis.self.onmessage({ data: { type: "think", id: ++id, level: "medium", state: structuredClone(state) } });
    const answer = posted.find((msg) => msg.id === id);
    assert.deepEqual(answer.action, want, JSON.stringify(answer));
  }
  assert.deepEqual(fetched.sort(), ["fevga", "plakoto", "table"].flatMap((f) => [`/static/bot/${f}.bin`, `/static/bot/${f}.json`]));
});
