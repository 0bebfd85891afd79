// The computer's cube model offline (match equity table, money and match cube decisions,
// resignations) = table.bot.cube and table.bot.met's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { acceptResignation, efficiency, matchDouble, matchEquity, moneyDouble } from "../../../../src/table/web/js/engine/cube.js";
import { fixture } from "./load.mjs";

const near = (got, want) => Math.abs(got - want) < 1e-9;

test("the match equity table is Python's", () => {
  const wrong = fixture.met.filter(([a, b, want]) => !near(matchEquity(a, b), want));
  assert.deepEqual(wrong, []);
});

test("the cube's efficiency (contact, race, the last roll's dead cube) is Python's", () => {
  const wrong = fixture.efficiency.filter(({ board, want }) => !near(efficiency(Int8Array.from(board)), want));
  assert.deepEqual(wrong, []);
});

test("every cube decision and resignation answer is Python's", () => {
  const wrong = [];
  for (const c of fixture.decisions) {
    const got = c.length === 0 ? moneyDouble(c.p, c.cube, c.owner, c.x)
      : matchDouble(c.p, c.length, c.score, c.cube, c.owner, c.crawford, c.x);
    const ok = got.double === c.want.double && got.take === c.want.take
      && ["nd", "dt", "dp", "best"].every((k) => near(got[k], c.want[k]));
    const accept = acceptResignation(c.p, c.points, c.cube, c.owner, c.length, c.score, c.crawford, c.x);
    if (!ok || accept !== c.accept) wrong.push({ case: c, got, accept });
  }
  assert.deepEqual(wrong, []);
});
