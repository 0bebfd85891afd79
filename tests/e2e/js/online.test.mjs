// The nickname check the client makes before asking the server (the server's rules, players.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { nameProblem } from "../../../src/table/web/js/online.js";

test("a name has 2 to 20 characters", () => {
  assert.equal(nameProblem("A"), "length");
  assert.equal(nameProblem("  A  "), "length");
  assert.equal(nameProblem("x".repeat(21)), "length");
  assert.equal(nameProblem("Io"), "");
  assert.equal(nameProblem("x".repeat(20)), "");
});

test("letters with Romanian diacritics, digits, _ and - only", () => {
  assert.equal(nameProblem("Ștefan_țăranu-2"), "");
  assert.equal(nameProblem("Ştefan"), "");  // a cedilla ş is taken as ș
  assert.equal(nameProblem("Ana Maria"), "characters");
  assert.equal(nameProblem("<b>x</b>"), "characters");
  assert.equal(nameProblem("__"), "characters");
  assert.equal(nameProblem("Zoë"), "characters");
});
