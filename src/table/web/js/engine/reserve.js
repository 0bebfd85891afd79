// The rules in the browser for the variants whose checkers start off the board (Race, Dutch,
// Acey-Deucey): their 28-entry board, legal plays, extended Position IDs and "in/" notation.
//
// A port of table.rules.reservekernel and table.rules.reserve (the Python engine is the
// reference; tests/e2e/test_reserve_parity.py pins this file to it on the variants' perft fixture
// and on random positions).  Plays come out in the Python generator's order.
//
// The raw board is rules.js's 26 entries followed by two: 26 the mover's checkers waiting to
// enter (a count), 27 the opponent's (a negative count).  A waiting checker enters like one from
// the bar (a die of n lands on point 25 - n); a step from the reserve is written [26, point].
// What the rules change is read from the variant's `rules` (variants.json): reserveFirst (Dutch:
// nothing but entering while a checker waits), hitNeedsHome (Dutch: a blot may be hit only by a
// side with a checker on its points 1-6), barFirst (0 in Acey-Deucey: a hit checker need not
// enter before others move).

import { pyRepr, pyTypeName } from "./pytext.js";
import { BAR, BOARD_SIZE, OFF, ROLLS, applyStep, record } from "./rules.js";
import { PositionIdError, boardFromId, positionId } from "./ids.js";
import { NotationError, formatSteps, hitsOf, parseMoveText } from "./movetext.js";
import { gameResult } from "./state.js";
import { VariantError, variantOf } from "./variants.js";

export const RESERVE = 26;
export const THEIR_RESERVE = 27;
export const RESERVE_BOARD_SIZE = 28;
const HOME = 6;

// The 28-entry board as the opponent sees it (the two reserves change places).
export function flipReserve(board) {
  const out = new Int8Array(RESERVE_BOARD_SIZE);
  for (let i = 0; i < BOARD_SIZE; i++) out[i] = -board[BOARD_SIZE - 1 - i];
  out[RESERVE] = -board[THEIR_RESERVE];
  out[THEIR_RESERVE] = -board[RESERVE];
  return out;
}

// The mover's rearmost checker: 26 for the reserve, 25 for the bar, else its point; 0 if none.
export function rearmost(board) {
  for (let i = RESERVE; i > 0; i--) if (board[i] > 0) return i;
  return 0;
}

function hasHome(board) {
  for (let i = 1; i <= HOME; i++) if (board[i] > 0) return true;
  return false;
}

// Where one checker from `src` (26 = the reserve) lands with `die`, or -1 (graph.js walks by it too).
export function reserveTarget(board, src, die, high, rules) {
  if (board[src] <= 0) return -1;
  if (rules.barFirst && board[BAR] > 0 && src !== BAR) return -1;
  if (rules.reserveFirst && board[RESERVE] > 0 && src < BAR) return -1;
  const dst = (src === RESERVE ? BAR : src) - die;
  if (dst >= 1) {
    const there = board[dst];
    if (there >= 0) return dst;
    if (there < -1) return -1;
    if (rules.hitNeedsHome) return hasHome(board) ? dst : -1;
    return dst;
  }
  if (high > HOME) return -1; // bearing off: everything home, none on the bar or waiting
  return dst === 0 || src === high ? OFF : -1;
}

