// GNU Backgammon Position IDs and Match IDs in the browser (table.rules.posid and
// table.notation.matchid are the reference; the tests pin these to them).

import { pyRepr, pyTypeName } from "./pytext.js";

// A Position ID that cannot be read; the message is table.errors.PositionIdError's.
export class PositionIdError extends Error {
  get name() { return "PositionIdError"; }
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function toBase64(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

function fromBase64(text, nbytes) {
  const bytes = new Uint8Array(nbytes);
  let acc = 0, bits = 0, j = 0;
  for (const c of text) {
    const v = B64.indexOf(c);
    if (v < 0) throw new Error(`${JSON.stringify(text)}: ${JSON.stringify(c)} is not base64`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (j < nbytes) bytes[j++] = (acc >> bits) & 255;
    }
    acc &= (1 << bits) - 1;
  }
  return bytes;
}

// A little-endian bit writer/reader over a byte array (bit 0 = lowest bit of byte 0).
const setBit = (bytes, i) => { bytes[i >> 3] |= 1 << (i & 7); };
const getBit = (bytes, i) => (bytes[i >> 3] >> (i & 7)) & 1;

function sideCounts(board, mover) {
  const out = [];
  for (let i = 1; i <= 25; i++) {
    out.push(mover ? Math.max(board[i], 0) : Math.max(-board[25 - i], 0));
  }
  return out;
}

// The Position ID of a raw board (seen from the player on roll): 14 characters.
export function positionId(board) {
  const bytes = new Uint8Array(10);
  let bit = 0;
  for (const mover of [false, true]) {
    for (const n of sideCounts(board, mover)) {
      for (let k = 0; k < n; k++) setBit(bytes, bit++);
      bit += 1;
    }
  }
  return toBase64(bytes);
}

// The raw board of a Position ID; throws a PositionIdError saying what is wrong, in the words of
// table.rules.posid.decode_position_id.
export function boardFromId(text) {
  if (typeof text !== "string") throw new PositionIdError(`a Position ID is a string, got ${pyTypeName(text)}`);
  text = text.trim();
  if (!/^[A-Za-z0-9+/]{14}$/.test(text)) {
    throw new PositionIdError(`${pyRepr(text)} is not a Position ID: expected 14 characters of A-Z a-z 0-9 + /`);
  }
  const bytes = fromBase64(text, 10);
  const sides = [];
  let bit = 0;
  for (const side of ["opponent", "player on roll"]) {
    const counts = [];
    let total = 0;
    while (counts.length < 25) {
      let n = 0;
      while (bit < 80 && getBit(bytes, bit)) { n++; bit++; }
      if (bit >= 80) throw new PositionIdError(`Position ID '${text}' ends before the ${side}'s checkers do`);
      bit++;
      counts.push(n);
      total += n;
    }
    if (total > 15) {
      throw new PositionIdError(`Position ID '${text}' gives the ${side} ${total} checkers; at most 15 are allowed`);
    }
    sides.push(counts);
  }
  for (let k = bit; k < 80; k++) {
    if (getBit(bytes, k)) throw new PositionIdError(`Position ID '${text}' has stray bits after both sides' checkers`);
  }
  const [opp, me] = sides;
  const board = new Int8Array(26);
  for (let p = 1; p <= 25; p++) board[p] = me[p - 1];
  for (let j = 1; j <= 24; j++) {
    if (opp[j - 1]) {
      if (board[25 - j]) throw new PositionIdError(`Position ID '${text}' puts both sides' checkers on point ${25 - j}`);
      board[25 - j] = -opp[j - 1];
    }
  }
  board[0] = -opp[24];
  return board;
}

// [name, first bit, width] as in section 11.7 of the GNU Backgammon manual.
const LAYOUT = [
  ["cube", 0, 4], ["owner", 4, 2], ["diceOwner", 6, 1], ["crawford", 7, 1], ["state", 8, 3],
  ["turn", 11, 1], ["double", 12, 1], ["resign", 13, 2], ["die1", 15, 3], ["die2", 18, 3],
  ["length", 21, 15], ["score0", 36, 15], ["score1", 51, 15],
];

// Game states (bits 9-11).
export const GAME_STATE = { NO_GAME: 0, PLAYING: 1, OVER: 2, RESIGNED: 3, DROPPED: 4 };

// The 12-character Match ID of {cubeValue, cubeOwner (null = centred), playerOnRoll, crawford,
// gameState, turn, doubleOffered, resignation, dice: [d1, d2] ([0, 0] before the roll),
// matchLength, score: [s0, s1]}.
export function matchId(info) {
  const values = {
    cube: Math.log2(info.cubeValue), owner: info.cubeOwner == null ? 3 : info.cubeOwner,
    diceOwner: info.playerOnRoll, crawford: info.crawford ? 1 : 0, state: info.gameState,
    turn: info.turn, double: info.doubleOffered ? 1 : 0, resign: info.resignation,
    die1: info.dice[0], die2: info.dice[1], length: info.matchLength,
    score0: info.score[0], score1: info.score[1],
  };
  const bytes = new Uint8Array(9);
  for (const [name, start, width] of LAYOUT) {
    for (let k = 0; k < width; k++) if ((values[name] >> k) & 1) setBit(bytes, start + k);
  }
  return toBase64(bytes);
}

// The fields of a Match ID (as matchId takes them).
export function parseMatchId(text) {
  if (!/^[A-Za-z0-9+/]{12}$/.test(text)) throw new Error(`${JSON.stringify(text)} is not a Match ID`);
  const bytes = fromBase64(text, 9);
  const f = {};
  for (const [name, start, width] of LAYOUT) {
    let v = 0;
    for (let k = 0; k < width; k++) v |= getBit(bytes, start + k) << k;
    f[name] = v;
  }
  if (f.owner === 2) throw new Error(`Match ID ${text} has cube owner bits 10, which mean nothing`);
  return {
    cubeValue: 1 << f.cube, cubeOwner: f.owner === 3 ? null : f.owner, playerOnRoll: f.diceOwner,
    crawford: Boolean(f.crawford), gameState: f.state, turn: f.turn, doubleOffered: Boolean(f.double),
    resignation: f.resign, dice: [f.die1, f.die2], matchLength: f.length, score: [f.score0, f.score1],
  };
}
