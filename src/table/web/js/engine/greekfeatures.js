// The networks' inputs and judgement for Plakoto and Fevga in the browser, on their own raw boards
// (greekkernel.js's: Plakoto's 50 entries with the pins, Fevga's 26 with both sides in the mover's
// numbering).  A port of table.bot.greekfeatures, the reference: tests/e2e/test_greek_bot_parity.py
// pins the inputs, the chances and the plays chosen to Python's.
//
// Each side, the player on roll first, is described by its own numbering: four inputs for each of
// its points 1..24, then HAND hand-made features (greekfeatures.py says which).  Which network
// judges: the race network once no contact is left, the contact network before; a finished game is
// judged exactly (a gammon counts 2, never 3; Plakoto's two pinned mothers are a draw).

import { N_INPUTS, PER_SIDE, POINT_INPUTS } from "./features.js";
import { CONTACT, N_OUTPUTS, RACE, forward } from "./nn.js";
import { FEVGA, PINS, PLAKOTO, rotated } from "./greekkernel.js";

export { N_INPUTS };
export const HAND_BASE = 24 * POINT_INPUTS; // where a side's hand-made features start within its half
const CHECKERS = 15;
const START_PIPS = 24 * CHECKERS;

// The raw board's index of the side's own point p (sign +1: the mover).
const at = (p, sign, game) => (sign > 0 ? p : game === PLAKOTO ? 25 - p : rotated(p));

// The side's checkers on top of its own point p.
function top(b, p, sign, game) {
  const v = sign * b[at(p, sign, game)];
  return v > 0 ? v : 0;
}

// The other side's checkers on top of this side's own point p.
function theirs(b, p, sign, game) {
  const v = -sign * b[at(p, sign, game)];
  return v > 0 ? v : 0;
}

// Plakoto: the side has a checker pinned on its own point p; holds an opposing one pinned there.
const pinned = (b, p, sign) => sign * b[PINS + at(p, sign, PLAKOTO)] > 0;
const captive = (b, p, sign) => sign * b[PINS + at(p, sign, PLAKOTO)] < 0;

// Plakoto: the other side may not land on this side's point p.
const closedToOther = (b, p, sign) => top(b, p, sign, PLAKOTO) >= 2 || captive(b, p, sign);

// Plakoto: whether the other side's checker on this side's point s lands on its point q (s < q)
// with d1-d2, a combined shot touching down only on points open to it (greekfeatures.pin_reach).
export function pinReach(b, s, q, d1, d2, sign) {
  const d = q - s;
  if (d1 === d2) {
    for (let k = 1; k < 5; k++) {
      if (k * d1 === d) return true;
      if (k * d1 > d || closedToOther(b, s + k * d1, sign)) return false;
    }
    return false;
  }
  if (d === d1 || d === d2) return true;
  return d === d1 + d2 && (!closedToOther(b, s + d1, sign) || !closedToOther(b, s + d2, sign));
}

// Rolls out of 36 on which the other side can land on a blot of this side (and pin it).
function pinRolls(b, sign) {
  const blots = [], shooters = [];
  for (let p = 1; p <= 24; p++) {
    if (p >= 2 && top(b, p, sign, PLAKOTO) === 1 && !captive(b, p, sign)) blots.push(p);
    if (theirs(b, p, sign, PLAKOTO) > 0) shooters.push(p);
  }
  if (!blots.length || !shooters.length) return 0;
  let total = 0;
  for (let d1 = 1; d1 <= 6; d1++) {
    for (let d2 = 1; d2 <= d1; d2++) {
      let hit = false;
      for (const q of blots) {
        for (const s of shooters) {
          if (s >= q) break;
          if (pinReach(b, s, q, d1, d2, sign)) { hit = true; break; }
        }
        if (hit) break;
      }
      if (hit) total += d1 === d2 ? 1 : 2;
    }
  }
  return total;
}

function plakotoSide(b, sign, out, base) {
  let on = 0, pips = 0, pins = 0, blots = 0, home = 0, made = 0, run = 0, bestRun = 0, back = 0;
  for (let p = 1; p <= 24; p++) {
    const n = top(b, p, sign, PLAKOTO), pin = pinned(b, p, sign);
    const j = base + (p - 1) * POINT_INPUTS;
    out[j] = n >= 1 ? 1 : 0;
    out[j + 1] = n >= 2 ? 1 : 0;
    out[j + 2] = n > 2 ? (n - 2) / 3 : 0;
    out[j + 3] = pin ? 1 : 0;
    const mine = n + (pin ? 1 : 0);
    on += mine;
    pips += p * mine;
    if (pin) pins += 1;
    const holds = n >= 2 || captive(b, p, sign);
    if (n === 1 && !captive(b, p, sign)) blots += 1;
    if (n >= 2) made += 1;
    if (holds) {
      run += 1;
      bestRun = Math.max(bestRun, run);
    } else {
      run = 0;
    }
    if (p <= 6) home += mine;
    if (p >= 19) back += mine;
  }
  const h = base + HAND_BASE;
  out[h] = (CHECKERS - on) / CHECKERS;
  out[h + 1] = pips / START_PIPS;
  out[h + 2] = pins / 3;
  out[h + 3] = blots / 4;
  out[h + 4] = pinRolls(b, sign) / 36;
  out[h + 5] = top(b, 24, sign, PLAKOTO) / CHECKERS;
  out[h + 6] = top(b, 24, sign, PLAKOTO) === 1 && !captive(b, 24, sign) ? 1 : 0;
  out[h + 7] = home / CHECKERS;
  out[h + 8] = made / 6;
  out[h + 9] = bestRun / 6;
  out[h + 10] = back / CHECKERS;
}