// Try every checker for each die in turn, depth first, recording each sequence where it stops.
// `ordered`: a double whose sources may be taken rearmost first (none after a lower one).
function walk(board, dice, ordered, rules, st) {
  const ndice = dice.length;
  const boards = Array.from({ length: ndice + 1 }, () => new Int8Array(RESERVE_BOARD_SIZE));
  const nexts = new Int32Array(ndice + 1);
  const anyMoved = new Uint8Array(ndice + 1);
  const steps = [[0, 0], [0, 0], [0, 0], [0, 0]];
  boards[0].set(board);
  nexts[0] = RESERVE;
  let depth = 0;
  while (depth >= 0) {
    const here = boards[depth];
    const high = rearmost(here);
    let src = nexts[depth];
    let dst = -1;
    while (src >= 1) {
      dst = reserveTarget(here, src, dice[depth], high, rules);
      if (dst >= 0) break;
      src -= 1;
    }
    if (src < 1) {
      if (depth > 0 && !anyMoved[depth]) {
        record(st, here, steps, depth, dice[0] === dice[ndice - 1] ? depth : 10 + dice[0]);
      }
      depth -= 1;
      continue;
    }
    nexts[depth] = src - 1;
    anyMoved[depth] = 1;
    const after = boards[depth + 1];
    after.set(here);
    applyStep(after, src, dst);
    steps[depth][0] = src;
    steps[depth][1] = dst;
    if (depth + 1 === ndice) {
      record(st, after, steps, ndice, 100);
    } else {
      depth += 1;
      nexts[depth] = ordered ? src : RESERVE;
      anyMoved[depth] = 0;
    }
  }
}

// Every legal play of d1-d2 on a 28-entry board under `rules` (a variant's rules object):
// [{board, steps}], one per distinct resulting board (left from the mover's side), in
// reservekernel.generate_reserve's order.  Plays using fewer dice are dropped, and of one die of a
// non-double, the higher.  With a double the rearmost-first shortcut is kept where it loses
// nothing (as the Python generator explains): not while a blot may be hit only with a checker home
// and none is, nor while a hit checker must enter before a waiting one.
export function generateReserve(board, d1, d2, rules) {
  const st = { best: -1, plays: [], seen: new Map() };
  if (d1 === d2) {
    let ordered = !(rules.barFirst && board[BAR] > 0 && board[RESERVE] > 0);
    if (rules.hitNeedsHome) ordered = ordered && hasHome(board);
    walk(board, [d1, d1, d1, d1], ordered, rules, st);
  } else {
    walk(board, [d1, d2], false, rules, st);
    walk(board, [d2, d1], false, rules, st);
  }
  return st.plays;
}

// Whether a side has no checker left anywhere (the game is over).
function over(board) {
  let mine = false, theirs = false;
  for (let i = 0; i < RESERVE_BOARD_SIZE; i++) {
    if (board[i] > 0) mine = true;
    else if (board[i] < 0) theirs = true;
  }
  return !(mine && theirs);
}

// The legal plays of `dice` ([d1, d2], in the order given, as Position.legal_plays takes them) in
// `variant` (a reserve variant or its name): [{board, steps, dice, variant}], [] when nothing can
// be played or the game is over.
export function reservePlays(board, dice, variant) {
  const v = variantOf(variant);
  if (v.entry !== "reserve") {
    throw new VariantError(`${v.title}'s checkers do not start off the board: reserve.js plays the variants whose checkers do`);
  }
  if (over(board)) return [];
  return generateReserve(board, dice[0], dice[1], v.rules)
    .map((p) => ({ board: p.board, steps: p.steps, dice: [dice[0], dice[1]], variant: v }));
}

// Leaves of the game tree `plies` deep: every roll of the 21, every play of it; a roll with no
// play passes (one branch, the board turned round), a finished game is a leaf at any depth: the
// counts of tests/fixtures/variants-perft.json (reservekernel.count_tree).
export function countTree(board, plies, rules) {
  if (plies === 0 || over(board)) return 1;
  let total = 0;
  for (const [d1, d2] of ROLLS) {
    const plays = generateReserve(board, d1, d2, rules);
    if (!plays.length) total += countTree(flipReserve(board), plies - 1, rules);
    for (const p of plays) total += countTree(flipReserve(p.board), plies - 1, rules);
  }
  return total;
}

