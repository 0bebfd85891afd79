// The bear-off database the browser builds on first use is exactly the one Python builds, its
// representatives of equivalent home boards included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { build, index, N_POSITIONS, POINTS, representatives, REP_WIDTH } from "../../../../src/table/web/js/engine/bearoff.js";
import { pythonBearoff } from "./load.mjs";

const want = pythonBearoff(), got = build();

test("built in the browser = built by Python, to the last bit", () => {
  for (const part of ["finish", "first", "rep"]) {
    assert.equal(got[part].length, want[part].length);
    const bad = got[part].findIndex((v, i) => v !== want[part][i]);
    assert.equal(bad, -1, `${part}[${bad}]: ${got[part][bad]} vs ${want[part][bad]}`);
  }
});

test("some boards have another representative, each of which is its own", () => {
  let others = 0;
  const board = new Int8Array(26);
  for (let i = 0; i < N_POSITIONS; i++) {
    if (!got.rep[i * REP_WIDTH + POINTS]) continue;
    others += 1;
    for (let p = 1; p <= POINTS; p++) board[p] = got.rep[i * REP_WIDTH + p - 1];
    const r = index(board, true);
    assert.notEqual(r, i);
    assert.equal(got.rep[r * REP_WIDTH + POINTS], 0, `board ${i}'s representative ${r} is not its own`);
  }
  assert.ok(others > 100, `${others} boards judged as another`);
  // What a client whose kept database predates the representatives derives from the rest.
  assert.deepEqual(representatives(want.finish, want.first), want.rep);
});
