// Plakoto and Fevga in the browser: which variant plays which game, each side's checkers, the
// Position ID, the end of the game and the plays with their text (greekkernel.js generates them).
//
// A port of table.rules.greek, table.rules.plakoto and table.rules.fevga (the Python engine is the
// reference; tests/e2e/test_greek_parity.py pins this file to it).  The variants come from
// variants.json ("engineOnly"), which scripts/export-web-variants writes from Python's table.
//
// Position IDs (docs/variants.md): Plakoto's is GNU Backgammon's ID of the checkers on top, then,
// only when something is pinned, ":<points where the player on roll has a checker pinned>:<the
// opponent's>", each in that side's own numbering, joined by ","; Fevga's is the 14 characters of
// GNU Backgammon's format with each side in its own numbering.  Notation is standard, each side in
// its own numbering, with "*" where a step pins a checker (Plakoto), as a hit is marked.

import { pyRepr, pyTypeName } from "./pytext.js";
import { PositionIdError, boardFromId, positionId } from "./ids.js";
import { formatSteps } from "./movetext.js";
import { STANDARD, VariantError, variantOf } from "./variants.js";
import {
  FEVGA, FEVGA_SIZE, PINS, PLAKOTO, PLAKOTO_SIZE, generateGreek, isOver, rotated, turnRound,
} from "./greekkernel.js";

export { turnRound }; // the next player's board, for the caller of greekPlays

// table.rules.variant's Rules.capture and Rules.turn values that name the two games.
export const PIN = 1;
export const NO_CAPTURE = 2;
export const ROTATE = 1;

const GAMES = {
  [PLAKOTO]: { code: PLAKOTO, name: "Plakoto", size: PLAKOTO_SIZE, rules: { capture: PIN } },
  [FEVGA]: { code: FEVGA, name: "Fevga", size: FEVGA_SIZE, rules: { block: 1, capture: NO_CAPTURE, turn: ROTATE } },
};

// The game whose step rule a variant's rules are ({code, name, size}), null for any other
// (mixes included), as table.rules.greek.game_for says.
export function greekGame(variant) {
  const rules = variantOf(variant).rules;
  for (const game of Object.values(GAMES)) {
    const want = { ...STANDARD.rules, ...game.rules };
    if (Object.keys(want).length === Object.keys(rules).length
        && Object.entries(want).every(([k, v]) => rules[k] === v)) return game;
  }
  return null;
}

function gameOf(variant) {
  const game = greekGame(variant);
  if (!game) throw new VariantError(`${variantOf(variant).title} is not Plakoto or Fevga: greek.js plays those two`);
  return game;
}

// Each side's checkers by its own numbering (point -> count, a pinned checker counted with its
// side): [the player on roll's, the opponent's], as Position.checkers gives them.
export function greekSides(board) {
  const mine = new Map(), theirs = new Map();
  if (board.length === PLAKOTO_SIZE) {
    for (let p = 1; p <= 24; p++) {
      const n = board[p], pin = board[PINS + p];
      const m = Math.max(n, 0) + (pin > 0 ? 1 : 0), t = Math.max(-n, 0) + (pin < 0 ? 1 : 0);
      if (m) mine.set(p, m);
      if (t) theirs.set(25 - p, t);
    }
  } else {
    for (let p = 1; p <= 24; p++) {
      if (board[p] > 0) mine.set(p, board[p]);
      else if (board[p] < 0) theirs.set(rotated(p), -board[p]);
    }
  }
  return [mine, theirs];
}

const total = (side) => [...side.values()].reduce((a, n) => a + n, 0);

// Checkers borne off: [player on roll, opponent] (Position.borne_off).
export function greekBorneOff(board, variant) {
  const checkers = variantOf(variant).checkers;
  return greekSides(board).map((side) => checkers - total(side));
}

// Pips each side needs to bear off everything: [player on roll, opponent] (Position.pip_counts).
export const greekPips = (board) =>
  greekSides(board).map((side) => [...side].reduce((a, [p, n]) => a + p * n, 0));

