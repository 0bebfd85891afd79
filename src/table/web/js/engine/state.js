// The state of a match between two actions, and the one function that advances it
// (table.match.state is the reference; a seeded whole-match test pins this file to it).
// `step(state, action, dice, graph)` checks the action against the rules and returns the next
// state with the action as logged; states are never changed in place, so a refused action leaves
// nothing half-done.  Match score, Crawford and the cube's rules live here; the game on this
// device around it (wire actions, views, the move list) is match.js.

import { flip, initialBoard, BOARD_SIZE } from "./rules.js";
import { flipReserve, folded } from "./reserve.js";
import { checkersLeft, doublePlayedInFull, isAceyDeucey, playedBoth } from "./aceydeucey.js";
import { STANDARD, seriesGame, variantOf } from "./variants.js";
import { greekBorneOff, greekGame, greekResult, turnRound } from "./greek.js";

export const MAX_CUBE = 64;

export class IllegalAction extends Error {
  get name() { return "IllegalAction"; }
}

// The game's value from the player on roll's side if it is over (+-1, 2, 3), else 0; `checkers`
// is each side's count (the variant's).  A 28-entry board (checkers waiting off the board) counts
// its waiting checkers as on the bar, as Position.result does.
export function gameResult(b, checkers = STANDARD.checkers) {
  if (b.length > BOARD_SIZE) b = folded(b);
  let mine = 0, theirs = 0;
  for (let i = 1; i < 26; i++) if (b[i] > 0) mine += b[i];
  for (let i = 0; i < 25; i++) if (b[i] < 0) theirs -= b[i];
  if (mine === 0) {
    if (theirs < checkers) return 1;
    for (let i = 0; i < 7; i++) if (b[i] < 0) return 3;
    return 2;
  }
  if (theirs === 0) {
    if (mine < checkers) return -1;
    if (b[25] > 0) return -3;
    for (let i = 19; i < 25; i++) if (b[i] > 0) return -3;
    return -2;
  }
  return 0;
}

// The state before the opening roll of the first game.  `length` 0 is money play; `variant` (a
// variant or its name, standard backgammon by default) sets the start and the scoring.  A `series`
// (variants.js SERIES: the Tavli match) plays its games' variants in turn, `variant` being the
// current game's (table.match.state.Settings.series).
export function initialState(length, cube, variant = STANDARD, series = null) {
  const game = series ? seriesGame(series, 1) : variantOf(variant);
  return {
    length, cube, variant: game, series, score: [0, 0], gameNumber: 1, crawford: false, crawfordDone: false,
    phase: "opening", board: initialBoard(game), onRoll: 0, dice: null, cubeValue: 1, cubeOwner: null,
    movesPlayed: 0, resignLevel: 0, resumePhase: null, resignRefused: false, result: null, stage: "",
  };
}

// The board as the other player sees it (26 entries, or 28 where checkers wait off the board);
// Plakoto's (50 entries) and Fevga's (26, turned round the board) need their `variant` named.
export const turnBoard = (board, variant) => (variant && greekGame(variant) ? turnRound(board)
  : board.length > BOARD_SIZE ? flipReserve(board) : flip(board));

// The Greek games (Plakoto, Fevga): the opening roll's winner rolls both dice afresh, no cube,
// no Crawford game without one (table.match.series.greek_flow).
export const greekFlow = (variant) => variant.turnFlow === "greek";

// Whether `variant` scores a backgammon as a gammon (the Greek games): no resignation of 3.
export const noBackgammon = (variant) => variant.scoring[2] === variant.scoring[1];

// Whether `variant` has Acey-Deucey's staged 1-2 turn and per-checker scoring.
export const aceyDeucey = (variant) => variant.turnFlow === "acey-deucey";

// Where an Acey-Deucey turn is in the staged 1-2 turn (table.match.state.acey_deucey_stage):
// "one_two", "name_double", "named_double", "extra_roll", or null (also in the other variants).
export function aceyDeuceyStage(s) {
  if (!aceyDeucey(s.variant)) return null;
  const phase = s.phase === "resign" ? s.resumePhase : s.phase;
  if (phase === "name_double") return "name_double";
  if (phase === "move") {
    if (s.stage === "named") return "named_double";
    return s.dice && isAceyDeucey(s.dice) ? "one_two" : null;
  }
  if (phase === "roll" && s.stage === "extra") return "extra_roll";
  return null;
}

export function resigner(s) {
  return s.resumePhase === "take" ? 1 - s.onRoll : s.onRoll;
}

// The player who must act, or null when the next action is nobody's in particular.
export function turn(s) {
  if (s.phase === "roll" || s.phase === "move" || s.phase === "name_double") return s.onRoll;
  if (s.phase === "take") return 1 - s.onRoll;
  if (s.phase === "resign") return 1 - resigner(s);
  return null;
}

