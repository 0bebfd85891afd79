// Unit tests of the client's move-graph walking (run by tests/server/test_client_js.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { targetsFor, sourcesAt, applySteps, isFinal } from "../../../src/table/web/js/moves.js";

// 24/21/20 or 24/23/20 with 3-1, or 13/10 then 6/5 (edges: [from, to, die, hit, child]).
const g = {
  depth: 2,
  nodes: [
    [[24, 21, 3, 0, 1], [24, 23, 1, 0, 2], [13, 10, 3, 0, 3]],
    [[21, 20, 1, 0, 4]],
    [[23, 20, 3, 0, 4]],
    [[6, 5, 1, 1, 5]],
    [],
    [],
  ],
  finals: { 4: "24/20", 5: "13/10 6/5*" },
};

test("sources are the starts of the edges out of a node", () => {
  assert.deepEqual(sourcesAt(g, 0).sort((a, b) => a - b), [13, 24]);
  assert.deepEqual(sourcesAt(g, 3), [6]);
});

test("one gesture reaches both dice away, by the die shown first", () => {
  const t = targetsFor(g, 0, 24, [3, 1]);
  assert.deepEqual([...t.keys()].sort((a, b) => a - b), [20, 21, 23]);
  assert.deepEqual(t.get(20).map((e) => e[1]), [21, 20]);
  const swapped = targetsFor(g, 0, 24, [1, 3]);
  assert.deepEqual(swapped.get(20).map((e) => e[1]), [23, 20]);
});

test("final nodes are the ends of legal plays", () => {
  assert.ok(isFinal(g, 4) && isFinal(g, 5));
  assert.ok(!isFinal(g, 0) && !isFinal(g, 3));
});

test("steps drawn on the board move checkers and send hit blots to the bar", () => {
  const points = Array(24).fill(0);
  points[5] = 2; points[4] = -1;  // two of seat 0 on 6, a blot of seat 1 on 5
  const after = applySteps({ points, bar: [0, 0], off: [0, 0] }, [[6, 5]], 0);
  assert.equal(after.points[5], 1);
  assert.equal(after.points[4], 1);
  assert.deepEqual(after.bar, [0, 1]);
  const off = applySteps({ points: after.points, bar: after.bar, off: [0, 0] }, [[5, 0]], 0);
  assert.deepEqual(off.off, [1, 0]);
  const lifted = applySteps({ points, bar: [0, 0], off: [0, 0] }, [[6, 5]], 0, true);
  assert.equal(lifted.points[4], -1);  // not put down yet
});
