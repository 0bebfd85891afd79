// The computer's decisions offline in a Tavli match (Portes, Plakoto, Fevga in turn) = the server's
// computer's (tests/e2e/test_greek_bot_parity.py), each game judged with its own networks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalGame } from "../../../../src/table/web/js/engine/match.js";
import { makeJudge } from "../../../../src/table/web/js/engine/search.js";
import { computerAction } from "../../../../src/table/web/js/engine/player.js";
import { networkFile } from "../../../../src/table/web/js/engine/variants.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

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

test("every decision asked of the computer gets the server's answer", () => {
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
        const got = computerAction(judgeFor(game.state.variant), "medium", game.state);
        if (JSON.stringify(got) !== JSON.stringify(a.want)) wrong.push(`match ${i} step ${n} ${a.variant}: ${JSON.stringify(got)} vs ${JSON.stringify(a.want)}`);
      }
      if (st.seats === null) game.applyAutomatic(st.action); else game.act(st.seats, st.action);
    });
  });
  assert.equal(seen, fixture.asked.length);
  assert.deepEqual(wrong, []);
});
