// The browser's engine for the variants whose checkers start off the board (Race, Dutch,
// Acey-Deucey) = the Python engine: the perft fixture's counts, the plays of random positions (same
// boards, steps, order and text), the staged 1-2 turn, extended Position IDs and "in/" notation.
// Each test runs only when the fixture (written by tests/e2e/test_reserve_parity.py) has its part.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  countTree, decodeReserveId, encodeReserveId, borneOff, parseReserveText, reservePlays,
  reservePlayText, reserveResult,
} from "../../../../src/table/web/js/engine/reserve.js";
import {
  canPlayBoth, doublePlayedInFull, gameValue, isAceyDeucey, playedBoth, playsAceyDeucey, stillOnRoll,
} from "../../../../src/table/web/js/engine/aceydeucey.js";
import { boardFromId } from "../../../../src/table/web/js/engine/ids.js";
import { ENGINE_ONLY, VARIANTS, VariantError, playable, variantOf } from "../../../../src/table/web/js/engine/variants.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));
const part = (name) => ({ skip: !(name in fixture) && `the fixture has no ${name}` });

// A board as tests/e2e/parity.py writes it: each entry + 16 as a byte, in hex.
const hex = (board) => Array.from(board, (v) => (v + 16).toString(16).padStart(2, "0")).join("");

// [the board after, steps, text]; the text only where Python wrote it (else null).
const playsOf = (board, dice, variant, text = true) => reservePlays(board, dice, variant)
  .map((p) => [hex(p.board), p.steps, text ? reservePlayText(board, p) : null]);

// How a refusal compares: its class's name and its message, or what came back instead.
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
  const rows = perft.variants[variant];
  assert.ok(rows.length >= 10);
  for (const row of rows) {
    const board = decodeReserveId(row.id);
    assert.deepEqual(Array.from(board), row.board, row.id);
    assert.deepEqual(rolls.map((dice) => reservePlays(board, dice, variant).length), row.counts, `${variant} ${row.id}`);
    assert.equal(countTree(board, row.plies, variantOf(variant).rules), row.leaves, `${variant} ${row.id} ${row.plies} plies`);
  }
});

test("random positions: Python's plays, in its order, with its steps and text", part("positions"), () => {
  const { variant, rows } = fixture.positions;
  for (const row of rows) {
    const board = decodeReserveId(row.id);
    const got = playsOf(board, row.dice, variant, row.plays.some((p) => p[2] !== null));
    // The exact set first (the clearer message), then the order, the steps and the text.
    assert.deepEqual(new Set(got.map((p) => p[0])), new Set(row.plays.map((p) => p[0])), `${row.id} ${row.dice}`);
    assert.deepEqual(got, row.plays, `${row.id} ${row.dice}`);
    assert.equal(reserveResult(board, variant), row.result, row.id);
    assert.deepEqual(borneOff(board, variant), row.borneOff, row.id);
    if ("gameValue" in row) assert.equal(gameValue(board, variant), row.gameValue, row.id);
  }
});

test("Acey-Deucey's staged 1-2 turn", part("staged"), () => {
  const { rows, refusals } = fixture.staged;
  for (const row of rows) {
    const board = decodeReserveId(row.id);
    assert.equal(canPlayBoth(board, "acey-deucey"), row.canPlayBoth, row.id);
    const plays = reservePlays(board, row.dice, "acey-deucey");
    assert.equal(isAceyDeucey(row.dice), true);
    assert.deepEqual(plays.map((p) => [playedBoth(p), encodeReserveId(stillOnRoll(p))]), row.first, row.id);
    plays.filter((p, k) => k === 0 || k === plays.length - 1).forEach((p, k) => {
      const after = stillOnRoll(p);
      const doubles = reservePlays(after, [row.double, row.double], "acey-deucey");
      assert.deepEqual(doubles.map((d) => [encodeReserveId(d.board), doublePlayedInFull(d)]), row.second[k], `${row.id} ${k}`);
    });
  }
  for (const dice of [[1, 2], [2, 1], [2, 2], [1, 1], [3, 1]]) {
    assert.equal(isAceyDeucey(dice), [1, 2].includes(dice[0]) && [1, 2].includes(dice[1]) && dice[0] !== dice[1]);
  }
  assert.deepEqual([playsAceyDeucey("acey-deucey"), playsAceyDeucey("race"), playsAceyDeucey("standard")], [true, false, false]);
  for (const [name, message] of Object.entries(refusals)) {
    const board = Int8Array.from(variantOf(name).board);
    for (const fn of [() => canPlayBoth(board, name), () => gameValue(board, name)]) {
      assert.deepEqual(outcome(fn), { error: "VariantError", message });
    }
  }
});

test("extended Position IDs: read and written as Python does, bad ones refused in its words", part("ids"), () => {
  for (const [id, board, written] of fixture.ids.good) {
    assert.deepEqual(Array.from(decodeReserveId(id)), board, id);
    assert.equal(encodeReserveId(decodeReserveId(id)), written);
  }
  for (const [text, message] of fixture.ids.bad) {
    assert.deepEqual(outcome(() => Array.from(decodeReserveId(text))), { error: "PositionIdError", message }, String(text));
  }
  for (const [text, message] of fixture.ids.badPlain) {
    assert.deepEqual(outcome(() => Array.from(boardFromId(text))), { error: "PositionIdError", message }, String(text));
  }
});

test("notation: 'in/' read as Python reads it, bad text refused in its words", part("notation"), () => {
  for (const [text, want] of fixture.notation) {
    const got = outcome(() => parseReserveText(text).map((s) => [s.src, s.dst, s.hit]));
    assert.deepEqual(got, want, String(text));
  }
});

test("Race, Dutch and Acey-Deucey: in the forms' list as Python has them, and played on this device", part("offered"), () => {
  for (const want of fixture.offered) {
    const v = variantOf(want.name.toUpperCase());
    assert.equal(v, VARIANTS[want.name]);
    assert.deepEqual(v.board, want.board);
    assert.equal(encodeReserveId(Int8Array.from(v.board)), want.id);
    assert.deepEqual([v.rules.reserveFirst, v.rules.hitNeedsHome, v.rules.barFirst], want.flags);
    assert.deepEqual([v.cube, v.turnFlow, v.checkers, v.entry], [want.cube, want.turnFlow, want.checkers, want.entry]);
    assert.equal(playable(v), true);
  }
});

test("the variants not offered yet: Python's, found by name, and not in the forms' list", part("engineOnly"), () => {
  assert.deepEqual(Object.keys(ENGINE_ONLY), fixture.engineOnly.map((v) => v.name));
  for (const want of fixture.engineOnly) {
    const v = variantOf(want.name.toUpperCase());
    assert.equal(v, ENGINE_ONLY[want.name]);
    assert.equal(VARIANTS[want.name], undefined);
    assert.deepEqual(v.board, want.board);
    if (want.entry === "reserve") assert.equal(encodeReserveId(Int8Array.from(v.board)), want.id);
    assert.equal(v.positionId, want.id);
    assert.equal(v.title, want.title);
    assert.deepEqual([v.rules.reserveFirst, v.rules.hitNeedsHome, v.rules.barFirst], want.flags);
    assert.deepEqual([v.cube, v.turnFlow, v.checkers, v.entry], [want.cube, want.turnFlow, want.checkers, want.entry]);
    // A game on this device plays the variants whose checkers start off the board (match.js).
    assert.equal(playable(v), want.entry === "reserve");
  }
  // The reserve generator plays only the variants whose checkers start off the board.
  assert.throws(() => reservePlays(new Int8Array(28), [3, 1], "standard"), (e) => e instanceof VariantError);
});