// Whether no checker can meet another again (Position.is_race): Plakoto as standard play; Fevga
// once every checker of both sides is on its own 1-12 (one side's 13-24 is the other's way home).
export function greekIsRace(board) {
  const [mine, theirs] = greekSides(board);
  const high = (side) => Math.max(0, ...side.keys());
  if (board.length === FEVGA_SIZE) return high(mine) <= 12 && high(theirs) <= 12;
  return high(mine) < Math.min(25, ...[...theirs.keys()].map((q) => 25 - q));
}

// [the game's value from the player on roll's side, whether it is over] (Position.result and
// is_game_over): +-1 single, +-2 gammon (no backgammon); Plakoto's pinned mother loses 2, or, both
// mothers pinned, the game is drawn: [0, true].
export function greekResult(board, variant) {
  const checkers = variantOf(variant).checkers;
  const [mine, theirs] = greekSides(board).map(total);
  if (!mine) return [theirs < checkers ? 1 : 2, true];
  if (!theirs) return [mine < checkers ? -1 : -2, true];
  if (board.length === PLAKOTO_SIZE && isOver(board)) {
    const myMother = board[PINS + 24] > 0, theirMother = board[PINS + 1] < 0;
    return [myMother && theirMother ? 0 : myMother ? -2 : 2, true];
  }
  return [0, false];
}

// The legal plays of `dice` ([d1, d2], in the order given, as Position.legal_plays takes them) in
// `variant` (Plakoto, Fevga or its name): [{board, steps, hits, dice, variant}] in the Python
// engine's order, `board` left from the mover's side (turnRound gives the next player's); [] when
// nothing can be played or the game is over.
export function greekPlays(board, dice, variant) {
  const v = variantOf(variant), game = gameOf(v);
  if (board.length !== game.size) throw new VariantError(`a ${game.name} board has ${game.size} entries, got ${board.length}`);
  if (isOver(board)) return [];
  return generateGreek(board, dice[0], dice[1], game.code)
    .map((p) => ({ board: p.board, steps: p.steps, hits: p.hits, dice: [dice[0], dice[1]], variant: v }));
}

// A play in notation, as str(Play) writes it ("24/18 13/10", "8/5*" where a step pins).
export const greekPlayText = (play) => formatSteps(play.steps, play.hits, play.dice[0] === play.dice[1]);

// The Position ID of a board of either game (its length tells which).
export function encodeGreekId(board) {
  if (board.length === FEVGA_SIZE) {
    const [mine, theirs] = greekSides(board);
    const counts = (side) => Array.from({ length: 25 }, (_, i) => side.get(i + 1) ?? 0);
    return encodeSides(counts(theirs), counts(mine));
  }
  const base = positionId(board.subarray(0, 26));
  const mine = [], theirs = [];
  for (let p = 1; p <= 24; p++) if (board[PINS + p] > 0) mine.push(p);
  for (let p = 24; p >= 1; p--) if (board[PINS + p] < 0) theirs.push(25 - p);
  return mine.length || theirs.length ? `${base}:${mine.join(",")}:${theirs.join(",")}` : base;
}

// The board of a Position ID of `variant` (Plakoto or Fevga); throws a PositionIdError saying what
// is wrong, in Python's words.
export function decodeGreekId(text, variant) {
  return gameOf(variant).code === PLAKOTO ? decodePlakotoId(text) : decodeFevgaId(text);
}

// The points of a pinned list, as Python's re.fullmatch reads them.
const PINS_RE = /^(?:[0-9]{1,2}(?:,[0-9]{1,2})*)?$/;

