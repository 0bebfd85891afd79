// The WebAssembly SIMD evaluator's two loops against the same sums done plainly in JavaScript,
// and the network loader's choice between it and the plain loops.
import { test } from "node:test";
import assert from "node:assert/strict";
import { instantiate, moduleBytes } from "../../../src/table/web/js/engine/simd.js";
import { forward, loadWeights, makeWork, N_OUTPUTS } from "../../../src/table/web/js/engine/nn.js";
import { N_INPUTS } from "../../../src/table/web/js/engine/features.js";

let seed = 7;
const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296 - 0.5; };
const close = (a, b) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b));

test("the module is valid WebAssembly and its memory has the pages asked for", () => {
  assert.ok(WebAssembly.validate(moduleBytes(3)));
  const run = instantiate(3 * 65536 - 1);
  assert.notEqual(run, null);
  assert.equal(run.memory.buffer.byteLength, 3 * 65536);
});

test("layer1 adds the rows of the nonzero inputs only, to the biases", () => {
  const nIn = 37, nh = 48, run = instantiate(65536), m = new Float32Array(run.memory.buffer);
  const W = 0, B = 4 * nIn * nh, X = B + 4 * nh, H = X + 4 * 48;
  const w = Float32Array.from({ length: nIn * nh }, rand), b = Float32Array.from({ length: nh }, rand);
  const x = Float32Array.from({ length: nIn }, (_, i) => (i % 3 ? 0 : rand()));
  m.set(w, W / 4); m.set(b, B / 4); m.set(x, X / 4);
  m[W / 4 + nh + 5] = NaN; // in the row of input 1, which is zero: never read
  run.layer1(W, B, X, nIn, 4 * nh, H);
  for (let j = 0; j < nh; j++) {
    let s = b[j];
    for (let i = 0; i < nIn; i++) if (x[i] !== 0) s += x[i] * w[i * nh + j];
    assert.ok(close(m[H / 4 + j], s), `unit ${j}: ${m[H / 4 + j]} against ${s}`);
  }
});

test("dense gives each output its bias plus its row's dot product with the vector", () => {
  const n = 128, nOut = 7, run = instantiate(65536), m = new Float32Array(run.memory.buffer);
  const M = 0, B = 4 * n * nOut, V = B + 32, O = V + 4 * n;
  const mat = Float32Array.from({ length: n * nOut }, rand), b = Float32Array.from({ length: nOut }, rand);
  const v = Float32Array.from({ length: n }, rand);
  m.set(mat, M / 4); m.set(b, B / 4); m.set(v, V / 4);
  m[O / 4 + nOut] = 42; // just past the last output: left alone
  run.dense(M, B, V, 4 * n, nOut, O);
  for (let k = 0; k < nOut; k++) {
    let s = b[k];
    for (let j = 0; j < n; j++) s += mat[k * n + j] * v[j];
    assert.ok(close(m[O / 4 + k], s), `output ${k}: ${m[O / 4 + k]} against ${s}`);
  }
  assert.equal(m[O / 4 + nOut], 42);
});

// Random weights in the exported layout: w1, b1, [wh, bh,] w2, b2.
function exported(hidden, hidden2) {
  const shapes = [["w1", [2, N_INPUTS, hidden]], ["b1", [2, hidden]]];
  if (hidden2) shapes.push(["wh", [2, hidden, hidden2]], ["bh", [2, hidden2]]);
  const last = hidden2 || hidden;
  shapes.push(["w2", [2, last, N_OUTPUTS]], ["b2", [2, N_OUTPUTS]]);
  const arrays = [];
  let bytes = 0;
  for (const [name, shape] of shapes) {
    arrays.push({ name, shape, offset: bytes });
    bytes += 4 * shape.reduce((a, c) => a * c, 1);
  }
  const buffer = Float32Array.from({ length: bytes / 4 }, () => rand() * 0.3).buffer;
  const header = { format: hidden2 ? 2 : 1, inputs: N_INPUTS, hidden, outputs: N_OUTPUTS, arrays, bytes };
  if (hidden2) header.hidden2 = hidden2;
  return [header, buffer];
}

for (const [hidden, hidden2] of [[32, 0], [64, 16], [48, 32]]) {
  test(`networks of ${hidden}${hidden2 ? ` and ${hidden2}` : ""} units: SIMD and plain loops agree`, () => {
    const [header, buffer] = exported(hidden, hidden2);
    const fast = loadWeights(header, buffer), plain = loadWeights(header, buffer, { simd: false });
    assert.notEqual(fast.simd, null);
    assert.equal(plain.simd, null);
    const a = makeWork(hidden, hidden2), b = makeWork(hidden, hidden2);
    const oa = new Float32Array(N_OUTPUTS), ob = new Float32Array(N_OUTPUTS);
    for (let trial = 0; trial < 50; trial++) {
      for (let i = 0; i < N_INPUTS; i++) a.x[i] = b.x[i] = rand() > 0.3 ? 0 : rand() + 0.5;
      for (const net of [0, 1]) {
        forward(fast, net, a, oa);
        forward(plain, net, b, ob);
        for (let k = 0; k < N_OUTPUTS; k++) assert.ok(close(oa[k], ob[k]), `${oa} against ${ob}`);
      }
    }
  });
}

test("layers whose sizes are not multiples of 16 are evaluated by the plain loops", () => {
  const [header, buffer] = exported(40, 0);
  assert.equal(loadWeights(header, buffer).simd, null);
  const [h2, b2] = exported(32, 24);
  assert.equal(loadWeights(h2, b2).simd, null);
});

test("sigmoid is within 2e-7 of 1 / (1 + Math.exp(-x)), in place, and saturates cleanly", () => {
  const n = 4096, run = instantiate(65536), m = new Float32Array(run.memory.buffer);
  const x = Float32Array.from({ length: n }, (_, i) => -120 + 240 * i / n);
  x[0] = 0; x[1] = -0; x[2] = 1e-30; x[3] = 1000; x[4] = -1000;
  m.set(x);
  m[n] = 42;
  run.sigmoid(0, 4 * n);
  for (let i = 0; i < n; i++) {
    const want = 1 / (1 + Math.exp(-x[i]));
    // Relative where the value is a normal float; beyond ±80 it is 1, or 0 give or take 1e-37.
    const tolerance = Math.abs(x[i]) < 80 ? 2e-7 * want : 1e-37;
    assert.ok(Math.abs(m[i] - want) <= tolerance, `sigmoid(${x[i]}) = ${m[i]}, not ${want}`);
  }
  assert.deepEqual([m[0], m[3], m[n]], [0.5, 1, 42]);
});
