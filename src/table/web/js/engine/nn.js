// The evaluation networks in the browser (table.bot.net is the reference): the shipped weights
// exported by scripts/export-web-weights, one or two sigmoid hidden layers, five sigmoid outputs
// for the player on roll: win, win gammon, win backgammon, lose gammon, lose backgammon.

import { isRace } from "./rules.js";
import { encode, N_INPUTS } from "./features.js";
import { applies as bearoffApplies, probabilities as bearoffProbabilities } from "./bearoff.js";

export const CONTACT = 0, RACE = 1, EXACT = 2;
export const N_OUTPUTS = 5;

// The networks from the exported header (table.json) and binary (table.bin, an ArrayBuffer).
export function loadWeights(header, buffer) {
  if (![1, 2].includes(header.format) || header.inputs !== N_INPUTS || header.outputs !== N_OUTPUTS) {
    throw new Error(`weights of format ${header.format} with ${header.inputs} inputs: this client reads formats 1 and 2 with ${N_INPUTS}`);
  }
  if (buffer.byteLength !== header.bytes) {
    throw new Error(`the weights file has ${buffer.byteLength} bytes; its header says ${header.bytes}`);
  }
  const w = { hidden: header.hidden, hidden2: header.hidden2 || 0 };
  for (const a of header.arrays) {
    const n = a.shape.reduce((x, y) => x * y, 1);
    w[a.name] = new Float32Array(buffer.slice(a.offset, a.offset + 4 * n));
  }
  return w;
}

// Scratch space for one evaluator (nothing is allocated per position).
export function makeWork(hidden, hidden2 = 0) {
  return {
    x: new Float32Array(N_INPUTS), hidden: new Float64Array(hidden), hidden2: new Float64Array(hidden2),
    scratch: new Int8Array(26),
  };
}

// Raw outputs of network `net` for the inputs work.x into `out`.
export function forward(w, net, work, out) {
  const nh = w.hidden, x = work.x, h = work.hidden;
  for (let j = 0; j < nh; j++) h[j] = w.b1[net * nh + j];
  const base = net * N_INPUTS * nh;
  for (let i = 0; i < N_INPUTS; i++) {
    const xi = x[i];
    if (xi !== 0) {
      const row = base + i * nh;
      for (let j = 0; j < nh; j++) h[j] += xi * w.w1[row + j];
    }
  }
  for (let j = 0; j < nh; j++) h[j] = 1 / (1 + Math.exp(-Math.fround(h[j])));
  if (w.hidden2 > 0) {
    secondLayer(w, net, work, out);
    return;
  }
  // The output layer walks w2 in memory order (unit by unit, five outputs each); each sum still
  // adds its terms in the same order.
  const b2 = net * N_OUTPUTS, base2 = net * nh * N_OUTPUTS;
  let s0 = w.b2[b2], s1 = w.b2[b2 + 1], s2 = w.b2[b2 + 2], s3 = w.b2[b2 + 3], s4 = w.b2[b2 + 4];
  for (let j = 0, r = base2; j < nh; j++, r += N_OUTPUTS) {
    const hj = Math.fround(h[j]);
    s0 += hj * w.w2[r]; s1 += hj * w.w2[r + 1]; s2 += hj * w.w2[r + 2];
    s3 += hj * w.w2[r + 3]; s4 += hj * w.w2[r + 4];
  }
  out[0] = 1 / (1 + Math.exp(-Math.fround(s0)));
  out[1] = 1 / (1 + Math.exp(-Math.fround(s1)));
  out[2] = 1 / (1 + Math.exp(-Math.fround(s2)));
  out[3] = 1 / (1 + Math.exp(-Math.fround(s3)));
  out[4] = 1 / (1 + Math.exp(-Math.fround(s4)));
}

// The rest of forward() for networks with a second hidden layer (wh, bh).
function secondLayer(w, net, work, out) {
  const nh = w.hidden, n2 = w.hidden2, h = work.hidden, g = work.hidden2;
  for (let k = 0; k < n2; k++) g[k] = w.bh[net * n2 + k];
  const base = net * nh * n2;
  for (let j = 0; j < nh; j++) {
    const hj = Math.fround(h[j]), row = base + j * n2;
    for (let k = 0; k < n2; k++) g[k] += hj * w.wh[row + k];
  }
  for (let k = 0; k < n2; k++) g[k] = 1 / (1 + Math.exp(-Math.fround(g[k])));
  const base2 = net * n2 * N_OUTPUTS;
  for (let o = 0; o < N_OUTPUTS; o++) {
    let s = w.b2[net * N_OUTPUTS + o];
    for (let k = 0; k < n2; k++) s += Math.fround(g[k]) * w.w2[base2 + k * N_OUTPUTS + o];
    out[o] = 1 / (1 + Math.exp(-Math.fround(s)));
  }
}

// Make raw outputs consistent in place: ordered, and zero where impossible (a side that has
// borne off a checker can no longer be gammoned).
export function tidy(board, p) {
  let mine = 0, theirs = 0;
  for (let i = 0; i < 26; i++) {
    if (board[i] > 0) mine += board[i]; else if (board[i] < 0) theirs -= board[i];
  }
  if (mine < 15) { p[3] = 0; p[4] = 0; }
  if (theirs < 15) { p[1] = 0; p[2] = 0; }
  if (p[1] > p[0]) p[1] = p[0];
  if (p[2] > p[1]) p[2] = p[1];
  if (p[3] > 1 - p[0]) p[3] = 1 - p[0];
  if (p[4] > p[3]) p[4] = p[3];
}

// Cubeless money equity of five probabilities, for the side they are seen from.
export const equity = (p) => 2 * p[0] - 1 + p[1] + p[2] - p[3] - p[4];

// If the game is over, its exact outcome for the player on roll (who lost: the opponent bore
// off last) into `out`, and true.
export function finalProbs(board, out) {
  for (let i = 0; i < 26; i++) if (board[i] < 0) return false;
  let mine = 0, back = false;
  for (let i = 1; i < 26; i++) {
    if (board[i] > 0) { mine += board[i]; if (i >= 19) back = true; }
  }
  out[0] = 0; out[1] = 0; out[2] = 0;
  out[3] = mine === 15 ? 1 : 0;
  out[4] = mine === 15 && back ? 1 : 0;
  return true;
}

// Tidy chances of `board` for the player on roll into `out` (a Float32Array of 5); returns the
// network used, -1 for a finished game, EXACT when the bear-off database `db` knew them.
export function evaluateBoard(w, db, board, work, out) {
  if (finalProbs(board, out)) return -1;
  if (bearoffApplies(db, board)) {
    bearoffProbabilities(db, board, out);
    return EXACT;
  }
  const net = isRace(board) ? RACE : CONTACT;
  encode(board, work.x, work.scratch);
  forward(w, net, work, out);
  tidy(board, out);
  return net;
}
