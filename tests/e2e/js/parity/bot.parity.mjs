// Mediu and Greu in the browser choose the plays Python's bot chooses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardFromId, positionId } from "../../../../src/table/web/js/engine/ids.js";
import { makeJudge } from "../../../../src/table/web/js/engine/search.js";
import { botPlay } from "../../../../src/table/web/js/engine/bot.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const judge = makeJudge(weights(), pythonBearoff());

for (const level of ["medium", "hard"]) {
  test(`${level}: the same play as Python's on every position`, () => {
    const wrong = [];
    for (const row of fixture.choices) {
      if (!(level in row)) continue; // Greu is compared on the first positions only
      const play = botPlay(judge, level, boardFromId(row.id), row.dice[0], row.dice[1]);
      const got = positionId(play.board);
      if (got !== row[level]) wrong.push(`${row.id} ${row.dice.join("")}: ${got} vs ${row[level]}`);
    }
    assert.deepEqual(wrong, []);
  });
}

test("easy: its noise makes it leave Mediu's play about as often as Python's Ușor does", () => {
  let seed = 7;
  const random = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
  const rate = (pick) => fixture.choices.filter((row) => pick(row) !== row.medium).length / fixture.choices.length;
  // Averaged over several draws: the rate of one draw on 200 positions varies by a few points.
  let js = 0;
  for (let k = 0; k < 5; k++) {
    js += rate((row) => positionId(botPlay(judge, "easy", boardFromId(row.id), row.dice[0], row.dice[1], random).board)) / 5;
  }
  const py = rate((row) => row.easy);
  assert.ok(js > 0.05 && Math.abs(js - py) < 0.12, `browser ${js.toFixed(3)}, Python ${py.toFixed(3)}`);
});
