// Legal plays of the browser engine = the Python kernel's on random positions from random games.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generate } from "../../../../src/table/web/js/engine/rules.js";
import { boardFromId, positionId } from "../../../../src/table/web/js/engine/ids.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

test("random positions: the same plays in the same order", () => {
  for (const row of fixture.positions) {
    const board = boardFromId(row.id);
    const got = generate(board, row.dice[0], row.dice[1]).map((p) => [positionId(p.board), p.steps]);
    assert.deepEqual(got, row.plays, `${row.id} ${row.dice.join("")}`);
  }
});
