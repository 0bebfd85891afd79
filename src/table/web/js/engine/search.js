// Move choice in the browser (table.bot.search is the reference): the network's judgement, with
// look-ahead over the rolls to come, and the staged move filter the strongest programs use.
// Plies as GNU Backgammon counts them: 0-ply judges the position after a play; n-ply averages,
// over the opponent's 21 rolls, the position after its best reply (chosen at 0-ply) at n-1 plies.

import { flip, generate, isRace } from "./rules.js";
import { LOW_ROLLS } from "./features.js";
import { applies as bearoffApplies, canonicalInto, equivalentDiffers, probabilities as bearoffProbabilities } from "./bearoff.js";
import { equity, evaluateBoard, finalProbs, makeWork, N_OUTPUTS } from "./nn.js";

export const MAX_DEPTH = 2;

// What judges a position: the networks and the bear-off database (null for none), for a game of
// `checkers` a side (the variant's: who can still be gammoned).
export function makeJudge(weights, db, checkers = 15) {
  return { w: weights, db, checkers, work: makeWork(weights.hidden, weights.hidden2) };
}

// Thrown by a look-ahead of two or more plies that has run past its judge's deadline; caught
// where a shallower answer is at hand (choose, and chances in player.js).
export class OutOfTime extends Error {}

// `judge`, stopping any look-ahead of two or more plies `ms` milliseconds from now: the browser
// gives Greu a time budget, since its second ply takes seconds in rare positions on slow phones.
export function withDeadline(judge, ms, now = () => performance.now()) {
  return { ...judge, deadline: now() + ms, now };
}

// The plays of a roll as boards from the mover's side; a pass is one play that changes nothing.
export function playsOf(board, d1, d2) {
  const plays = generate(board, d1, d2);
  return plays.length ? plays : [{ board: Int8Array.from(board), steps: [] }];
}

// 0-ply equity for the mover of each play; returns {eqs, best, bestP} (chances after the best,
// for the side then on roll).
function scorePlays(judge, plays) {
  const eqs = new Float64Array(plays.length), p = new Float32Array(N_OUTPUTS);
  const bestP = new Float32Array(N_OUTPUTS);
  let best = 0;
  plays.forEach((play, c) => {
    evaluateBoard(judge.w, judge.db, flip(play.board), judge.work, p, judge.checkers);
    eqs[c] = -equity(p);
    if (c === 0 || eqs[c] > eqs[best]) { best = c; bestP.set(p); }
  });
  return { eqs, best, bestP };
}

// Add `wt` times `p` turned round: `p` is the other side's, after its play.
function addTurned(acc, p, wt) {
  acc[0] += wt * (1 - p[0]);
  acc[1] += wt * p[3];
  acc[2] += wt * p[4];
  acc[3] += wt * p[1];
  acc[4] += wt * p[2];
}

function exact(judge, board, out) {
  if (finalProbs(board, out, judge.checkers)) return true;
  if (bearoffApplies(judge.db, board)) { bearoffProbabilities(judge.db, board, out, judge.checkers); return true; }
  return false;
}

// Chances for the player on roll at `board`, looking `depth` plies ahead, into `out`
// (Float32Array of 5; sums are kept in single precision as the Python search keeps them).
export function evaluate(judge, board, depth, out) {
  if (depth <= 0) { evaluateBoard(judge.w, judge.db, board, judge.work, out, judge.checkers); return; }
  if (exact(judge, board, out)) return;
  if (isRace(board) && equivalentDiffers(judge.db, board)) {
    // Look ahead from the bear-off classes' representatives, as 0-ply judges: positions whose
    // home sides have the same roll distributions get the same chances at any depth.
    const same = new Int8Array(26);
    canonicalInto(judge.db, board, same);
    board = same;
  }
  lookAhead(judge, board, depth, out);
}

// evaluate() past its root: the positions after the best replies are looked at as they are.
function lookAhead(judge, board, depth, out) {
  const acc = new Float32Array(N_OUTPUTS), res = new Float32Array(N_OUTPUTS);
  for (const [d1, d2] of LOW_ROLLS) {
    if (depth >= 2 && judge.deadline !== undefined && judge.now() > judge.deadline) throw new OutOfTime();
    const wt = d1 === d2 ? 1 : 2;
    const plays = playsOf(board, d1, d2);
    const { best, bestP } = scorePlays(judge, plays);
    if (depth === 1) {
      addTurned(acc, bestP, wt); // the best play was judged at 0-ply while it was chosen
      continue;
    }
    const child = flip(plays[best].board);
    if (!exact(judge, child, res)) lookAhead(judge, child, depth - 1, res);
    addTurned(acc, res, wt);
  }
  for (let k = 0; k < N_OUTPUTS; k++) out[k] = acc[k] / 36;
}

// The move filter: of the plays order[0..m), keep the best `keep` within `margin`, first in
// `order`, best first; returns how many.
function keepBest(eqs, order, m, keep, margin) {
  let top = eqs[order[0]];
  for (let i = 1; i < m; i++) top = Math.max(top, eqs[order[i]]);
  let kept = 0;
  for (let i = 0; i < m; i++) if (eqs[order[i]] >= top - margin) order[kept++] = order[i];
  for (let i = 0; i < Math.min(kept, keep); i++) {
    let k = i;
    for (let j = i + 1; j < kept; j++) if (eqs[order[j]] > eqs[order[k]]) k = j;
    [order[i], order[k]] = [order[k], order[i]];
  }
  return Math.min(kept, keep);
}

// Choose a play for the player on roll: {plays, best} (index into plays, in the engine's order).
// `noise` (equity) is added to each 0-ply judgement with `normal()` draws; then, for each ply up
// to `depth`, the plays passing the stage's filter (keep[s], margin[s]) are judged a ply deeper.
// A stage cut short by the judge's deadline counts for nothing: the stage before decides, and
// `eqs` are that stage's.
export function choose(judge, board, d1, d2, { depth = 0, noise = 0, keep = [8, 3], margin = [0.16, 0.1], normal } = {}) {
  const plays = playsOf(board, d1, d2);
  const n = plays.length;
  let { eqs, best } = scorePlays(judge, plays);
  if (noise > 0) {
    for (let c = 0; c < n; c++) eqs[c] += noise * normal();
    best = 0;
    for (let c = 0; c < n; c++) if (eqs[c] > eqs[best]) best = c;
  }
  if (depth <= 0 || n === 1) return { plays, best, eqs };
  const order = plays.map((_, c) => c);
  const res = new Float32Array(N_OUTPUTS);
  let m = n;
  for (let stage = 0; stage < Math.min(depth, MAX_DEPTH); stage++) {
    m = keepBest(eqs, order, m, keep[Math.min(stage, keep.length - 1)], margin[Math.min(stage, margin.length - 1)]);
    if (m === 1) break;
    const before = eqs.slice();
    try {
      for (let i = 0; i < m; i++) {
        const c = order[i];
        evaluate(judge, flip(plays[c].board), stage + 1, res);
        eqs[c] = -equity(res);
      }
    } catch (err) {
      if (!(err instanceof OutOfTime)) throw err;
      eqs.set(before);
      m = 1; // keepBest put the best of the stage before first
      break;
    }
  }
  best = order[0];
  for (let i = 1; i < m; i++) if (eqs[order[i]] > eqs[best]) best = order[i];
  return { plays, best, eqs };
}
