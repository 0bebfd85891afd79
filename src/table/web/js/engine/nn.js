// The evaluation networks in the browser (table.bot.net is the reference): the shipped weights
// exported by scripts/export-web-weights, one or two sigmoid hidden layers, five sigmoid outputs
// for the player on roll: win, win gammon, win backgammon, lose gammon, lose backgammon.

import { isRace } from "./rules.js";
import { encode, N_INPUTS } from "./features.js";
import { applies as bearoffApplies, canonicalInto, equivalentDiffers, probabilities as bearoffProbabilities } from "./bearoff.js";
import { instantiate } from "./simd.js";

export const CONTACT = 0, RACE = 1, EXACT = 2;
export const N_OUTPUTS = 5;

// The networks from the exported header (table.json) and binary (table.bin, an ArrayBuffer).
// With `simd` (the default) and where the browser has WebAssembly SIMD, the layers are evaluated
// by simd.js; otherwise, or with layers whose sizes are not multiples of 16, by plain loops.
export function loadWeights(header, buffer, { simd = true } = {}) {
  if (![1, 2].includes(header.format) || header.inputs !== N_INPUTS || header.outputs !== N_OUTPUTS) {
    throw new Error(`weights of format ${header.format} with ${header.inputs} inputs: this client reads formats 1 and 2 with ${N_INPUTS}`);
  }
  if (buffer.byteLength !== header.bytes) {
    throw new Error(`the weights file has ${buffer.byteLength} bytes; its header says ${header.bytes}`);
  }
  const w = { hidden: header.hidden, hidden2: header.hidden2 || 0, simd: null };
  for (const a of header.arrays) {
    const n = a.shape.reduce((x, y) => x * y, 1);
    w[a.name] = new Float32Array(buffer.slice(a.offset, a.offset + 4 * n));
  }
  if (w.hidden2) w.whT = transposed(w.wh, 2, w.hidden, w.hidden2);
  if (simd && w.hidden % 16 === 0 && w.hidden2 % 16 === 0) w.simd = simdLayout(w);
  return w;
}

// The weights copied into a WebAssembly memory, as simd.js reads them (matrices one row per
// unit), with room for one position's inputs and activations; null where SIMD is unavailable.
function simdLayout(w) {
  const nh = w.hidden, n2 = w.hidden2, last = n2 || nh;
  const arrays = {
    w1: w.w1, b1: w.b1, whT: w.whT || new Float32Array(0), bh: w.bh || new Float32Array(0),
    w2T: transposed(w.w2, 2, last, N_OUTPUTS), b2: w.b2,
    x: new Float32Array(N_INPUTS), h: new Float32Array(nh), g: new Float32Array(n2), o: new Float32Array(N_OUTPUTS),
  };
  const at = {};
  let bytes = 0;
  for (const [key, a] of Object.entries(arrays)) {
    at[key] = bytes;
    bytes += Math.ceil(a.length / 4) * 16; // every array starts 16-byte aligned
  }
  const run = instantiate(bytes);
  if (!run) return null;
  const f32 = new Float32Array(run.memory.buffer);
  for (const [key, a] of Object.entries(arrays)) f32.set(a, at[key] / 4);
  return { run, f32, at };
}

// `count` row-major rows × cols matrices, one after the other, each transposed.
function transposed(a, count, rows, cols) {
  const t = new Float32Array(a.length);
  for (let m = 0, base = 0; m < count; m++, base += rows * cols) {
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) t[base + j * rows + i] = a[base + i * cols + j];
  }
  return t;
}

// Scratch space for one evaluator (nothing is allocated per position).
export function makeWork(hidden, hidden2 = 0) {
  return {
    x: new Float32Array(N_INPUTS), hidden: new Float32Array(hidden), hidden2: new Float32Array(hidden2),
    scratch: new Int8Array(26), same: new Int8Array(26),
  };
}

// Raw outputs of network `net` for the inputs work.x into `out`. The weights are read through
// local references and the hidden sums kept in single precision: V8 runs these loops faster so,
// and single precision is what the Python evaluator sums in.
export function forward(w, net, work, out) {
  if (w.simd) {
    simdForward(w, net, work.x, out);
    return;
  }
  const nh = w.hidden, x = work.x, h = work.hidden, w1 = w.w1, b1 = w.b1;
  for (let j = 0, b = net * nh; j < nh; j++) h[j] = b1[b + j];
  const base = net * N_INPUTS * nh;
  for (let i = 0; i < N_INPUTS; i++) {
    const xi = x[i];
    if (xi !== 0) {
      for (let j = 0, r = base + i * nh; j < nh; j++, r++) h[j] += xi * w1[r];
    }
  }
  for (let j = 0; j < nh; j++) h[j] = 1 / (1 + Math.exp(-h[j]));
  if (w.hidden2 > 0) {
    secondLayer(w, net, work, out);
    return;
  }
  // The output layer walks w2 in memory order (unit by unit, five outputs each); each sum still
  // adds its terms in the same order.
  const w2 = w.w2, b2 = w.b2, o2 = net * N_OUTPUTS, base2 = net * nh * N_OUTPUTS;
  let s0 = b2[o2], s1 = b2[o2 + 1], s2 = b2[o2 + 2], s3 = b2[o2 + 3], s4 = b2[o2 + 4];
  for (let j = 0, r = base2; j < nh; j++, r += N_OUTPUTS) {
    const hj = h[j];
    s0 += hj * w2[r]; s1 += hj * w2[r + 1]; s2 += hj * w2[r + 2];
    s3 += hj * w2[r + 3]; s4 += hj * w2[r + 4];
  }
  out[0] = 1 / (1 + Math.exp(-Math.fround(s0)));
  out[1] = 1 / (1 + Math.exp(-Math.fround(s1)));
  out[2] = 1 / (1 + Math.exp(-Math.fround(s2)));
  out[3] = 1 / (1 + Math.exp(-Math.fround(s3)));
  out[4] = 1 / (1 + Math.exp(-Math.fround(s4)));
}

