// The computer at an offline table (table.bot.player and table.server.play.computer are the
// reference): its next wire action for the seat that must act, from the match state alone, in
// every game the browser plays: Plakoto and Fevga on their own boards (the judge's `greek`), and
// Portes and the Tavli match's games as the state's variant says (the judge must be that variant's).

import { evaluate, OutOfTime } from "./search.js";
import { botPlay, LEVELS } from "./bot.js";
import { acceptResignation, efficiency as boardEfficiency, matchDouble, moneyDouble } from "./cube.js";
import { toAbs } from "./match.js";
import { BOARD_SIZE } from "./rules.js";
import { folded } from "./reserve.js";
import { doublePlayedInFull } from "./aceydeucey.js";
import { gameResult, turn, turnBoard, whyNoDouble } from "./state.js";
import { greekGame } from "./greek.js";
import { FEVGA } from "./greekkernel.js";

// The cube's efficiency of a board of either width (a 28-entry one folded, as cube.efficiency does).
const efficiency = (board) => boardEfficiency(board.length > BOARD_SIZE ? folded(board) : board);

// Cubeless money equity of chances as chances() gives them (Evaluation.equity: rounded to 12 places).
export const equityOf = (e) => Math.round((2 * e.win - 1 + e.winGammon + e.winBackgammon - e.loseGammon
  - e.loseBackgammon) * 1e12) / 1e12;

// Cubeless chances for the player on roll at `board`, at `level`'s depth unless `depth` is given,
// put in order once in double precision (as table.bot.bot.Bot.evaluate does); one ply ahead when
// the judge's deadline cuts a deeper look short.
export function chances(judge, level, board, depth = LEVELS[level].depth) {
  const v = new Float32Array(5);
  try {
    evaluate(judge, board, depth, v);
  } catch (err) {
    if (!(err instanceof OutOfTime)) throw err;
    evaluate(judge, board, 1, v);
  }
  const win = Math.min(Math.max(v[0], 0), 1);
  const winGammon = Math.min(Math.max(v[1], 0), win);
  const loseGammon = Math.min(Math.max(v[3], 0), 1 - win);
  return { win, winGammon, winBackgammon: Math.min(Math.max(v[2], 0), winGammon), loseGammon,
    loseBackgammon: Math.min(Math.max(v[4], 0), loseGammon) };
}

const swapped = (e) => ({ win: 1 - e.win, winGammon: e.loseGammon, winBackgammon: e.loseBackgammon,
  loseGammon: e.winGammon, loseBackgammon: e.winBackgammon });

function sideOf(s, player) {
  const owner = s.cubeOwner === null ? "centre" : s.cubeOwner === player ? "player" : "opponent";
  return [owner, [s.score[player], s.score[1 - player]]];
}

// The cube decision of `player` (on roll) at `level`: {double, take, nd, dt, dp, best}.
export function cubeDecision(judge, level, s, player) {
  const [owner, score] = sideOf(s, player);
  const e = chances(judge, level, s.board);
  const x = efficiency(s.board);
  return s.length === 0 ? moneyDouble(e, s.cubeValue, owner, x)
    : matchDouble(e, s.length, score, s.cubeValue, owner, s.crawford, x);
}

// Acey-Deucey, after a 1-2 played in full: the double to name at `level` on `board` (seen by the
// same player), as Bot.choose_double names it: each double played as the level plays it and judged
// where it leaves the game (played in full, the same player rolls again; else the opponent is on
// roll; a won game beats any position), at the level's analysis depth; the lowest of equals.
export function chooseDouble(judge, level, board, variant, random = Math.random) {
  const settings = LEVELS[level];
  const depth = settings.analysisDepth ?? settings.depth;
  let best = null;
  for (let d = 1; d <= 6; d++) {
    const play = botPlay(judge, level, board, d, d, random);
    let value;
    if (play === null) {
      value = -equityOf(chances(judge, level, turnBoard(board), depth));
    } else {
      const after = turnBoard(play.board); // the opponent's view, as Play.position
      const outcome = gameResult(after, variant.checkers);
      if (outcome !== 0) value = -outcome * 100;
      else if (doublePlayedInFull({ ...play, dice: [d, d], variant })) value = equityOf(chances(judge, level, play.board, depth));
      else value = -equityOf(chances(judge, level, after, depth));
    }
    if (best === null || value > best[0]) best = [value, d];
  }
  return best[1];
}

// The computer's wire action in match state `s` (LocalGame.state), or null when it has none.
export function computerAction(judge, level, s, random = Math.random) {
  const player = turn(s);
  if (player === null) return null;
  if (s.phase === "name_double") return { type: "name_double", number: chooseDouble(judge, level, s.board, s.variant, random) };
  if (s.phase === "roll") {
    if (!whyNoDouble(s) && cubeDecision(judge, level, s, player).double) return { type: "double" };
    return { type: "roll" };
  }
  if (s.phase === "move") {
    const play = botPlay(judge, level, s.board, s.dice[0], s.dice[1], random);
    const round = greekGame(s.variant)?.code === FEVGA; // Fevga's sides count round the same way
    return { type: "move", steps: play ? play.steps.map(([a, b]) => [toAbs(player, a, round), toAbs(player, b, round)]) : [] };
  }
  if (s.phase === "take") {
    // The position is the doubler's: decide from the doubler's side and answer.
    return { type: cubeDecision(judge, level, s, s.onRoll).take ? "take" : "drop" };
  }
  if (s.phase === "resign") {
    const [owner, score] = sideOf(s, player);
    let e = chances(judge, level, s.board);
    if (s.onRoll !== player) e = swapped(e);
    const x = efficiency(s.board);
    const ok = acceptResignation(e, s.resignLevel, s.cubeValue, owner, s.length, score, s.crawford, x);
    return { type: ok ? "accept_resignation" : "reject_resignation" };
  }
  return null;
}

