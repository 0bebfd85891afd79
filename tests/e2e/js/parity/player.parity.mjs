// The computer's decisions offline (cube, plays, resignations) = the server's computer's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalGame } from "../../../../src/table/web/js/engine/match.js";
import { makeJudge } from "../../../../src/table/web/js/engine/search.js";
import { computerAction } from "../../../../src/table/web/js/engine/player.js";
import { hintFor } from "../../../../src/table/web/js/engine/hint.js";
import { networkFile, variantOf } from "../../../../src/table/web/js/engine/variants.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const db = pythonBearoff();
const judges = new Map(); // one per variant, with its networks: Race, Dutch and Acey-Deucey search their own boards
const judgeFor = (variant = "standard") => {
  if (!judges.has(variant)) judges.set(variant, makeJudge(weights({}, networkFile(variantOf(variant))), db, 15, variant));
  return judges.get(variant);
};

// Numbers within 1e-5 (single-precision networks), everything else equal.
function close(got, want, where, wrong) {
  if (typeof want === "number") {
    if (!(Math.abs(got - want) < 1e-5)) wrong.push(`${where}: ${got} vs ${want}`);
  } else if (want && typeof want === "object") {
    for (const k of new Set([...Object.keys(want), ...Object.keys(got || {})])) close((got || {})[k], want[k], `${where}.${k}`, wrong);
  } else if (got !== want) wrong.push(`${where}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
}

test("every decision asked of the computer gets the server's answer, and the same hint", () => {
  const wrong = [];
  fixture.matches.forEach((m, i) => {
    let k = 0;
    const game = new LocalGame(m.config, { rollDie: () => m.faces[k++] });
    const asked = fixture.asked.filter((a) => a.match === i);
    const judge = judgeFor(m.config.variant);
    m.steps.forEach((st, n) => {
      for (const a of asked.filter((q) => q.step === n)) {
        const got = computerAction(judge, a.level, game.state);
        if (JSON.stringify(got) !== JSON.stringify(a.want)) wrong.push(`match ${i} step ${n} ${a.level}: ${JSON.stringify(got)} vs ${JSON.stringify(a.want)}`);
      }
      for (const h of fixture.hints.filter((q) => q.match === i && q.step === n)) close(hintFor(judge, game.state), h.want, `match ${i} step ${n} hint`, wrong);
      if (st.seats === null) game.applyAutomatic(st.action); else game.act(st.seats, st.action);
    });
  });
  assert.deepEqual(wrong, []);
});
