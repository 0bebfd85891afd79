// Mediu and Greu in the browser choose the plays Python's bot chooses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardFromId, positionId } from "../../../../src/table/web/js/engine/ids.js";
import { choose, makeJudge, withDeadline } from "../../../../src/table/web/js/engine/search.js";
import { chances } from "../../../../src/table/web/js/engine/player.js";
import { botPlay, LEVELS } from "../../../../src/table/web/js/engine/bot.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const judge = makeJudge(weights(), pythonBearoff());

// A clock that moves one tick each time it is read: the deadline falls where the test puts it.
const ticking = () => { let t = 0; return () => t++; };

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

// Races where some plays leave equivalent home boards (the same roll distributions): each engine
// judges them as one board, so they tie exactly, at any depth, and Python's choice is made.
test("plays that leave equivalent home boards tie, and Mediu and Greu choose Python's play", () => {
  const wrong = [];
  for (const row of fixture.ties) {
    const [board, [d1, d2]] = [boardFromId(row.id), row.dice];
    for (const level of ["medium", "hard", "hard1"]) {
      const got = positionId(botPlay(level === "hard1" ? withDeadline(judge, 0, ticking()) : judge,
        level === "hard1" ? "hard" : level, board, d1, d2).board);
      if (got !== row[level]) wrong.push(`${row.id} ${d1}${d2} ${level}: ${got} vs ${row[level]}`);
    }
    // Every play judged 0, 1 and 2 plies ahead, as the review and the hint judge them.
    for (const depth of [0, 1, 2]) {
      const { plays, eqs } = choose(judge, board, d1, d2, { depth, keep: [99, 99], margin: [9, 9] });
      const eq = new Map(plays.map((play, c) => [positionId(play.board), eqs[c]]));
      for (const group of row.groups) {
        const seen = group.map((id) => eq.get(id));
        if (seen.some((e) => e === undefined || e !== seen[0])) wrong.push(`${row.id} ${d1}${d2} at ${depth} plies: ${group} → ${seen}`);
      }
    }
  }
  assert.ok(fixture.ties.length >= 12);
  assert.deepEqual(wrong, []);
});

for (const [what, ticks] of [["before its second ply", 0], ["part-way through its second ply", 30]]) {
  test(`hard, its time spent ${what}: Python's Greu at one ply`, () => {
    const wrong = [];
    for (const row of fixture.choices) {
      if (!("hard1" in row)) continue;
      const play = botPlay(withDeadline(judge, ticks, ticking()), "hard", boardFromId(row.id), row.dice[0], row.dice[1]);
      const got = positionId(play.board);
      if (got !== row.hard1) wrong.push(`${row.id} ${row.dice.join("")}: ${got} vs ${row.hard1}`);
    }
    assert.deepEqual(wrong, []);
  });
}

test("hard, its time spent part-way through its second ply: every play judged as at one ply", () => {
  for (const row of fixture.choices.filter((r) => "hard1" in r).slice(0, 6)) {
    const [board, [d1, d2]] = [boardFromId(row.id), row.dice];
    const cut = choose(withDeadline(judge, 30, ticking()), board, d1, d2, LEVELS.hard);
    assert.deepEqual(cut.eqs, choose(judge, board, d1, d2, { ...LEVELS.hard, depth: 1 }).eqs);
  }
});

test("hard under a budget of plays judged: Python's count, the same stages given up, Python's play", () => {
  assert.equal(LEVELS.hard.budget, fixture.budget);
  const wrong = [];
  for (const row of fixture.budgeted) {
    const r = choose(judge, boardFromId(row.id), row.dice[0], row.dice[1], { ...LEVELS.hard, budget: row.budget });
    const got = { play: positionId(r.plays[r.best].board), judged: r.judged };
    if (got.play !== row.play || got.judged !== row.judged) wrong.push(`${row.id} ${row.dice.join("")} ${row.budget}: ${JSON.stringify(got)} vs ${row.play} ${row.judged}`);
  }
  assert.deepEqual(wrong, []);
});

test("hard's cube chances, its time spent: one ply ahead, not a mix", () => {
  for (const row of fixture.choices.slice(0, 10)) {
    const board = boardFromId(row.id);
    // Ten of its 21 rolls are judged two plies ahead before the deadline.
    assert.deepEqual(chances(withDeadline(judge, 10, ticking()), "hard", board), chances(judge, "hard", board, 1));
  }
});

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
