// Legal plays of the browser engine = the Python kernel's on the perft positions x 21 rolls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generate, ROLLS } from "../../../../src/table/web/js/engine/rules.js";
import { boardFromId, positionId } from "../../../../src/table/web/js/engine/ids.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

const playsOf = (board, d1, d2) => generate(board, d1, d2).map((p) => [positionId(p.board), p.steps]);

test("every roll of every perft position gives the kernel's plays, in its order", () => {
  let total = 0;
  for (const row of fixture.positions) {
    const board = boardFromId(row.id);
    assert.equal(positionId(board), row.id);
    ROLLS.forEach(([d1, d2], r) => {
      const got = playsOf(board, d1, d2);
      const want = row.rolls[r];
      // The exact set first (the clearer message), then the order and the steps.
      assert.deepEqual(new Set(got.map((p) => p[0])), new Set(want.map((p) => p[0])), `${row.id} ${d1}${d2}`);
      assert.deepEqual(got, want, `${row.id} ${d1}${d2}`);
      total += got.length;
    });
  }
  assert.equal(total, 156986); // the perft fixture's total
});
