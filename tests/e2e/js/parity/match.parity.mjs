// Whole matches replayed in the browser's match flow: the server's entries, views and IDs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LocalGame } from "../../../../src/table/web/js/engine/match.js";
import { toMat } from "../../../../src/table/web/js/engine/records.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));
const SEATS = [[0, 1], [0], [1]];

fixture.matches.forEach((m, i) => {
  test(`match ${i} (${m.config.variant ?? "standard"}, ${m.config.length} points${m.config.cube ? "" : ", no cube"}): every step as the server`, () => {
    let k = 0;
    const game = new LocalGame(m.config, { rollDie: () => m.faces[k++] });
    m.steps.forEach((st, n) => {
      const entry = st.seats === null ? game.applyAutomatic(st.action) : game.act(st.seats, st.action);
      const where = `step ${n}: ${JSON.stringify(st.action)}`;
      assert.deepEqual(entry, st.entry, where);
      SEATS.forEach((seats, j) => assert.deepEqual(game.view(seats), st.views[j], `${where}, seats ${seats}`));
      assert.deepEqual(game.ids, st.ids, where);
    });
    assert.ok(game.isOver);
    assert.deepEqual(game.moves, m.moves);
    if (m.mat !== undefined) assert.equal(toMat(game), m.mat); // none where GNU Backgammon lacks the variant
  });
});

test("a wrong action is refused with a reason and changes nothing", (t) => {
  // A game whose opening roll is played at once (the Greek games' starter rolls afresh).
  const m = fixture.matches.find((x) => !["plakoto", "fevga"].includes(x.config.variant));
  if (!m) return t.skip("only Greek matches in this fixture");
  let k = 0;
  const game = new LocalGame(m.config, { rollDie: () => m.faces[k++] });
  game.applyAutomatic({ type: "opening_roll" });
  const before = JSON.stringify(game.view([0, 1]));
  const seat = game.toAct;
  assert.throws(() => game.act([1 - seat], { type: "roll" }), /not your turn/);
  assert.throws(() => game.act([seat], { type: "move", steps: [[3, 9]] }), /not a legal move/);
  assert.throws(() => game.act([seat], { type: "double" }), /double/);
  assert.throws(() => game.act([seat], { type: "fly" }), /unknown action/);
  assert.equal(JSON.stringify(game.view([0, 1])), before);
});

test("Acey-Deucey refuses what its turn does not allow, saying why, and changes nothing", (t) => {
  const m = fixture.matches.find((x) => x.config.variant === "acey-deucey");
  if (!m) return t.skip("no Acey-Deucey match in this fixture");
  let k = 0;
  const game = new LocalGame(m.config, { rollDie: () => m.faces[k++] });
  game.applyAutomatic({ type: "opening_roll" });
  const before = JSON.stringify(game.view([0, 1]));
  const seat = game.toAct;
  assert.throws(() => game.act([seat], { type: "name_double", number: 3 }), /name_double is not possible now/);
  assert.throws(() => game.act([seat], { type: "name_double", number: 7 }), /1 to 6/);
  assert.throws(() => game.act([seat], { type: "resign", level: 2 }), /resign is not possible now/);
  assert.throws(() => game.act([seat], { type: "double" }), /double/);
  assert.equal(JSON.stringify(game.view([0, 1])), before);
});

test("Race and Acey-Deucey are played without the cube: refused when asked for, off by default", () => {
  for (const variant of ["race", "acey-deucey"]) {
    assert.throws(() => new LocalGame({ mode: "local", variant, cube: true }), /without the doubling cube: cube must be false/);
    assert.equal(new LocalGame({ mode: "local", variant }).config.cube, false);
  }
  assert.equal(new LocalGame({ mode: "local", variant: "dutch" }).config.cube, true);
});