// The 26-entry board with each side's waiting checkers counted on its bar (reserve.folded): for
// the questions where a waiting checker is like a hit one (checkers in play, pips, the backgammon).
export function folded(board) {
  const b = Int8Array.from(board.subarray(0, BOARD_SIZE));
  b[BAR] += board[RESERVE];
  b[OFF] += board[THEIR_RESERVE];
  return b;
}

// Checkers borne off: [player on roll, opponent] (Position.borne_off).
export function borneOff(board, variant) {
  const b = folded(board), checkers = variantOf(variant).checkers;
  let mine = 0, theirs = 0;
  for (let i = 0; i < BOARD_SIZE; i++) {
    if (b[i] > 0) mine += b[i]; else theirs -= b[i];
  }
  return [checkers - mine, checkers - theirs];
}

// The game's value if it is over (+-1, 2, 3 from the player on roll's side), else 0: Position.result.
export const reserveResult = (board, variant) => gameResult(folded(board), variantOf(variant).checkers);

// The extended Position ID: "<Position ID>:<mover's waiting>:<opponent's waiting>".
export const encodeReserveId = (board) => `${positionId(board)}:${board[RESERVE]}:${-board[THEIR_RESERVE]}`;

// The 28-entry board of an extended Position ID; throws a PositionIdError saying what is wrong,
// in reserve.decode_reserve_id's words.
export function decodeReserveId(text) {
  if (typeof text !== "string") throw new PositionIdError(`a Position ID is a string, got ${pyTypeName(text)}`);
  const m = /^([^:]*):([0-9]{1,2}):([0-9]{1,2})$/.exec(text.trim());
  if (!m) {
    throw new PositionIdError(`${pyRepr(text)} is not a Position ID of a game whose checkers start off the board: `
      + "expected a Position ID, ':', the waiting checkers of the player on roll, ':', "
      + "the opponent's (such as 'AAAAAAAAAAAAAA:15:15')");
  }
  const board26 = boardFromId(m[1]);
  const [mine, theirs] = [Number(m[2]), Number(m[3])];
  for (const [who, n, side] of [["player on roll", mine, 1], ["opponent", theirs, -1]]) {
    let onBoard = 0;
    for (const v of board26) if (v * side > 0) onBoard += Math.abs(v);
    if (onBoard + n > 15) {
      throw new PositionIdError(`Position ID ${pyRepr(text)} gives the ${who} ${onBoard} checkers on the board and `
        + `${n} waiting; at most 15 are allowed`);
    }
  }
  const board = new Int8Array(RESERVE_BOARD_SIZE);
  board.set(board26);
  board[RESERVE] = mine;
  board[THEIR_RESERVE] = -theirs;
  return board;
}

// movetext.formatSteps with a step from the reserve (26) written from "in" ("in/22", "in/14").
export const formatReserveSteps = (steps, hits, doubles) =>
  formatSteps(steps, hits, doubles).replace(/(^| )26\//g, "$1in/");

// A play of `board` (as reservePlays gives it) in notation, as str(Play) writes it.
export const reservePlayText = (board, play) =>
  formatReserveSteps(play.steps, hitsOf(board, play.steps), play.dice[0] === play.dice[1]);

// movetext.parseMoveText that also reads "in" (the reserve) as a starting point.
export function parseReserveText(text) {
  if (typeof text !== "string") throw new NotationError(`move text must be a string, got ${pyTypeName(text)}`);
  const segments = [];
  for (const word of text.trim().toLowerCase().replace(/,/g, " ").split(/\s+/).filter(Boolean)) {
    if (!word.startsWith("in/")) {
      segments.push(...parseMoveText(word));
      continue;
    }
    // Read as if from the bar, then start the word's first stretch (and each repeat's) in the reserve.
    for (const s of parseMoveText("bar" + word.slice(2))) segments.push(s.src === BAR ? { ...s, src: RESERVE } : s);
  }
  if (!segments.length) throw new NotationError("empty move text: write moves like 'in/22 13/10'");
  return segments;
}
