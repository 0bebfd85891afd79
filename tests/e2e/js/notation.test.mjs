// Unit tests of the client's pure modules, run by Node's own test runner (node --test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { diceText, playText, pipCounts, moveRows, pairNumber } from "../../../src/table/web/js/notation.js";
import { applySteps, targetsFor } from "../../../src/table/web/js/moves.js";

// The starting position, numbered from seat 0's side: seat 0's checkers positive.
const START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2];
const start = () => ({ points: START.slice(), bar: [0, 0], off: [0, 0] });

test("dice are written high first", () => {
  assert.equal(diceText([1, 3]), "3-1");
  assert.equal(diceText([6, 6]), "6-6");
  assert.equal(diceText([5, 2]), "5-2");
});

test("the bar and off are named in the reader's language", () => {
  assert.equal(playText("bar/22* 6/off(2)", { bar: "bara", off: "afară" }), "bara/22* 6/afară(2)");
  assert.equal(playText("24/13", { bar: "bara", off: "afară" }), "24/13");
});

test("pip counts of the starting position are 167 each", () => {
  assert.deepEqual(pipCounts(start()), [167, 167]);
});

test("pip counts follow a move before it is confirmed, and a hit sends 25 pips back", () => {
  const s = start();
  const after = applySteps(s, [[13, 10], [10, 5]], 0);
  assert.deepEqual(pipCounts(after), [167 - 8, 167]);
  // A lone black checker on 3 (its 22), hit by white from 6.
  const blot = { points: s.points.slice(), bar: [0, 0], off: [0, 0] };
  blot.points[2] = -1;
  const before = pipCounts(blot);
  const hit = applySteps(blot, [[6, 3]], 0);
  assert.deepEqual(pipCounts(hit), [before[0] - 3, before[1] - 22 + 25]);
});

test("a checker's destinations: one die, or both in a row, the die shown first winning ties", () => {
  // From 13 with 3-1: 12 (1), 10 (3) and 9 (both); two edges reach 9.
  const g = { nodes: [[[13, 12, 1, 0, 1], [13, 10, 3, 0, 2]], [[12, 9, 3, 0, 3]], [[10, 9, 1, 0, 3]], []], finals: { 3: "13/9" } };
  const t = targetsFor(g, 0, 13, [3, 1]);
  assert.deepEqual([...t.keys()].sort((a, b) => a - b), [9, 10, 12]);
  assert.deepEqual(t.get(9).map((e) => e[2]), [3, 1]);
  assert.deepEqual(targetsFor(g, 0, 13, [1, 3]).get(9).map((e) => e[2]), [1, 3]);
});

test("the move list numbers moves in pairs, white's then black's, from 1 in each game", () => {
  const M = (seat) => ({ kind: "move", seat }), ev = (kind) => ({ kind });
  const rows = moveRows([ev("game"), M(0), M(1), M(0), M(1), ev("result"), ev("game"), M(1), M(0), M(1)]);
  assert.deepEqual(rows, [{ event: 0 }, { n: 1, cells: [1, 2] }, { n: 2, cells: [3, 4] }, { event: 5 }, { event: 6 },
    { n: 1, cells: [null, 7] }, { n: 2, cells: [8, 9] }]);
  // A cube action between white's move and black's: black's move goes on under the same number.
  const cube = moveRows([ev("game"), M(0), M(1), M(0), ev("double"), ev("take"), M(1), M(0)]);
  assert.deepEqual(cube, [{ event: 0 }, { n: 1, cells: [1, 2] }, { n: 2, cells: [3, null] }, { event: 4 }, { event: 5 },
    { n: 2, cells: [null, 6] }, { n: 3, cells: [7, null] }]);
});

test("a turn counted from 1 gets the number of its pair in the move list, whoever opened", () => {
  const M = (seat) => ({ kind: "move", seat });
  for (const opener of [0, 1]) {
    const events = [{ kind: "game" }];
    for (let k = 0; k < 9; k++) events.push(M((opener + k) % 2));
    const rows = moveRows(events);
    events.forEach((e, i) => {
      if (e.kind !== "move") return;
      const row = rows.find((r) => r.cells && r.cells.includes(i));
      assert.equal(pairNumber(i, e.seat), row.n, `opener ${opener}, turn ${i}`);  // event i is turn i
    });
  }
});
