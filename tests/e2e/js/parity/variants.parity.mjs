// The variants the browser knows = Python's table.rules.variant: their start boards and Position
// IDs, their names in records, their scoring, and an unknown name refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { initialBoard } from "../../../../src/table/web/js/engine/rules.js";
import { positionId } from "../../../../src/table/web/js/engine/ids.js";
import { encodeReserveId } from "../../../../src/table/web/js/engine/reserve.js";
import { VARIANTS, VariantError, playable, variantOf } from "../../../../src/table/web/js/engine/variants.js";
import { initialState } from "../../../../src/table/web/js/engine/state.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

test("the same variants, in the same order", () => {
  assert.deepEqual(Object.keys(VARIANTS), fixture.variants.map((v) => v.name));
});

for (const want of fixture.variants) {
  test(`${want.name}: start, names and scoring as Python's`, () => {
    const board = initialBoard(want.name);
    assert.deepEqual(Array.from(board), want.board);
    // Race, Dutch, Acey-Deucey: the extended ID, with the checkers waiting off the board.
    assert.equal(board.length > 26 ? encodeReserveId(board) : positionId(board), want.id);
    const v = variantOf(want.name);
    assert.deepEqual(Array.from(initialState(1, v.cube, want.name).board), want.board);
    assert.equal(v.title, want.title);
    assert.deepEqual(v.scoring, want.scoring);
    assert.equal(v.checkers, want.checkers);
    assert.equal(v.matName, want.mat);
    assert.equal(v.sgfName, want.sgf);
    for (const name of want.aliases) assert.equal(variantOf(name), v, name);
    assert.ok(playable(v));
  });
}

test("an unknown variant is refused with the list of those there are", () => {
  for (const name of fixture.unknown) {
    assert.throws(() => variantOf(name), (e) => e instanceof VariantError && e.message === fixture.refusals[name]);
  }
});

test("the levels and match lengths a new game may have are Python's", async () => {
  const { LEVEL_NAMES, MATCH_LENGTHS } = await import("../../../../src/table/web/js/engine/variants.js");
  const { LEVELS } = await import("../../../../src/table/web/js/engine/bot.js");
  assert.deepEqual([...LEVEL_NAMES], fixture.levels);
  assert.deepEqual(Object.keys(LEVELS), fixture.levels);  // the browser's computer has each level
  assert.deepEqual([...MATCH_LENGTHS], fixture.matchLengths);
});
