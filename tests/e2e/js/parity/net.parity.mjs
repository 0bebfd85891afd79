// The network's inputs and outputs, and the whole evaluation, against Python's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardFromId } from "../../../../src/table/web/js/engine/ids.js";
import { encode, N_INPUTS } from "../../../../src/table/web/js/engine/features.js";
import { evaluateBoard, forward, makeWork } from "../../../../src/table/web/js/engine/nn.js";
import { fixture, pythonBearoff, weights } from "./load.mjs";

const w = weights(), plain = weights({ simd: false });
const db = pythonBearoff();

test("the inputs are the same numbers", () => {
  const x = new Float32Array(N_INPUTS);
  for (const row of fixture.positions) {
    encode(boardFromId(row.id), x);
    assert.deepEqual(Array.from(x), row.x, row.id);
  }
});

// Node has WebAssembly SIMD, so the default is simd.js; the plain loops are what browsers
// without it run.
for (const [how, net] of [["WebAssembly SIMD", w], ["plain loops", plain]]) {
  test(`raw outputs equal numpy's within 1e-5 on 1,000 positions (${how})`, () => {
    assert.equal(net.simd !== null, net === w);
    const work = makeWork(net.hidden, net.hidden2), out = new Float32Array(5);
    let worst = 0;
    for (const row of fixture.positions) {
      encode(boardFromId(row.id), work.x);
      forward(net, row.net, work, out);
      for (let k = 0; k < 5; k++) worst = Math.max(worst, Math.abs(out[k] - row.raw[k]));
    }
    assert.equal(fixture.positions.length, 1000);
    assert.ok(worst < 1e-5, `largest difference ${worst}`);
  });
}

test("evaluations (network, bear-off database, finished games) equal Python's within 1e-5", () => {
  const work = makeWork(w.hidden, w.hidden2), out = new Float32Array(5);
  for (const row of fixture.positions) {
    const kind = evaluateBoard(w, db, boardFromId(row.id), work, out);
    assert.equal(kind, row.kind, row.id);
    for (let k = 0; k < 5; k++) assert.ok(Math.abs(out[k] - row.probs[k]) < 1e-5, `${row.id}: ${Array.from(out)} vs ${row.probs}`);
  }
});
