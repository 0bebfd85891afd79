// The browser's Plakoto and Fevga = the Python engine: the perft fixture's counts, the plays of
// random positions (same positions after, steps, order and text), the end of the game, Position
// IDs read and written (bad ones refused in Python's words), and which variant plays which game.
// Each test runs only when the fixture (written by tests/e2e/test_greek_parity.py) has its part.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  NO_CAPTURE, PIN, ROTATE, decodeGreekId, encodeGreekId, greekBorneOff, greekGame, greekIsRace, greekPips,
  greekPlayText, greekPlays, greekResult, greekSides, turnRound,
} from "../../../../src/table/web/js/engine/greek.js";
import { countGreekTree } from "../../../../src/table/web/js/engine/greekkernel.js";
import { VariantError, variantOf } from "../../../../src/table/web/js/engine/variants.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));
const part = (name) => ({ skip: !(name in fixture) && `the fixture has no ${name}` });

// A board as tests/e2e/test_greek_parity.py writes it: each entry + 16 as a byte, in hex.
const BYTE = Array.from({ length: 256 }, (_, v) => v.toString(16).padStart(2, "0"));
function hex(board) {
  let out = "";
  for (const v of board) out += BYTE[v + 16];
  return out;
}

// Plays compared as Python lists them: as JSON text first (quick), and where that differs, the set
// of positions after (the clearer message), then the order, the steps, the pins or the text.
function same(got, want, message) {
  if (JSON.stringify(got) === JSON.stringify(want)) return;
  assert.deepEqual(new Set(got.map((p) => p[0])), new Set(want.map((p) => p[0])), message);
  assert.deepEqual(got, want, message);
}

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: e.name, message: e.message };
  }
}

test("the perft fixture: plays per roll and leaves of the game tree", part("perft"), () => {
  const { file, variant } = fixture.perft;
  const perft = JSON.parse(readFileSync(file, "utf8"));
  const rolls = perft.rolls.map((r) => [Number(r[0]), Number(r[1])]);
  const rows = perft.games[variant];
  assert.ok(rows.length >= 10);
  for (const row of rows) {
    const board = decodeGreekId(row.id, variant);
    assert.deepEqual(Array.from(board), row.board, row.id);
    assert.equal(encodeGreekId(board), row.id);
    assert.deepEqual(rolls.map((dice) => greekPlays(board, dice, variant).length), row.counts, `${variant} ${row.id}`);
    assert.equal(countGreekTree(board, row.plies, greekGame(variant).code), row.leaves, `${variant} ${row.id} ${row.plies} plies`);
  }
});

test("random positions: Python's plays, in its order, with its steps and text", part("positions"), () => {
  const { variant, rows } = fixture.positions;
  for (const row of rows) {
    const board = decodeGreekId(row.id, variant);
    assert.deepEqual(Array.from(board), row.board, row.id);
    const plays = greekPlays(board, row.dice, variant);
    const got = plays.map((p) => [hex(p.board), p.steps, p.hits]);
    same(got, row.plays, `${row.id} ${row.dice}`);
    if (row.api) {
      // Python's Play: the next player's Position ID and the text.
      const api = plays.map((p) => [encodeGreekId(turnRound(p.board)), greekPlayText(p)]);
      same(api, row.api, `${row.id} ${row.dice}`);
    }
    const [value, over] = greekResult(board, variant);
    assert.deepEqual([value, over], [row.result, row.over], row.id);
    assert.deepEqual(greekBorneOff(board, variant), row.borneOff, row.id);
    assert.deepEqual(greekPips(board), row.pips, row.id);
    assert.equal(greekIsRace(board), row.race, row.id);
    assert.deepEqual(greekSides(board).map((side) => [...side].sort((a, b) => a[0] - b[0])), row.checkers, row.id);
  }
});

test("Position IDs: read and written as Python does, bad ones refused in its words", part("ids"), () => {
  for (const [variant, rows] of Object.entries(fixture.ids.good)) {
    for (const [id, board, written] of rows) {
      assert.deepEqual(Array.from(decodeGreekId(id, variant)), board, `${variant} ${JSON.stringify(id)}`);
      assert.equal(encodeGreekId(decodeGreekId(id, variant)), written);
    }
  }
  for (const [variant, rows] of Object.entries(fixture.ids.bad)) {
    for (const [text, message] of rows) {
      assert.deepEqual(outcome(() => Array.from(decodeGreekId(text, variant))), { error: "PositionIdError", message },
        `${variant} ${JSON.stringify(text)}`);
    }
  }
});

test("the variants: Plakoto and Fevga named by the same rules as in Python", part("variants"), () => {
  const { rows } = fixture.variants;
  assert.deepEqual([PIN, NO_CAPTURE, ROTATE], [fixture.variants.PIN, fixture.variants.NO_CAPTURE, fixture.variants.ROTATE]);
  for (const want of rows) {
    const v = variantOf(want.name);
    assert.equal(greekGame(v)?.name ?? null, want.game, want.name);
    if (!want.game) {
      assert.throws(() => greekPlays(Int8Array.from(v.board), [3, 1], v), (e) => e instanceof VariantError);
      continue;
    }
    assert.deepEqual(v.board, want.board);
    assert.equal(encodeGreekId(Int8Array.from(v.board)), want.id);
    assert.equal(v.positionId, want.id);
  }
});
