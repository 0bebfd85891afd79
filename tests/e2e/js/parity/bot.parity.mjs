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
      const play = botPlay(judge, level, boardFromId(row.id), row.dice[0], row.dice[1]);
      const got = positionId(play.board);
      if (got !== row[level]) wrong.push(`${row.id} ${row.dice.join("")}: ${got} vs ${row[level]}`);
    }
    assert.deepEqual(wrong, []);
  });
}
