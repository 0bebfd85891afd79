// The one-sided bear-off database (table.bot.bearoff is the reference), built in the browser on
// first use: for every placement of up to 15 checkers on a home board (54,264), the chances of
// needing exactly n rolls to bear them all off, and to bear the first one off (gammons); and,
// since boards with the same two distributions are equivalent in a race, each board's class
// representative, as which the evaluators judge a home side without contact.

import { generate } from "./rules.js";

export const POINTS = 6;
export const MAX_ROLLS = 40;
export const N_POSITIONS = 54264;

// Binomial coefficients C(n, k) for n up to 21 (15 checkers + 6 point ends), k up to 6.
const BINOM = (() => {
  const t = [];
  for (let n = 0; n <= 21; n++) {
    t.push(new Float64Array(POINTS + 1));
    for (let k = 0; k <= POINTS; k++) t[n][k] = k === 0 ? 1 : n === 0 ? 0 : t[n - 1][k - 1] + t[n - 1][k];
  }
  return t;
})();
const binom = (n, k) => (k > n ? 0 : BINOM[n][k]);

// Index of one side's home board: the mover's checkers on 1..6, or the opponent's on 24..19.
export function index(board, mover) {
  let pos = 0, rank = 0;
  for (let p = 1; p <= POINTS; p++) {
    const n = Math.max(mover ? board[p] : -board[25 - p], 0);
    pos += n;
    rank += binom(pos, p);
    pos += 1;
  }
  return rank;
}

// Every placement of up to 15 checkers on the six points, as [0, n1, ..., n6].
function allPlacements() {
  const placements = [];
  for (let a = 0; a < 16; a++) for (let b = 0; b < 16 - a; b++) for (let c = 0; c < 16 - a - b; c++)
    for (let d = 0; d < 16 - a - b - c; d++) for (let e = 0; e < 16 - a - b - c - d; e++)
      for (let f = 0; f < 16 - a - b - c - d - e; f++) placements.push([0, a, b, c, d, e, f]);
  return placements;
}

// The database: {finish, first}, each a Float32Array of N_POSITIONS x MAX_ROLLS, and rep, the
// representatives (see `representatives`).
export function build() {
  const finish = new Float64Array(N_POSITIONS * MAX_ROLLS);
  const first = new Float64Array(N_POSITIONS * MAX_ROLLS);
  const placements = allPlacements();
  const pips = placements.map((c) => c[1] + 2 * c[2] + 3 * c[3] + 4 * c[4] + 5 * c[5] + 6 * c[6]);
  // Fewest pips first (a stable sort, as the Python build's): every play leads to fewer pips.
  const order = placements.map((_, i) => i).sort((i, j) => pips[i] - pips[j]);
  const mean = new Float64Array(N_POSITIONS), meanFirst = new Float64Array(N_POSITIONS);
  const board = new Int8Array(26);
  const onBoard = (bd) => bd[1] + bd[2] + bd[3] + bd[4] + bd[5] + bd[6];
  for (const i of order) {
    board.fill(0);
    for (let p = 1; p <= POINTS; p++) board[p] = placements[i][p];
    const total = onBoard(board);
    const idx = index(board, true), row = idx * MAX_ROLLS;
    if (total === 0) { finish[row] = 1; first[row] = 1; continue; }
    if (total < 15) first[row] = 1; // a checker is already off
    for (let d1 = 1; d1 <= 6; d1++) {
      for (let d2 = 1; d2 <= d1; d2++) {
        const w = (d1 === d2 ? 1 : 2) / 36;
        const plays = generate(board, d1, d2);
        let best = -1, bestM = 1e9, bestF = -1, bestFm = 1e9;
        plays.forEach((play, j) => {
          const cj = index(play.board, true);
          if (mean[cj] < bestM) { bestM = mean[cj]; best = cj; }
          // For the first checker off: a play that bears one off wins outright.
          const fm = onBoard(play.board) < 15 ? 0 : meanFirst[cj];
          if (fm < bestFm) { bestFm = fm; bestF = j; }
        });
        const from = best * MAX_ROLLS;
        for (let r = 1; r < MAX_ROLLS; r++) finish[row + r] += w * finish[from + r - 1];
        finish[row + MAX_ROLLS - 1] += w * finish[from + MAX_ROLLS - 1];
        if (total === 15) {
          if (onBoard(plays[bestF].board) < 15) {
            first[row + 1] += w;
          } else {
            const cf = index(plays[bestF].board, true) * MAX_ROLLS;
            for (let r = 1; r < MAX_ROLLS; r++) first[row + r] += w * first[cf + r - 1];
          }
        }
      }
    }
    let m = 0, mf = 0;
    for (let r = 0; r < MAX_ROLLS; r++) { m += r * finish[row + r]; mf += r * first[row + r]; }
    mean[idx] = m;
    meanFirst[idx] = mf;
  }
  const db = { finish: Float32Array.from(finish), first: Float32Array.from(first) };
  db.rep = representatives(db.finish, db.first, placements);
  return db;
}

// True when the database is there and both sides are in their home boards.
export function applies(db, board) {
  if (!db) return false;
  if (board[25] !== 0 || board[0] !== 0) return false;
  for (let p = 7; p < 25; p++) if (board[p] > 0) return false;
  for (let p = 1; p < 19; p++) if (board[p] < 0) return false;
  return true;
}

