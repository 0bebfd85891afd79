// Offline dice: crypto.getRandomValues with rejection sampling, so no face is favoured.
import { test } from "node:test";
import assert from "node:assert/strict";
import { diceFrom, secretDice } from "../../../src/table/web/js/engine/dice.js";

test("bytes 252 to 255 are thrown away, the rest map evenly onto 1..6", () => {
  const bytes = [255, 252, 253, 254, 251, 0, 6, 245];
  const dice = diceFrom((a) => { a[0] = bytes.shift(); });
  assert.equal(dice.rollDie(), 6); // 251 % 6 = 5, after four bytes thrown away
  assert.equal(dice.rollDie(), 1);
  assert.equal(dice.rollDie(), 1);
  assert.equal(dice.rollDie(), 6);
  assert.equal(bytes.length, 0);
});

test("every byte value kept gives each face exactly 42 times", () => {
  const counts = [0, 0, 0, 0, 0, 0];
  for (let v = 0; v < 256; v++) {
    let first = true;
    const dice = diceFrom((a) => { a[0] = first ? v : 0; first = false; });
    if (v < 252) counts[dice.rollDie() - 1] += 1;
  }
  assert.deepEqual(counts, [42, 42, 42, 42, 42, 42]);
});

test("the secret dice come up each face about a sixth of the time", () => {
  const n = 60000, counts = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) counts[secretDice.rollDie() - 1] += 1;
  // 5 standard deviations of a binomial(60000, 1/6): about 456.
  for (const c of counts) assert.ok(Math.abs(c - n / 6) < 460, counts.join(" "));
});
