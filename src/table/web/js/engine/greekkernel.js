// The move generator of the two Greek games without hitting, Plakoto and Fevga, in the browser.
//
// A port of table.rules.greekkernel (the Python engine is the reference; tests/e2e/test_greek_parity.py
// pins this file to it on tests/fixtures/greek-perft.json and on random positions).  Plays come out
// in the Python generator's order.  `game` is PLAKOTO or FEVGA (greek.js reads it from a variant).
//
// Plakoto's board (50 entries, from the player on roll): 1..24 the checkers on top of each of the
// mover's points (+ the mover's, - the opponent's), 0 and 25 (the bars) always 0, then 25 + p for p
// in 1..24: +1 if a checker of the mover is pinned on p under the opponent's, -1 if an opponent's
// is pinned there under the mover's, 0 if none.
// Fevga's board (26 entries): 1..24 as the standard board, both sides in the mover's numbering; the
// opponent's own point q is the mover's point rotated(q) (each side's 24-point is the other's 12).

import { ROLLS, record } from "./rules.js";

export const PLAKOTO = 0;
export const FEVGA = 1;
export const PLAKOTO_SIZE = 50;
export const FEVGA_SIZE = 26;
export const PINS = 25; // the pinned flag of point p is board[PINS + p]
const CHECKERS = 15;
const HOME = 6;

// Fevga: the other side's number for point p (the same map both ways).
export const rotated = (p) => ((p + 11) % 24) + 1;

// The board as the opponent sees it (its length tells the game).
export function turnRound(board) {
  const out = new Int8Array(board.length);
  if (board.length === PLAKOTO_SIZE) {
    for (let i = 0; i < 26; i++) out[i] = -board[25 - i];
    for (let k = 26; k < PLAKOTO_SIZE; k++) out[k] = -board[75 - k];
  } else {
    for (let p = 1; p <= 24; p++) out[p] = -board[rotated(p)];
  }
  return out;
}

// Fevga: a checker of the mover is on its 11-point or lower, or borne off.
function passed(b) {
  let onBoard = 0;
  for (let p = 1; p <= 24; p++) {
    if (b[p] > 0) {
      onBoard += b[p];
      if (p <= 11) return true;
    }
  }
  return onBoard < CHECKERS;
}

// Fevga's first checker: leaving the 24-point needs a checker past the opponent's start, or none
// off the 24-point yet.
function mayLeaveStart(b) {
  if (passed(b)) return true;
  let onBoard = 0;
  for (let p = 1; p <= 24; p++) if (b[p] > 0) onBoard += b[p];
  return onBoard === b[24];
}

// Where the mover's checker on `src` lands with `die` (0: borne off), or -1 (graph.js walks it for the board).
export function target(b, src, die, game) {
  if (b[src] <= 0) return -1; // a pinned checker is not in b[src]: it never moves
  if (game === FEVGA && src === 24 && !mayLeaveStart(b)) return -1;
  const dst = src - die;
  if (dst >= 1) {
    if (game === PLAKOTO) {
      if (b[dst] <= -2 || (b[dst] < 0 && b[PINS + dst] > 0)) return -1;
    } else if (b[dst] < 0) {
      return -1;
    }
    return dst;
  }
  for (let p = 24; p > HOME; p--) if (b[p] > 0) return -1;
  if (game === PLAKOTO) {
    for (let p = 1; p <= 24; p++) if (b[PINS + p] > 0) return -1;
  }
  if (dst === 0) return 0;
  for (let p = HOME; p > src; p--) if (b[p] > 0) return -1;
  return 0;
}

// Move one checker in place; true when it pinned one (Plakoto).
export function apply(b, src, dst, game) {
  b[src] -= 1;
  if (game === PLAKOTO && b[src] === 0 && b[PINS + src] < 0) {
    b[src] = -1; // the last captor left: the pinned checker is free again
    b[PINS + src] = 0;
  }
  if (dst === 0) return false;
  if (game === PLAKOTO && b[dst] === -1 && b[PINS + dst] === 0) {
    b[dst] = 1;
    b[PINS + dst] = -1;
    return true;
  }
  b[dst] += 1;
  return false;
}

// Whether a play may leave this position (Fevga: not all six of 19-24 held).
function allowed(b, game) {
  if (game !== FEVGA) return true;
  for (let p = 19; p <= 24; p++) if (b[p] <= 0) return true;
  return false;
}