// The rest of forward() for networks with a second hidden layer: each second-layer unit is one
// dot product over the first layer (whT is wh transposed at load time), summed in four
// interleaved parts, which V8 runs about twice as fast as adding row after row of wh.
function secondLayer(w, net, work, out) {
  const nh = w.hidden, n2 = w.hidden2, h = work.hidden, g = work.hidden2, whT = w.whT, w2 = w.w2;
  for (let k = 0, r = net * n2 * nh, b = net * n2; k < n2; k++) {
    let s0 = w.bh[b + k], s1 = 0, s2 = 0, s3 = 0, j = 0;
    for (; j + 3 < nh; j += 4, r += 4) {
      s0 += h[j] * whT[r]; s1 += h[j + 1] * whT[r + 1]; s2 += h[j + 2] * whT[r + 2]; s3 += h[j + 3] * whT[r + 3];
    }
    for (; j < nh; j++, r++) s0 += h[j] * whT[r];
    g[k] = 1 / (1 + Math.exp(-Math.fround(s0 + s1 + s2 + s3)));
  }
  const base2 = net * n2 * N_OUTPUTS;
  for (let o = 0; o < N_OUTPUTS; o++) {
    let s = w.b2[net * N_OUTPUTS + o];
    for (let k = 0, r = base2 + o; k < n2; k++, r += N_OUTPUTS) s += g[k] * w2[r];
    out[o] = 1 / (1 + Math.exp(-Math.fround(s)));
  }
}

// forward() by simd.js: the same sums, in single precision, in a different order.
function simdForward(w, net, x, out) {
  const { run, f32, at } = w.simd, nh = w.hidden, n2 = w.hidden2;
  f32.set(x, at.x / 4);
  run.layer1(at.w1 + 4 * net * N_INPUTS * nh, at.b1 + 4 * net * nh, at.x, N_INPUTS, 4 * nh, at.h);
  run.sigmoid(at.h, 4 * nh);
  let last = at.h, n = nh;
  if (n2) {
    run.dense(at.whT + 4 * net * n2 * nh, at.bh + 4 * net * n2, at.h, 4 * nh, n2, at.g);
    run.sigmoid(at.g, 4 * n2);
    last = at.g;
    n = n2;
  }
  run.dense(at.w2T + 4 * net * N_OUTPUTS * n, at.b2 + 4 * net * N_OUTPUTS, last, 4 * n, N_OUTPUTS, at.o);
  run.sigmoid(at.o, 32); // the outputs' region holds 8 floats: the last 3 are scratch
  for (let k = 0; k < N_OUTPUTS; k++) out[k] = f32[at.o / 4 + k];
}

// Make raw outputs consistent in place: ordered, and zero where impossible (a side that has
// borne off a checker, of the `checkers` each started with, can no longer be gammoned).
export function tidy(board, p, checkers = 15) {
  let mine = 0, theirs = 0;
  for (let i = 0; i < 26; i++) {
    if (board[i] > 0) mine += board[i]; else if (board[i] < 0) theirs -= board[i];
  }
  if (mine < checkers) { p[3] = 0; p[4] = 0; }
  if (theirs < checkers) { p[1] = 0; p[2] = 0; }
  if (p[1] > p[0]) p[1] = p[0];
  if (p[2] > p[1]) p[2] = p[1];
  if (p[3] > 1 - p[0]) p[3] = 1 - p[0];
  if (p[4] > p[3]) p[4] = p[3];
}

// Cubeless money equity of five probabilities, for the side they are seen from.
export const equity = (p) => 2 * p[0] - 1 + p[1] + p[2] - p[3] - p[4];

// If the game is over, its exact outcome for the player on roll (who lost: the opponent bore
// off last) into `out`, and true.  Each side started with `checkers` (the variant's).
export function finalProbs(board, out, checkers = 15) {
  for (let i = 0; i < 26; i++) if (board[i] < 0) return false;
  let mine = 0, back = false;
  for (let i = 1; i < 26; i++) {
    if (board[i] > 0) { mine += board[i]; if (i >= 19) back = true; }
  }
  out[0] = 0; out[1] = 0; out[2] = 0;
  out[3] = mine === checkers ? 1 : 0;
  out[4] = mine === checkers && back ? 1 : 0;
  return true;
}

// Tidy chances of `board` for the player on roll into `out` (a Float32Array of 5); returns the
// network used, -1 for a finished game, EXACT when the bear-off database `db` knew them.
export function evaluateBoard(w, db, board, work, out, checkers = 15) {
  if (finalProbs(board, out, checkers)) return -1;
  if (bearoffApplies(db, board)) {
    bearoffProbabilities(db, board, out, checkers);
    return EXACT;
  }
  if (!isRace(board)) {
    judge(w, CONTACT, board, work, out, checkers);
    return CONTACT;
  }
  if (equivalentDiffers(db, board)) {
    // A home side is judged as its bear-off class's representative, so that boards with the
    // same roll distributions get the same chances.
    canonicalInto(db, board, work.same);
    judge(w, RACE, work.same, work, out, checkers);
  } else {
    judge(w, RACE, board, work, out, checkers);
  }
  return RACE;
}

// The network `net`'s tidy chances for `board` into `out`.
function judge(w, net, board, work, out, checkers) {
  encode(board, work.x, work.scratch);
  forward(w, net, work, out);
  tidy(board, out, checkers);
}
