// The computer's decisions offline (cube, plays, resignations) = the server's computer's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalGame } from "../../../../src/table/web/js/engine/match.js";
import { makeJudge } from "../../../../src/table/web/js/engine/search.js";
import { computerAction } from "../../../../src/table/web/js/engine/player.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const judge = makeJudge(weights(), pythonBearoff());

test("every decision asked of the computer gets the server's answer", () => {
  const wrong = [];
  fixture.matches.forEach((m, i) => {
    let k = 0;
    const game = new LocalGame(m.config, { rollDie: () => m.faces[k++] });
    const asked = fixture.asked.filter((a) => a.match === i);
    m.steps.forEach((st, n) => {
      for (const a of asked.filter((q) => q.step === n)) {
        const got = computerAction(judge, a.level, game.state);
        if (JSON.stringify(got) !== JSON.stringify(a.want)) wrong.push(`match ${i} step ${n} ${a.level}: ${JSON.stringify(got)} vs ${JSON.stringify(a.want)}`);
      }
      if (st.seats === null) game.applyAutomatic(st.action); else game.act(st.seats, st.action);
    });
  });
  assert.deepEqual(wrong, []);
});