// Fevga: the mover holds six points in a row directly in front of every opponent checker left on
// the board, all on one point (the opponent could never move).
export function traps(b) {
  let where = 0;
  for (let p = 1; p <= 24; p++) {
    if (b[p] < 0) {
      if (where) return false;
      where = p;
    }
  }
  if (where === 0) return false;
  const q = rotated(where); // the opponent's own number for its point
  if (q < 7) return false;
  for (let r = q - 6; r < q; r++) if (b[rotated(r)] <= 0) return false;
  return true;
}

// rules.js's record, keeping each kept play's pin flags beside its steps.
function keep(st, board, steps, hits, n, priority) {
  const before = st.plays, count = before.length;
  record(st, board, steps, n, priority);
  if (st.plays !== before || st.plays.length > count) st.plays[st.plays.length - 1].hits = hits.slice(0, n);
}

// Every sequence of steps of `dice` in this order; each allowed one is a candidate.  `ordered`:
// take a double's sources rearmost first (each at most the previous one's).
function walk(board, dice, game, ordered, st) {
  const ndice = dice.length, doubles = ndice === 4;
  const stack = Array.from({ length: 5 }, () => new Int8Array(board.length));
  const srcs = new Int32Array(5), lims = new Int32Array(5).fill(24);
  const steps = [[0, 0], [0, 0], [0, 0], [0, 0]];
  const hits = [false, false, false, false];
  stack[0].set(board);
  let level = 0;
  while (level >= 0) {
    const cur = stack[level];
    let s = srcs[level] + 1, dst = -1;
    while (s <= lims[level]) {
      dst = target(cur, s, dice[level], game);
      if (dst >= 0) break;
      s += 1;
    }
    if (s > lims[level]) {
      level -= 1;
      continue;
    }
    srcs[level] = s;
    const nxt = stack[level + 1];
    nxt.set(cur);
    hits[level] = apply(nxt, s, dst, game);
    steps[level][0] = s;
    steps[level][1] = dst;
    if (allowed(nxt, game)) {
      const priority = doubles ? level + 1 : level === 1 ? 100 : 10 + dice[0];
      keep(st, nxt, steps, hits, level + 1, priority);
    }
    if (level + 1 < ndice) {
      level += 1;
      srcs[level] = 0;
      lims[level] = ordered ? s : 24;
    }
  }
}

// Every legal play of d1-d2: [{board, steps, hits}], one per distinct resulting board (left from
// the mover's side), in greekkernel.generate_greek's order; `hits` says which steps pinned a
// checker.  Of the sequences whose position is allowed, those using the most dice are kept, and of
// one die of a non-double, the higher where it can be played; Fevga then drops the plays that trap
// the opponent behind a prime, unless every kept play does.
export function generateGreek(board, d1, d2, game) {
  const st = { best: -1, plays: [], seen: new Map() };
  const doubles = d1 === d2;
  // A double's steps commute, so one order of sources finds every play: in Plakoto always; in
  // Fevga once the first-checker rule can no longer bind during the turn.
  const ordered = doubles && (game === PLAKOTO || board[24] <= 0 || passed(board));
  if (doubles) {
    walk(board, [d1, d1, d1, d1], game, ordered, st);
  } else {
    walk(board, [d1, d2], game, false, st);
    walk(board, [d2, d1], game, false, st);
  }
  if (game === FEVGA && st.plays.length) {
    const free = st.plays.filter((p) => !traps(p.board));
    if (free.length) return free;
  }
  return st.plays;
}

// Whether the game is over: a side has borne off everything, or (Plakoto) a pinned mother has
// decided it (greekkernel._over; greek.js scores it).
export function isOver(board) {
  let mine = false, theirs = false;
  for (let i = 0; i < board.length; i++) {
    if (board[i] > 0) mine = true;
    else if (board[i] < 0) theirs = true;
  }
  if (!(mine && theirs)) return true;
  if (board.length === PLAKOTO_SIZE) {
    const myMother = board[PINS + 24] > 0, theirMother = board[PINS + 1] < 0;
    if (myMother || theirMother) {
      return (myMother && theirMother) || (myMother && board[1] >= 0) || (theirMother && board[24] <= 0);
    }
  }
  return false;
}

// Leaves of the game tree `plies` deep: every roll of the 21, every play of it; a roll with no
// play passes (one branch, the board turned round), a finished game is a leaf at any depth: the
// counts of tests/fixtures/greek-perft.json (greekkernel.count_tree).
export function countGreekTree(board, plies, game) {
  if (plies === 0 || isOver(board)) return 1;
  let total = 0;
  for (const [d1, d2] of ROLLS) {
    const plays = generateGreek(board, d1, d2, game);
    if (!plays.length) total += countGreekTree(turnRound(board), plies - 1, game);
    for (const p of plays) total += countGreekTree(turnRound(p.board), plies - 1, game);
  }
  return total;
}
