// The bear-off database the browser builds on first use is exactly the one Python builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { build } from "../../../../src/table/web/js/engine/bearoff.js";
import { pythonBearoff } from "./load.mjs";

test("built in the browser = built by Python, to the last bit", () => {
  const want = pythonBearoff(), got = build();
  for (const part of ["finish", "first"]) {
    assert.equal(got[part].length, want[part].length);
    const bad = got[part].findIndex((v, i) => v !== want[part][i]);
    assert.equal(bad, -1, `${part}[${bad}]: ${got[part][bad]} vs ${want[part][bad]}`);
  }
});
