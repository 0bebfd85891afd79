// The network's inputs, as table.bot.features encodes them (the tests pin this to it).
// From the player on roll's side: per side 24 points x 4 (truncated unary), bar, off, then the
// hand-made features (pips, blots, hit rolls, prime, anchors, escapes, back, home points, home).

export const POINT_INPUTS = 4;
export const RAW_PER_SIDE = 24 * POINT_INPUTS + 2;
export const HAND_PER_SIDE = 9;
export const PER_SIDE = RAW_PER_SIDE + HAND_PER_SIDE;
export const N_INPUTS = 2 * PER_SIDE;

// The 21 rolls in the order features.py and the look-ahead take them: 11, 21, 22, 31, ... 66.
export const LOW_ROLLS = (() => {
  const out = [];
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= a; b++) out.push([a, b]);
  return out;
})();

// One side's checkers by its own numbering (as the raw board, from that side).
export function sideView(board, mover, out) {
  for (let i = 0; i < 26; i++) out[i] = mover ? board[i] : -board[25 - i];
}

const open = (b, p) => b[p] >= -1;

// Rolls out of 36 on which the side `b` is seen from could hit a blot of the other.
export function hitRolls(b) {
  const blots = [];
  for (let q = 1; q < 25; q++) if (b[q] === -1) blots.push(q);
  if (!blots.length) return 0;
  let total = 0;
  for (const [d1, d2] of LOW_ROLLS) {
    let hit = false;
    for (const q of blots) {
      const top = b[25] > 0 ? 25 : 24;
      const low = b[25] > 0 ? top : q + 1;
      for (let s = low; s <= top; s++) {
        if (b[s] <= 0) continue;
        const d = s - q;
        if (d1 === d2) {
          for (let k = 1; k <= 4 && k * d1 <= d; k++) {
            if (k * d1 === d) { hit = true; break; }
            if (!open(b, s - k * d1)) break;
          }
        } else if (d === d1 || d === d2) {
          hit = true;
        } else if (d === d1 + d2 && (open(b, s - d1) || open(b, s - d2))) {
          hit = true;
        }
        if (hit) break;
      }
      if (hit) break;
    }
    if (hit) total += d1 === d2 ? 1 : 2;
  }
  return total;
}

// Rolls out of 36 that carry the side's rearmost checker past the blocks within 12 pips ahead.
export function escapeRolls(b) {
  let s = 25;
  while (s > 0 && b[s] <= 0) s--;
  if (s === 0) return 36;
  let lo = 0;
  for (let q = Math.max(1, s - 12); q < s; q++) if (b[q] <= -2) { lo = q; break; }
  if (lo === 0) return 36;
  let total = 0;
  for (const [d1, d2] of LOW_ROLLS) {
    let ok = false;
    if (d1 === d2) {
      let p = s;
      for (let k = 0; k < 4; k++) {
        p -= d1;
        if (p < lo) { ok = true; break; }
        if (b[p] <= -2) break;
      }
    } else {
      for (const [a, c] of [[d1, d2], [d2, d1]]) {
        const p = s - a;
        if (p < lo) { ok = true; break; }
        if (b[p] <= -2) continue;
        if (p - c < lo) { ok = true; break; }
      }
    }
    if (ok) total += d1 === d2 ? 1 : 2;
  }
  return total;
}

function encodeSide(v, other, out, base) {
  let onBoard = 0, pips = 0, blots = 0, back = 0, homeMade = 0, homeCount = 0, anchors = 0;
  let run = 0, bestRun = 0;
  for (let p = 1; p < 25; p++) {
    const n = v[p];
    const j = base + (p - 1) * POINT_INPUTS;
    if (n > 0) {
      onBoard += n;
      pips += n * p;
      out[j] = 1;
      out[j + 1] = n >= 2 ? 1 : 0;
      out[j + 2] = n >= 3 ? 1 : 0;
      out[j + 3] = n > 3 ? (n - 3) / 2 : 0;
      if (n === 1) blots++;
      if (p >= 19) { back += n; if (n >= 2) anchors++; }
      if (p <= 6) { homeCount += n; if (n >= 2) homeMade++; }
    } else {
      out[j] = 0; out[j + 1] = 0; out[j + 2] = 0; out[j + 3] = 0;
    }
    if (n >= 2) { run++; if (run > bestRun) bestRun = run; } else run = 0;
  }
  const bar = v[25];
  onBoard += bar;
  pips += 25 * bar;
  back += bar;
  const j = base + 24 * POINT_INPUTS;
  out[j] = bar / 2;
  out[j + 1] = (15 - onBoard) / 15;
  const h = base + RAW_PER_SIDE;
  out[h] = pips / 167;
  out[h + 1] = blots / 4;
  out[h + 2] = hitRolls(other) / 36; // the other side rolls at these blots
  out[h + 3] = bestRun / 6;
  out[h + 4] = anchors / 2;
  out[h + 5] = escapeRolls(v) / 36;
  out[h + 6] = back / 5;
  out[h + 7] = homeMade / 6;
  out[h + 8] = homeCount / 15;
}

// The N_INPUTS inputs of `board` (player on roll's view) into `out` (a Float32Array).
export function encode(board, out, scratch = new Int8Array(26)) {
  sideView(board, false, scratch);
  encodeSide(board, scratch, out, 0);
  encodeSide(scratch, board, out, PER_SIDE);
  return out;
}