// Why the player on roll may not double now, or null if they may.
export function whyNoDouble(s) {
  const player = s.onRoll;
  if (s.phase !== "roll") return "a double is offered only by the player on roll, before rolling";
  if (!s.cube) return "this match is played without the doubling cube";
  if (s.movesPlayed === 0) return "nobody may double before the first move of the game has been played";
  if (s.crawford) return "nobody may double in the Crawford game";
  if (s.cubeOwner !== null && s.cubeOwner !== player) return "your opponent owns the cube: only the owner may redouble";
  if (s.cubeValue >= MAX_CUBE) return `the cube is at ${MAX_CUBE}, its highest value`;
  if (s.length) {
    if (s.score[player] === s.length - 1) return "you need only one point to win the match, so you may not double";
    if (s.score[player] + s.cubeValue >= s.length) return `the cube at ${s.cubeValue} already wins you the match, so you may not double`;
  }
  return null;
}

// The kinds of action allowed now (moves and resignations as one kind each).
export function legalKinds(s, graph) {
  const resign = s.resignRefused ? [] : ["resign"];
  switch (s.phase) {
    case "opening": return ["opening_roll"];
    case "roll": return ["roll", ...(whyNoDouble(s) ? [] : ["double"]), ...resign];
    case "move": return ["move", ...resign];
    case "name_double": return ["name_double", ...resign];
    case "take": return ["take", "drop", ...resign];
    case "resign": return ["accept_resignation", "reject_resignation"];
    case "game_over": return ["next_game"];
    default: return [];
  }
}

function finish(s, winner, level, how) {
  let points, checkers = 0;
  if (aceyDeucey(s.variant)) {
    // The loser pays for every checker not borne off (docs/variants.md); no gammons.
    level = 1;
    const left = checkersLeft(s.board, s.variant);
    checkers = 1 - winner === s.onRoll ? left[0] : left[1];
    points = checkers * s.cubeValue;
  } else {
    if (level === 3 && noBackgammon(s.variant)) level = 2; // a backgammon is a gammon (docs/variants.md)
    points = s.variant.scoring[level - 1] * s.cubeValue;
  }
  const score = s.score.slice();
  score[winner] += points;
  const over = s.length > 0 && Math.max(...score) >= s.length;
  return {
    ...s, score, dice: null, resignLevel: 0, resumePhase: null, resignRefused: false, stage: "",
    phase: over ? "match_over" : "game_over",
    result: { winner, points, level, cube: s.cubeValue, how, checkers },
  };
}

// The game over without a winner (Plakoto: both mothers pinned): nobody scores, and `winner` is
// only the player who made the last move (table.match.state._draw).
function draw(s) {
  return { ...s, dice: null, resignLevel: 0, resumePhase: null, resignRefused: false, stage: "", phase: "game_over",
    result: { winner: 1 - s.onRoll, points: 0, level: 0, cube: s.cubeValue, how: "draw", checkers: 0 } };
}

function nextGame(s) {
  const number = s.gameNumber + 1;
  const variant = s.series ? seriesGame(s.series, number) : s.variant;
  const crawford = s.length > 0 && !s.crawfordDone && s.score.includes(s.length - 1) && (s.cube || !greekFlow(variant));
  // In a series the last game's winner starts the next one; after a draw the dice decide.
  const starter = s.series && s.result && s.result.how !== "draw" ? s.result.winner : null;
  return {
    ...s, gameNumber: number, crawford, crawfordDone: s.crawfordDone || crawford, variant,
    phase: starter === null ? "opening" : "roll", board: initialBoard(variant), onRoll: starter ?? 0, dice: null,
    cubeValue: 1, cubeOwner: null,
    movesPlayed: 0, resignLevel: 0, resumePhase: null, resignRefused: false, result: null, stage: "",
  };
}

const checkedDice = (d) => {
  if (!Array.isArray(d) || d.length !== 2 || !d.every((v) => Number.isInteger(v) && v >= 1 && v <= 6)) {
    throw new IllegalAction(`a roll is two dice from 1 to 6, got ${JSON.stringify(d)}`);
  }
  return [d[0], d[1]];
};

function expect(s, ...phases) {
  if (!phases.includes(s.phase)) throw new IllegalAction(`not possible now: the match is at ${s.phase}`);
}

// Apply `action` ({type, ...} as logged: dice filled in, the play as text) to state `s`; returns
// [next state, the action as logged].  `dice` rolls what the action leaves to chance.  `graph`
// is the move graph of the roll on the table (for "move").
export function step(s, action, dice, graph) {
  const [after, logged] = innerStep(s, action, dice, graph);
  // A refusal bars a new offer at that decision only; any other action starts a new one.
  return [after.resignRefused && action.type !== "reject_resignation" ? { ...after, resignRefused: false } : after, logged];
}