function decodePlakotoId(text) {
  if (typeof text !== "string") throw new PositionIdError(`a Position ID is a string, got ${pyTypeName(text)}`);
  text = text.trim();
  const parts = text.split(":");
  if (parts.length !== 1 && parts.length !== 3) {
    throw new PositionIdError(`${pyRepr(text)} is not a Plakoto Position ID: a Position ID, then with pinned checkers `
      + "':', the points where the player on roll has one pinned, ':', the opponent's "
      + "(such as 'gQAA/D8AAAAAAA::23')");
  }
  const top = new Int8Array(PLAKOTO_SIZE);
  top.set(boardFromId(parts[0]));
  if (top[0] || top[25]) throw new PositionIdError(`Position ID ${pyRepr(text)} has checkers on the bar, which Plakoto has not`);
  if (parts.length === 3) {
    if (!parts[1] && !parts[2]) {
      throw new PositionIdError(`${pyRepr(text)} lists no pinned checker: write the Position ID alone, without ':'`);
    }
    for (const [side, who, field] of [[1, "player on roll", parts[1]], [-1, "opponent", parts[2]]]) {
      if (!PINS_RE.test(field)) {
        throw new PositionIdError(`${pyRepr(text)}: the ${who}'s pinned points ${pyRepr(field)} are not numbers 1-24 joined by ','`);
      }
      for (const point of (field ? field.split(",") : []).map(Number)) {
        const index = side === 1 ? point : 25 - point;
        if (!(point >= 1 && point <= 24)) throw new PositionIdError(`${pyRepr(text)}: the ${who} cannot have a checker pinned on ${point}`);
        if (top[PINS + index]) throw new PositionIdError(`${pyRepr(text)} pins two checkers on the ${who}'s point ${point}`);
        if (top[index] * side >= 0) {
          throw new PositionIdError(`${pyRepr(text)}: the ${who}'s checker pinned on ${point} has no opposing checker on top`);
        }
        top[PINS + index] = side;
      }
    }
  }
  greekSides(top).forEach((side, k) => {
    if (total(side) > 15) {
      throw new PositionIdError(`Position ID ${pyRepr(text)} gives the ${k ? "opponent" : "player on roll"} ${total(side)} `
        + "checkers with the pinned ones; at most 15 are allowed");
    }
  });
  return top;
}

function decodeFevgaId(text) {
  const [opponent, mover] = decodeSides(typeof text === "string" ? text.trim() : text);
  if (opponent[24] || mover[24]) throw new PositionIdError(`Position ID ${pyRepr(text)} has checkers on the bar, which Fevga has not`);
  const board = new Int8Array(FEVGA_SIZE);
  for (let p = 1; p <= 24; p++) board[p] = mover[p - 1];
  for (let q = 1; q <= 24; q++) {
    const n = opponent[q - 1], index = rotated(q);
    if (!n) continue;
    if (board[index]) {
      throw new PositionIdError(`Position ID ${pyRepr(text)}: both sides have checkers on the mover's point ${index} `
        + `(the opponent's ${q})`);
    }
    board[index] = -n;
  }
  return board;
}

// GNU Backgammon's Position ID from each side's 25 counts (points 1..24 then the bar, own
// numbering), the side not on roll first (greek.encode_sides): unlike ids.positionId both sides
// may have checkers on one point number.
function encodeSides(opponent, mover) {
  const bytes = new Uint8Array(10);
  let bit = 0;
  for (const n of [...opponent, ...mover]) {
    for (let k = 0; k < n; k++, bit++) bytes[bit >> 3] |= 1 << (bit & 7);
    bit += 1;
  }
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}

// The two sides' 25 counts of a Position ID, [opponent, mover], in greek.decode_sides's words.
function decodeSides(text) {
  if (typeof text !== "string") throw new PositionIdError(`a Position ID is a string, got ${pyTypeName(text)}`);
  if (!/^[A-Za-z0-9+/]{14}$/.test(text)) {
    throw new PositionIdError(`${pyRepr(text)} is not a Position ID: expected 14 characters of A-Z a-z 0-9 + /`);
  }
  const bytes = Uint8Array.from(atob(text + "=="), (c) => c.charCodeAt(0));
  const bitAt = (i) => (bytes[i >> 3] >> (i & 7)) & 1;
  const sides = [];
  let at = 0;
  for (const who of ["opponent", "player on roll"]) {
    const counts = [];
    for (let i = 0; i < 25; i++) {
      let n = 0;
      while (at < 80 && bitAt(at)) { n++; at++; }
      if (at >= 80) throw new PositionIdError(`Position ID ${pyRepr(text)} ends before the ${who}'s checkers do`);
      at += 1;
      counts.push(n);
    }
    const sum = counts.reduce((a, n) => a + n, 0);
    if (sum > 15) throw new PositionIdError(`Position ID ${pyRepr(text)} gives the ${who} ${sum} checkers; at most 15 are allowed`);
    sides.push(counts);
  }
  for (let k = at; k < 80; k++) {
    if (bitAt(k)) throw new PositionIdError(`Position ID ${pyRepr(text)} has stray bits after both sides' checkers`);
  }
  return sides;
}