function fevgaSide(b, sign, out, base) {
  let on = 0, pips = 0, home = 0, held = 0, run = 0, bestRun = 0, far = 0, stack = 0, rear = 0, low = false;
  for (let p = 1; p <= 24; p++) {
    const n = top(b, p, sign, FEVGA);
    const j = base + (p - 1) * POINT_INPUTS;
    out[j] = n >= 1 ? 1 : 0;
    out[j + 1] = n >= 2 ? 1 : 0;
    out[j + 2] = n >= 3 ? 1 : 0;
    out[j + 3] = n > 3 ? (n - 3) / 2 : 0;
    if (n > 0) {
      on += n;
      pips += p * n;
      held += 1;
      run += 1;
      bestRun = Math.max(bestRun, run);
      rear = p;
      if (p <= 6) home += n;
      if (p >= 13) far += n;
      if (p <= 11) low = true;
      if (n > 3) stack += n - 3;
    } else {
      run = 0;
    }
  }
  // The other side's points held in the six in front of this side's rearmost checker.
  let block = 0, moves = 0;
  if (rear > 0) {
    for (let p = Math.max(1, rear - 6); p < rear; p++) if (theirs(b, p, sign, FEVGA) > 0) block += 1;
    for (let d1 = 1; d1 <= 6; d1++) {
      for (let d2 = 1; d2 <= d1; d2++) {
        let ok = false;
        for (const d of [d1, d2]) if (rear - d < 1 || theirs(b, rear - d, sign, FEVGA) === 0) ok = true;
        if (ok) moves += d1 === d2 ? 1 : 2;
      }
    }
  }
  const h = base + HAND_BASE;
  out[h] = (CHECKERS - on) / CHECKERS;
  out[h + 1] = pips / START_PIPS;
  out[h + 2] = top(b, 24, sign, FEVGA) / CHECKERS;
  out[h + 3] = low || on < CHECKERS ? 1 : 0;
  out[h + 4] = held / 12;
  out[h + 5] = bestRun / 6;
  out[h + 6] = home / CHECKERS;
  out[h + 7] = block / 6;
  out[h + 8] = moves / 36;
  out[h + 9] = far / CHECKERS;
  out[h + 10] = stack / CHECKERS;
}

// Write the N_INPUTS inputs of a Greek `board` (player on roll's view) into `out` (a Float32Array).
export function encodeGreek(board, game, out) {
  if (game === PLAKOTO) {
    plakotoSide(board, 1, out, 0);
    plakotoSide(board, -1, out, PER_SIDE);
  } else {
    fevgaSide(board, 1, out, 0);
    fevgaSide(board, -1, out, PER_SIDE);
  }
}

// Checkers on the board [mover, opponent], pinned ones included (any Greek board).
function counts(b) {
  let mine = 0, their = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] > 0) mine += b[i];
    else if (b[i] < 0) their -= b[i];
  }
  return [mine, their];
}

// If the game is over, its exact chances for the player on roll into `out` and true: bearing off
// first (2 for a gammon, no backgammon), then Plakoto's mother rule (a pinned mother loses 2, both
// pinned is a draw, chances (0.5, 0, 0, 0, 0)).
export function greekOutcome(b, game, checkers, out) {
  const [mine, their] = counts(b);
  let value = 0, over = false;
  if (mine === 0) {
    value = their < checkers ? 1 : 2;
    over = true;
  } else if (their === 0) {
    value = mine < checkers ? -1 : -2;
    over = true;
  } else if (game === PLAKOTO) {
    const myMother = b[PINS + 24] > 0, theirMother = b[PINS + 1] < 0;
    if (myMother && theirMother) {
      over = true;
    } else if (myMother && b[1] >= 0) {
      value = -2;
      over = true;
    } else if (theirMother && b[24] <= 0) {
      value = 2;
      over = true;
    }
  }
  if (!over) return false;
  for (let k = 0; k < N_OUTPUTS; k++) out[k] = 0;
  if (value === 0) {
    out[0] = 0.5;
  } else if (value > 0) {
    out[0] = 1;
    out[1] = value >= 2 ? 1 : 0;
  } else {
    out[3] = value <= -2 ? 1 : 0;
  }
  return true;
}

// RACE once no checker can meet another again, CONTACT before.
export function pickGreekNet(b, game) {
  if (game === PLAKOTO) {
    for (let p = 1; p <= 24; p++) if (b[PINS + p] !== 0) return CONTACT;
    let myBack = 0, theirBack = 25;
    for (let p = 1; p <= 24; p++) if (b[p] > 0) myBack = p;
    for (let p = 24; p >= 1; p--) if (b[p] < 0) theirBack = p;
    return myBack < theirBack ? RACE : CONTACT;
  }
  for (let p = 13; p <= 24; p++) if (b[p] > 0 || b[rotated(p)] < 0) return CONTACT;
  return RACE;
}

// Consistent chances, in place: no backgammons (a gammon counts 2), none where impossible.
export function tidyGreek(b, p, checkers) {
  const [mine, their] = counts(b);
  p[2] = 0;
  p[4] = 0;
  if (mine < checkers) p[3] = 0;
  if (their < checkers) p[1] = 0;
  if (p[1] > p[0]) p[1] = p[0];
  if (p[3] > 1 - p[0]) p[3] = 1 - p[0];
}

// Tidy chances of a Greek `board` for the player on roll into `out`; the network used, -1 if over.
// `work` is nn.makeWork's scratch space for the networks `w`.
export function judgeGreek(w, board, game, work, out, checkers = CHECKERS) {
  if (greekOutcome(board, game, checkers, out)) return -1;
  const net = pickGreekNet(board, game);
  encodeGreek(board, game, work.x);
  forward(w, net, work, out);
  tidyGreek(board, out, checkers);
  return net;
}
