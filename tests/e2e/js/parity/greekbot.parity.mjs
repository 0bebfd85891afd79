// Plakoto and Fevga in the browser: the networks' inputs (greekfeatures.js), the 0-ply chances,
// and the plays Mediu and Greu choose are Python's (tests/e2e/test_greek_bot_parity.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeGreekId, encodeGreekId, greekGame } from "../../../../src/table/web/js/engine/greek.js";
import { turnRound } from "../../../../src/table/web/js/engine/greekkernel.js";
import { encodeGreek, N_INPUTS, pickGreekNet } from "../../../../src/table/web/js/engine/greekfeatures.js";
import { makeJudge, withDeadline } from "../../../../src/table/web/js/engine/search.js";
import { botPlay } from "../../../../src/table/web/js/engine/bot.js";
import { chances } from "../../../../src/table/web/js/engine/player.js";
import { networkFile, variantOf } from "../../../../src/table/web/js/engine/variants.js";
import { fixture, weights } from "./load.mjs";

const judges = new Map();
// Each game's judge with the networks the worker loads for it (its own), no bear-off database.
const judgeFor = (name) => {
  if (!judges.has(name)) judges.set(name, makeJudge(weights({}, networkFile(variantOf(name))), null, 15, name));
  return judges.get(name);
};
// A clock that moves one tick each time it is read: the deadline falls where the test puts it.
const ticking = () => { let t = 0; return () => t++; };

test("each Greek game plays its own networks", () => {
  for (const name of ["plakoto", "fevga"]) {
    assert.equal(networkFile(variantOf(name)), name);
    assert.equal(judgeFor(name).greek, greekGame(name).code);
  }
});

test("the inputs are Python's on every position", () => {
  const wrong = [];
  const x = new Float32Array(N_INPUTS);
  for (const row of fixture.choices) {
    x.fill(NaN);
    encodeGreek(decodeGreekId(row.id, row.variant), greekGame(row.variant).code, x);
    const bad = row.x.flatMap((v, k) => (x[k] === Math.fround(v) ? [] : [`${k}: ${x[k]} vs ${v}`]));
    if (bad.length) wrong.push(`${row.variant} ${row.id}: ${bad.slice(0, 4).join(", ")}`);
  }
  assert.ok(fixture.choices.length >= 150);
  assert.deepEqual(wrong, []);
});

test("the network judging each position is Python's", () => {
  const rows = fixture.choices.filter((row) => "net" in row);
  const got = rows.map((row) => pickGreekNet(decodeGreekId(row.id, row.variant), greekGame(row.variant).code));
  assert.deepEqual(got, rows.map((row) => row.net));
});

// The chances at `depth` plies of every row that has them (`key`), within single precision.
function chancesTest(key, depth) {
  const wrong = [];
  let seen = 0;
  for (const row of fixture.choices) {
    if (!(key in row)) continue;
    seen += 1;
    const e = chances(judgeFor(row.variant), "medium", decodeGreekId(row.id, row.variant), depth);
    const got = [e.win, e.winGammon, e.winBackgammon, e.loseGammon, e.loseBackgammon];
    if (got.some((v, k) => !(Math.abs(v - row[key][k]) < 1e-5))) wrong.push(`${row.variant} ${row.id}: ${got} vs ${row[key]}`);
  }
  assert.ok(seen >= 12);
  assert.deepEqual(wrong, []);
}

test("the 0-ply chances are Python's on every position, finished games' exactly", () => chancesTest("chances", 0));
test("the chances one ply ahead are Python's", () => chancesTest("chances1", 1));

for (const level of ["medium", "hard1", "hard"]) {
  test(`${level}: the same play as Python's on every position of each game`, () => {
    const wrong = [];
    let seen = 0;
    for (const row of fixture.choices) {
      if (!(level in row)) continue;
      seen += 1;
      const judge = level === "hard1" ? withDeadline(judgeFor(row.variant), 0, ticking()) : judgeFor(row.variant);
      const play = botPlay(judge, level === "hard1" ? "hard" : level, decodeGreekId(row.id, row.variant), row.dice[0], row.dice[1]);
      const got = encodeGreekId(turnRound(play.board));
      if (got !== row[level]) wrong.push(`${row.variant} ${row.id} ${row.dice.join("")}: ${got} vs ${row[level]}`);
    }
    assert.ok(seen >= 4);
    assert.deepEqual(wrong, []);
  });
}