function innerStep(s, action, dice, graph) {
  switch (action.type) {
    case "opening_roll": {
      expect(s, "opening");
      let pair;
      if (action.dice == null) {
        do pair = [dice.rollDie(), dice.rollDie()]; while (pair[0] === pair[1]);
      } else {
        pair = checkedDice(action.dice);
        if (pair[0] === pair[1]) throw new IllegalAction("an opening roll needs two different dice");
      }
      const starter = pair[0] > pair[1] ? 0 : 1;
      if (greekFlow(s.variant)) { // the higher die starts, rolling both dice afresh
        return [{ ...s, phase: "roll", onRoll: starter, dice: null }, { type: "opening_roll", dice: pair }];
      }
      return [{ ...s, phase: "move", onRoll: starter, dice: [pair[starter], pair[1 - starter]] },
        { type: "opening_roll", dice: pair }];
    }
    case "roll": {
      expect(s, "roll");
      const rolled = action.dice == null ? [dice.rollDie(), dice.rollDie()] : checkedDice(action.dice);
      return [{ ...s, phase: "move", dice: rolled, stage: "" }, { type: "roll", dice: rolled }];
    }
    case "move": {
      expect(s, "move");
      const play = action.play ? graph.plays.find((p) => p.text === action.play) : null;
      if (action.play && !play) throw new IllegalAction(`${action.play} is not a legal play of ${s.dice.join("-")}`);
      if (!action.play && graph.plays.length) throw new IllegalAction(`the roll ${s.dice.join("-")} must be played`);
      const after = turnBoard(play ? play.board : s.board, s.variant);
      const moved = { ...s, board: after, onRoll: 1 - s.onRoll, dice: null, phase: "roll",
        movesPlayed: s.movesPlayed + 1, stage: "" };
      const logged = { type: "move", play: play ? play.text : "" };
      if (greekGame(s.variant)) {
        const [outcome, over] = greekResult(after, s.variant);
        // Plakoto: a win with checkers still on the board is the pinned mother's.
        const how = greekBorneOff(after, s.variant)[1] === s.variant.checkers ? "checkers" : "mother";
        if (outcome < 0) return [finish(moved, s.onRoll, -outcome, how), logged];
        return [outcome === 0 && over ? draw(moved) : moved, logged];
      }
      const outcome = gameResult(after, s.variant.checkers);
      if (outcome < 0) return [finish(moved, s.onRoll, -outcome, "checkers"), logged];
      const goesOn = nextStage(s, play);
      if (goesOn) { // Acey-Deucey: the same player stays on roll for the next stage
        return [{ ...moved, board: Int8Array.from(play.board), onRoll: s.onRoll, phase: goesOn,
          stage: goesOn === "roll" ? "extra" : "" }, logged];
      }
      return [moved, logged];
    }
    case "name_double": {
      expect(s, "name_double");
      const n = action.number;
      if (!Number.isInteger(n) || n < 1 || n > 6) {
        throw new IllegalAction(`a named double is a die's number, 1 to 6, got ${JSON.stringify(n)}`);
      }
      return [{ ...s, phase: "move", dice: [n, n], stage: "named" }, { type: "name_double", number: n }];
    }
    case "double": {
      const reason = whyNoDouble(s);
      if (reason) throw new IllegalAction(reason);
      return [{ ...s, phase: "take" }, { type: "double" }];
    }
    case "take":
      expect(s, "take");
      return [{ ...s, phase: "roll", cubeValue: s.cubeValue * 2, cubeOwner: 1 - s.onRoll }, { type: "take" }];
    case "drop":
      expect(s, "take");
      return [finish(s, s.onRoll, 1, "drop"), { type: "drop" }];
    case "resign":
      expect(s, "roll", "move", "name_double", "take");
      if (![1, 2, 3].includes(action.level)) throw new IllegalAction(`a resignation is 1 (single), 2 (gammon) or 3 (backgammon), got ${JSON.stringify(action.level)}`);
      if (action.level === 3 && noBackgammon(s.variant)) {
        throw new IllegalAction(`${s.variant.title} has no backgammon: resign a single game (1) or a gammon (2)`);
      }
      if (action.level > 1 && aceyDeucey(s.variant)) {
        throw new IllegalAction("Acey-Deucey has no gammons: a resignation (level 1) gives up the game at one point per checker not borne off");
      }
      if (s.resignRefused) throw new IllegalAction("a resignation was just refused: make your decision first");
      return [{ ...s, phase: "resign", resumePhase: s.phase, resignLevel: action.level }, { type: "resign", level: action.level }];
    case "accept_resignation":
      expect(s, "resign");
      return [finish(s, 1 - resigner(s), s.resignLevel, "resign"), { type: "accept_resignation" }];
    case "reject_resignation":
      expect(s, "resign");
      return [{ ...s, phase: s.resumePhase, resumePhase: null, resignLevel: 0, resignRefused: true }, { type: "reject_resignation" }];
    case "next_game":
      expect(s, "game_over");
      return [nextGame(s), { type: "next_game" }];
    default:
      throw new IllegalAction(`unknown action ${JSON.stringify(action.type)}`);
  }
}

// After `play` of Acey-Deucey's staged turn, the phase the same player goes on to: naming a double
// after both the 1 and the 2, the extra roll after a named double played in full; null when the
// turn passes (table.match.state._goes_on).
function nextStage(s, play) {
  if (!play || !aceyDeucey(s.variant)) return null;
  if (s.stage === "named") return doublePlayedInFull(play) ? "roll" : null;
  return playedBoth(play) ? "name_double" : null;
}