// Exact chances for the player on roll when both sides are home (see `applies`) into `out`;
// each side started with `checkers` (the database's first-off layer must count them).
export function probabilities(db, board, out, checkers = 15) {
  const a = index(board, true) * MAX_ROLLS, b = index(board, false) * MAX_ROLLS;
  let mine = 0, theirs = 0;
  for (let p = 1; p <= 6; p++) {
    if (board[p] > 0) mine += board[p];
    if (board[25 - p] < 0) theirs -= board[25 - p];
  }
  let win = 0, gam = 0, lgam = 0, tb = 1, tfb = 1;
  for (let n = 0; n < MAX_ROLLS; n++) {
    win += db.finish[a + n] * tb;
    if (theirs === checkers) gam += db.finish[a + n] * tfb;
    tb -= db.finish[b + n];
    tfb -= db.first[b + n];
  }
  if (mine === checkers) {
    // The opponent wins on its roll m after our m rolls: we need more than m for a first off.
    let tfa = 1;
    for (let m = 0; m < MAX_ROLLS; m++) {
      tfa -= db.first[a + m];
      lgam += db.finish[b + m] * tfa;
    }
  }
  if (win > 1) win = 1;
  out[0] = win;
  out[1] = Math.min(gam, win);
  out[2] = 0;
  out[3] = Math.min(lgam, 1 - win);
  out[4] = 0;
}

// The representatives' layer: for each board, REP_WIDTH bytes, the checkers its representative
// has on points 1..6, then 1 where that is not the board itself.
export const REP_WIDTH = POINTS + 1;
const SAME = 1e-6; // distributions this close (the build's rounding) are the same

// The representatives of the single-precision distributions `finish` and `first`: boards whose
// two distributions agree within SAME form a class (linked through any chain of such pairs), and
// its representative is the board whose rearmost checker is lowest (then the fewest pips, the
// fewest checkers, the lowest index), so it never reaches past a board of its class: put in
// place of one, it meets none of the other side's checkers, and a race stays a race.
export function representatives(finish, first, placements = allPlacements()) {
  const n = N_POSITIONS, counts = new Uint8Array(n * POINTS), board = new Int8Array(26);
  for (const c of placements) {
    for (let p = 1; p <= POINTS; p++) board[p] = c[p];
    counts.set(c.slice(1), index(board, true) * POINTS);
  }
  // Rows within SAME of each other project, on weights from 0 to 1, within SAME times the
  // weights' sum (and a margin for the sums' rounding): only boards that near in the order of
  // the projection need comparing.
  let seed = 2026;
  const weights = new Float64Array(2 * MAX_ROLLS).map(() => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  });
  const proj = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let r = 0; r < MAX_ROLLS; r++) s += weights[r] * finish[i * MAX_ROLLS + r] + weights[MAX_ROLLS + r] * first[i * MAX_ROLLS + r];
    proj[i] = s;
  }
  const window = SAME * weights.reduce((a, b) => a + b, 0) + 1e-9;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((i, j) => proj[i] - proj[j]);
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const root = (i) => {
    while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; }
    return i;
  };
  const same = (a, b) => {
    for (let r = a * MAX_ROLLS, t = b * MAX_ROLLS, e = r + MAX_ROLLS; r < e; r++, t++) {
      if (Math.abs(finish[r] - finish[t]) > SAME || Math.abs(first[r] - first[t]) > SAME) return false;
    }
    return true;
  };
  for (let k = 0; k < n; k++) {
    const a = order[k];
    for (let j = k + 1; j < n && proj[order[j]] - proj[a] <= window; j++) {
      if (same(a, order[j])) parent[root(a)] = root(order[j]);
    }
  }
  const key = (i) => {
    let back = 0, pips = 0, total = 0;
    for (let p = 1; p <= POINTS; p++) {
      const c = counts[i * POINTS + p - 1];
      if (c) back = p;
      pips += p * c;
      total += c;
    }
    return [back, pips, total, i];
  };
  const before = (x, y) => { for (let k = 0; k < 4; k++) if (x[k] !== y[k]) return x[k] < y[k]; return false; };
  const best = new Map();
  for (let i = 0; i < n; i++) {
    const r = root(i), k = best.get(r), ki = key(i);
    if (k === undefined || before(ki, k)) best.set(r, ki);
  }
  const rep = new Uint8Array(n * REP_WIDTH);
  for (let i = 0; i < n; i++) {
    const r = best.get(root(i))[3];
    rep.set(counts.subarray(r * POINTS, (r + 1) * POINTS), i * REP_WIDTH);
    rep[i * REP_WIDTH + POINTS] = r !== i ? 1 : 0;
  }
  return rep;
}

// True when every checker of that side is on its own points 1-6 (or off).
function home(board, mover) {
  for (let p = POINTS + 1; p < 26; p++) if (mover ? board[p] > 0 : board[25 - p] < 0) return false;
  return true;
}

// True when a home side of this race `board` is not its class representative (false without
// the database or its representatives: a database kept by an older client has none).
export function equivalentDiffers(db, board) {
  if (!db || !db.rep) return false;
  for (const mover of [true, false]) {
    if (home(board, mover) && db.rep[index(board, mover) * REP_WIDTH + POINTS] !== 0) return true;
  }
  return false;
}

// `board` with each home side's checkers replaced by its class representative, into `out`: only
// for a race where `equivalentDiffers`, the equivalent position the evaluators judge.
export function canonicalInto(db, board, out) {
  out.set(board);
  for (const mover of [true, false]) {
    if (!home(board, mover)) continue;
    const row = index(board, mover) * REP_WIDTH, sign = mover ? 1 : -1;
    // The other side's checkers may share these six points, past the rearmost of this side's,
    // where the representative never reaches: lift only this side's.
    for (let p = 1; p <= POINTS; p++) {
      const q = mover ? p : 25 - p;
      if (board[q] * sign > 0) out[q] = 0;
    }
    for (let p = 1; p <= POINTS; p++) {
      const c = db.rep[row + p - 1];
      if (c) out[mover ? p : 25 - p] = sign * c;
    }
  }
}
