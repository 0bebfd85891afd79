// The rules in the browser: legal plays on a raw board, for playing offline.
//
// A line-by-line port of table.rules.kernel (the Python engine is the reference; the tests pin
// this file to it on the perft fixture and on random positions).  Plays come out in the kernel's
// own order, so the bot here breaks ties exactly as the Python bot does.
//
// The raw board is an Int8Array of 26 seen from the player on roll: 1..24 the mover's points
// (+ own checkers, - the opponent's), 25 the mover's bar, 0 the opponent's bar (negative).

import { STANDARD, variantOf } from "./variants.js";

export const BOARD_SIZE = 26;
export const BAR = 25;
export const OFF = 0;
export const CHECKERS = STANDARD.checkers;

// The 21 distinct rolls, higher die first, in the kernel's order (66, 65, 64, ..., 11).
export const ROLLS = (() => {
  const out = [];
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= a; b++) out.push([a, b]);
  return out.reverse();
})();

// The opening position of `variant` (a variant or its name; standard backgammon by default), the
// same from either side: the start board Python's Position.initial gives (variants.json).
export const initialBoard = (variant = STANDARD) => Int8Array.from(variantOf(variant).board);

// The board as the opponent sees it.
export function flip(board) {
  const out = new Int8Array(BOARD_SIZE);
  for (let i = 0; i < BOARD_SIZE; i++) out[i] = -board[BOARD_SIZE - 1 - i];
  return out;
}

// The mover's highest occupied point (25 for the bar), 0 when none.
export function highestPoint(board) {
  for (let i = BAR; i > 0; i--) if (board[i] > 0) return i;
  return 0;
}

// Where one checker from `src` lands with `die`, or -1 if it may not move.
export function stepTarget(board, src, die, high) {
  if (board[src] <= 0) return -1;
  if (board[BAR] > 0 && src !== BAR) return -1;
  const dst = src - die;
  if (dst >= 1) return board[dst] >= -1 ? dst : -1;
  if (high > 6) return -1; // bearing off needs every checker home
  if (dst === 0) return 0;
  return src === high ? 0 : -1; // a higher die bears off only from the highest point
}

// Move one checker in place; true when it hit a blot.
export function applyStep(board, src, dst) {
  board[src] -= 1;
  if (dst === OFF) return false;
  if (board[dst] === -1) {
    board[dst] = 1;
    board[OFF] -= 1;
    return true;
  }
  board[dst] += 1;
  return false;
}

// FNV-1a over the board's entries (26, or 28 where checkers wait off the board: reserve.js): the
// duplicate check's first look (boards are compared after it).
function boardHash(board) {
  let h = 0x811c9dc5;
  for (let i = 0; i < board.length; i++) h = Math.imul(h ^ (board[i] + 16), 0x01000193);
  return h >>> 0;
}

function sameBoard(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Every legal play of the roll d1-d2: [{board, steps: [[from, to], ...]}], one per distinct
// resulting board (left from the mover's point of view), in the kernel's order.  Plays using fewer
// dice than another are dropped; when only one die of a non-double can be played, the higher one
// is kept if it can be.
export function generate(board, d1, d2) {
  const st = { best: -1, plays: [], seen: new Map() };
  if (d1 === d2) {
    search(board, [d1, d1, d1, d1], true, st);
  } else {
    search(board, [d1, d2], false, st);
    search(board, [d2, d1], false, st);
  }
  return st.plays;
}

// Keep a candidate play (its board and first `n` steps) unless a fuller one is known or its board
// is already kept: the first sequence found for a board is the one kept, as in the kernel.
// `st` is {best: -1, plays: [], seen: new Map()} at the start (reserve.js keeps its plays so too).
export function record(st, board, steps, n, priority) {
  if (priority < st.best) return;
  if (priority > st.best) {
    st.best = priority;
    st.plays = [];
    st.seen = new Map();
  }
  const h = boardHash(board);
  const same = st.seen.get(h);
  if (same && same.some((k) => sameBoard(st.plays[k].board, board))) return;
  if (same) same.push(st.plays.length); else st.seen.set(h, [st.plays.length]);
  const own = [];
  for (let i = 0; i < n; i++) own.push([steps[i][0], steps[i][1]]);
  st.plays.push({ board: Int8Array.from(board), steps: own });
}

// Depth-first over the checkers each die may move, as the kernel walks them: with doubles the
// sources are taken in non-increasing order (any sequence of equal dice can be so reordered).
// Scratch rows for the search, one per die (it never runs twice at once: no allocation per call).
const stack = [0, 1, 2, 3, 4].map(() => new Int8Array(BOARD_SIZE));
const highs = new Int32Array(5), srcs = new Int32Array(5), moved = new Int32Array(5);
const steps = [[0, 0], [0, 0], [0, 0], [0, 0]];

function search(board, dice, doubles, st) {
  const ndice = dice.length;
  stack[0].set(board);
  highs[0] = highestPoint(board);
  srcs[0] = highs[0] + 1;
  let level = 0;
  while (level >= 0) {
    const cur = stack[level], die = dice[level], high = highs[level];
    let s = Math.min(srcs[level] - 1, high);
    let dst = -1;
    while (s >= 1) {
      dst = stepTarget(cur, s, die, high);
      if (dst >= 0) break;
      s -= 1;
    }
    if (s >= 1) {
      srcs[level] = s;
      moved[level] = 1;
      const nxt = stack[level + 1];
      nxt.set(cur);
      applyStep(nxt, s, dst);
      steps[level][0] = s;
      steps[level][1] = dst;
      let nh = high;
      while (nh > 0 && nxt[nh] <= 0) nh -= 1;
      highs[level + 1] = nh;
      if (level + 1 === ndice) {
        record(st, nxt, steps, ndice, 100);
      } else {
        level += 1;
        srcs[level] = doubles ? s + 1 : BAR + 1;
        moved[level] = 0;
      }
    } else {
      if (moved[level] === 0 && level > 0) {
        // No die left at this level can move: a play using fewer dice.
        record(st, stack[level], steps, level, doubles ? level : 10 + dice[0]);
      }
      level -= 1;
    }
  }
}

// True when every checker of the mover is past every checker of the opponent.
export function isRace(board) {
  let myBack = 0;
  for (let i = 25; i > 0; i--) if (board[i] > 0) { myBack = i; break; }
  let theirBack = 25;
  for (let i = 0; i < 25; i++) if (board[i] < 0) { theirBack = i; break; }
  return myBack < theirBack;
}
