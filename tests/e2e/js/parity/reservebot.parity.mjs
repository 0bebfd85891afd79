// Mediu and Greu in Race, Dutch and Acey-Deucey choose the plays, and name the doubles, that
// Python's bot does: 28-entry boards searched, the standard networks judging the folded board.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeReserveId, encodeReserveId } from "../../../../src/table/web/js/engine/reserve.js";
import { makeJudge, withDeadline } from "../../../../src/table/web/js/engine/search.js";
import { botPlay } from "../../../../src/table/web/js/engine/bot.js";
import { chooseDouble } from "../../../../src/table/web/js/engine/player.js";
import { networkFile, variantOf } from "../../../../src/table/web/js/engine/variants.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const db = pythonBearoff();
const judges = new Map();
// Each variant's judge with the networks the worker loads for it (a variant's own where shipped).
const judgeFor = (name) => {
  if (!judges.has(name)) judges.set(name, makeJudge(weights({}, networkFile(variantOf(name))), db, 15, name));
  return judges.get(name);
};

test("each variant plays the networks Python's bot plays it with", () => {
  for (const [name, file] of Object.entries(fixture.networks)) assert.equal(networkFile(variantOf(name)), file, name);
});
// A clock that moves one tick each time it is read: the deadline falls where the test puts it.
const ticking = () => { let t = 0; return () => t++; };

for (const level of ["medium", "hard", "hard1"]) {
  test(`${level}: the same play as Python's on every position of each variant`, () => {
    const wrong = [];
    let seen = 0;
    for (const row of fixture.choices) {
      if (!(level in row)) continue;
      seen += 1;
      const judge = level === "hard1" ? withDeadline(judgeFor(row.variant), 0, ticking()) : judgeFor(row.variant);
      const play = botPlay(judge, level === "hard1" ? "hard" : level, decodeReserveId(row.id), row.dice[0], row.dice[1]);
      const got = encodeReserveId(play.board);
      if (got !== row[level]) wrong.push(`${row.variant} ${row.id} ${row.dice.join("")}: ${got} vs ${row[level]}`);
    }
    assert.ok(seen >= 3);
    assert.deepEqual(wrong, []);
  });
}

test("Acey-Deucey: the double Mediu names after a 1-2 is Python's", () => {
  const wrong = [];
  const v = variantOf("acey-deucey");
  for (const row of fixture.doubles) {
    const got = chooseDouble(judgeFor(v.name), "medium", decodeReserveId(row.id), v);
    if (got !== row.medium) wrong.push(`${row.id}: ${got} vs ${row.medium}`);
  }
  assert.ok(fixture.doubles.length >= 12);
  assert.deepEqual(wrong, []);
});
