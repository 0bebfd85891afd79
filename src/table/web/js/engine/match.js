// The match flow in the browser, for games that live on this device (table.match.state and
// table.server.game are the reference; a seeded whole-match test pins this file to them).
// `LocalGame` takes the same wire actions as the server and gives the same per-seat views.
//
// Offline games have no Jacoby rule and no set-up start position (the app's own games have
// neither: a single game is money play without Jacoby, a match is played with Crawford).

import { flip, initialBoard } from "./rules.js";
import { formatSteps } from "./movetext.js";
import { moveGraph, playFor } from "./graph.js";
import { positionId, matchId, GAME_STATE } from "./ids.js";

export const MAX_CUBE = 64;
export const LEVELS = ["easy", "medium", "hard"];
export const MATCH_LENGTHS = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21];
const PLAYER_ACTIONS = new Set(["roll", "double", "take", "drop", "resign", "accept_resignation",
  "reject_resignation", "next_game", "move"]);

export class IllegalAction extends Error {
  get name() { return "IllegalAction"; }
}

// Fair dice from random bytes: a byte is kept only below 252 (42 x 6), so every face is equally
// likely (no modulo bias).  `fill` fills a Uint8Array with random bytes.
export function diceFrom(fill) {
  const b = new Uint8Array(1);
  return {
    rollDie() {
      for (;;) {
        fill(b);
        if (b[0] < 252) return (b[0] % 6) + 1;
      }
    },
  };
}

// The dice of offline games: the browser's cryptographic generator.
export const secretDice = diceFrom((a) => crypto.getRandomValues(a));

// Pips each side needs: [player on roll, opponent].
export function pipCounts(board) {
  let mine = 0, theirs = 0;
  for (let i = 1; i < 26; i++) if (board[i] > 0) mine += board[i] * i;
  for (let i = 0; i < 25; i++) if (board[i] < 0) theirs -= board[i] * (25 - i);
  return [mine, theirs];
}

// The game's value from the player on roll's side if it is over (+-1, 2, 3), else 0.
export function gameResult(b) {
  let mine = 0, theirs = 0;
  for (let i = 1; i < 26; i++) if (b[i] > 0) mine += b[i];
  for (let i = 0; i < 25; i++) if (b[i] < 0) theirs -= b[i];
  if (mine === 0) {
    if (theirs < 15) return 1;
    for (let i = 0; i < 7; i++) if (b[i] < 0) return 3;
    return 2;
  }
  if (theirs === 0) {
    if (mine < 15) return -1;
    if (b[25] > 0) return -3;
    for (let i = 19; i < 25; i++) if (b[i] > 0) return -3;
    return -2;
  }
  return 0;
}

// A point in `seat`'s numbering as an absolute point (seat 0's numbering; bar and tray unchanged).
export const toAbs = (seat, point) => (seat === 0 || point === 0 || point === 25 ? point : 25 - point);

// The state before the opening roll of the first game.  `length` 0 is money play.
export function initialState(length, cube) {
  return {
    length, cube, score: [0, 0], gameNumber: 1, crawford: false, crawfordDone: false,
    phase: "opening", board: initialBoard(), onRoll: 0, dice: null, cubeValue: 1, cubeOwner: null,
    movesPlayed: 0, resignLevel: 0, resumePhase: null, resignRefused: false, result: null,
  };
}

export function resigner(s) {
  return s.resumePhase === "take" ? 1 - s.onRoll : s.onRoll;
}

// The player who must act, or null when the next action is nobody's in particular.
export function turn(s) {
  if (s.phase === "roll" || s.phase === "move") return s.onRoll;
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
    case "take": return ["take", "drop", ...resign];
    case "resign": return ["accept_resignation", "reject_resignation"];
    case "game_over": return ["next_game"];
    default: return [];
  }
}

function finish(s, winner, level, how) {
  const points = level * s.cubeValue;
  const score = s.score.slice();
  score[winner] += points;
  const over = s.length > 0 && Math.max(...score) >= s.length;
  return {
    ...s, score, dice: null, resignLevel: 0, resumePhase: null, resignRefused: false,
    phase: over ? "match_over" : "game_over",
    result: { winner, points, level, cube: s.cubeValue, how },
  };
}

function nextGame(s) {
  const crawford = s.length > 0 && !s.crawfordDone && s.score.includes(s.length - 1);
  return {
    ...s, gameNumber: s.gameNumber + 1, crawford, crawfordDone: s.crawfordDone || crawford,
    phase: "opening", board: initialBoard(), onRoll: 0, dice: null, cubeValue: 1, cubeOwner: null,
    movesPlayed: 0, resignLevel: 0, resumePhase: null, resignRefused: false, result: null,
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
      return [{ ...s, phase: "move", onRoll: starter, dice: [pair[starter], pair[1 - starter]] },
        { type: "opening_roll", dice: pair }];
    }
    case "roll": {
      expect(s, "roll");
      const rolled = action.dice == null ? [dice.rollDie(), dice.rollDie()] : checkedDice(action.dice);
      return [{ ...s, phase: "move", dice: rolled }, { type: "roll", dice: rolled }];
    }
    case "move": {
      expect(s, "move");
      const play = action.play ? graph.plays.find((p) => p.text === action.play) : null;
      if (action.play && !play) throw new IllegalAction(`${action.play} is not a legal play of ${s.dice.join("-")}`);
      if (!action.play && graph.plays.length) throw new IllegalAction(`the roll ${s.dice.join("-")} must be played`);
      const after = flip(play ? play.board : s.board);
      const moved = { ...s, board: after, onRoll: 1 - s.onRoll, dice: null, phase: "roll", movesPlayed: s.movesPlayed + 1 };
      const logged = { type: "move", play: play ? play.text : "" };
      const outcome = gameResult(after);
      return [outcome < 0 ? finish(moved, s.onRoll, -outcome, "checkers") : moved, logged];
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
      expect(s, "roll", "move", "take");
      if (![1, 2, 3].includes(action.level)) throw new IllegalAction(`a resignation is 1 (single), 2 (gammon) or 3 (backgammon), got ${JSON.stringify(action.level)}`);
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

// Seat 0's board as views give it: points 1..24 (+ seat 0, - seat 1), bar and off per seat.
export function boardJson(board) {
  const points = Array.from(board.slice(1, 25));
  const bar = [board[25], 0 - board[0]]; // not -board[0]: that is -0, which JSON and deepEqual tell apart
  const on = [bar[0], bar[1]];
  for (const v of points) { if (v > 0) on[0] += v; else on[1] -= v; }
  return { points, bar, off: [15 - on[0], 15 - on[1]] };
}

// A play of `seat`'s as absolute steps and hits, and its text from each seat's side.
export function stepsJson(seat, play, doubles) {
  const steps = play ? play.steps.map(([a, b]) => [toAbs(seat, a), toAbs(seat, b)]) : [];
  const hits = play ? play.hits.slice() : [];
  const text = [0, 1].map((s) => formatSteps(steps.map(([a, b]) => [toAbs(s, a), toAbs(s, b)]), hits, doubles));
  return { steps, hits, text };
}

// One match on this device, as table.server.game.Game runs one on the server: wire actions in,
// per-seat views out, and a log of entries from which `replay` rebuilds it.
// config: {mode: "computer" | "local", length, cube, level, seat (the person's, vs the computer), names}.
export class LocalGame {
  constructor(config, dice = secretDice) {
    this.config = { mode: config.mode, length: config.length ?? 1, cube: config.cube ?? true,
      level: config.level ?? "medium", seat: config.seat ?? 0, names: config.names ?? ["", ""] };
    this.dice = dice;
    this.state = initialState(this.single ? 0 : this.config.length, this.config.cube);
    this.log = [];
    this.last = null;
    this._graph = null;
    this.history = []; // [state before, action as logged, state after] for each entry
    this.moves = []; // the move list, as the server's Game.moves
  }

  static replay(config, log, dice = secretDice) {
    const game = new LocalGame(config, dice);
    for (const entry of log) {
      const { seat, ...action } = entry;
      game._apply(seat, action);
    }
    return game;
  }

  get single() { return this.config.length === 1; }

  isBot(seat) { return this.config.mode === "computer" && seat !== this.config.seat; }

  get isOver() {
    const p = this.state.phase;
    return this.single ? p === "game_over" || p === "match_over" : p === "match_over";
  }

  get toAct() { return this.isOver ? null : turn(this.state); }

  mayAct(seats) {
    if (this.isOver) return false;
    if (this.state.phase === "game_over") return seats.some((s) => !this.isBot(s));
    return seats.includes(this.toAct);
  }

  get graph() {
    const s = this.state;
    if (s.phase !== "move" || !s.dice) throw new IllegalAction("there is no roll to play now");
    if (!this._graph) this._graph = moveGraph(s.board, s.dice[0], s.dice[1]);
    return this._graph;
  }

  // The next action the game takes by itself (opening rolls, empty moves), or null.
  automatic() {
    if (this.isOver) return null;
    if (this.state.phase === "opening") return { type: "opening_roll" };
    if (this.state.phase === "move" && !this.graph.plays.length) return { type: "move", play: "" };
    return null;
  }

  // Check a player's wire action, apply it, and return its log entry; throws IllegalAction
  // saying what is wrong, and then nothing changes.
  act(seats, action) {
    const kind = action && action.type;
    if (!PLAYER_ACTIONS.has(kind)) throw new IllegalAction(`unknown action ${JSON.stringify(kind)}`);
    if (!this.mayAct(seats)) throw new IllegalAction("it is not your turn to act");
    if (this.state.phase === "game_over") {
      if (kind !== "next_game" || this.single) throw new IllegalAction("the game is over: the only action now is next_game");
      return this._apply(Math.min(...seats.filter((s) => !this.isBot(s))), { type: "next_game" });
    }
    const seat = this.toAct;
    if (kind === "move") {
      const steps = action.steps;
      if (!Array.isArray(steps) || steps.length > 4 || !steps.every((st) => Array.isArray(st) && st.length === 2
          && st.every((p) => Number.isInteger(p) && p >= 0 && p <= 25))) {
        throw new IllegalAction("a move is {type: move, steps: [[from, to], ...]} with at most four steps between points 0..25");
      }
      let play;
      try {
        play = playFor(this.graph, steps.map(([a, b]) => [toAbs(seat, a), toAbs(seat, b)]));
      } catch (e) {
        throw new IllegalAction(e.message);
      }
      return this._apply(seat, { type: "move", play: play.text });
    }
    if (kind === "next_game") throw new IllegalAction("the game is not over yet");
    if (kind === "resign" && ![1, 2, 3].includes(action.level)) {
      throw new IllegalAction(`resign needs a level of 1, 2 or 3 (single, gammon, backgammon), got ${JSON.stringify(action.level)}`);
    }
    if (!legalKinds(this.state).includes(kind)) {
      throw new IllegalAction((kind === "double" && whyNoDouble(this.state)) || `${kind} is not possible now`);
    }
    return this._apply(seat, kind === "resign" ? { type: "resign", level: action.level } : { type: kind });
  }

  applyAutomatic(action) { return this._apply(null, action); }

  _apply(seat, action) {
    const s = this.state;
    const graph = s.phase === "move" && s.dice ? this.graph : null;
    const [after, logged] = step(s, action, this.dice, graph);
    if (logged.type === "move") {
      // "steps" are absolute, "text" the play written from each seat's side.
      const play = logged.play ? graph.plays.find((p) => p.text === logged.play) : null;
      this.last = { seat: s.onRoll, dice: s.dice.slice(), play: logged.play,
        ...stepsJson(s.onRoll, play, s.dice[0] === s.dice[1]) };
    } else if (logged.type === "opening_roll" || logged.type === "next_game") {
      this.last = null;
    }
    this.state = after;
    this._graph = null;
    this.history.push([s, logged, after]);
    this._note(logged, turn(s));
    const entry = { seat, ...logged };
    this.log.push(entry);
    return entry;
  }

  // Extend the move list after `logged` (by `actor`): games, plays, cube actions, results.
  _note(logged, actor) {
    const s = this.state;
    if (logged.type === "opening_roll") this.moves.push({ kind: "game", game: s.gameNumber, score: s.score.slice() });
    if (logged.type === "move" && this.last) {
      const l = this.last;
      this.moves.push({ kind: "move", seat: l.seat, dice: l.dice.slice().sort((a, b) => b - a), text: l.text,
        steps: l.steps, hits: l.hits, board: boardJson(this.boardFor(0)) });
    } else if (["double", "take", "drop", "resign"].includes(logged.type)) {
      this.moves.push({ kind: logged.type, seat: actor, cube: s.cubeValue });
    }
    const r = s.result, prev = this.moves[this.moves.length - 1];
    if (r && (s.phase === "game_over" || s.phase === "match_over") && (!prev || prev.kind !== "result")) {
      this.moves.push({ kind: "result", winner: r.winner, points: r.points, score: s.score.slice() });
    }
  }

  // The board from `player`'s side.
  boardFor(player) { return player === this.state.onRoll ? this.state.board : flip(this.state.board); }

  // GNU Backgammon's Position ID and Match ID of the current state.
  get ids() {
    const s = this.state;
    const over = s.phase === "game_over" || s.phase === "match_over";
    const state = s.phase === "opening" ? GAME_STATE.NO_GAME : !over ? GAME_STATE.PLAYING
      : s.result.how === "drop" ? GAME_STATE.DROPPED : s.result.how === "resign" ? GAME_STATE.RESIGNED : GAME_STATE.OVER;
    return {
      position: positionId(s.board),
      match: matchId({ cubeValue: s.cubeValue, cubeOwner: s.cubeOwner, playerOnRoll: s.onRoll,
        crawford: s.crawford, gameState: state, turn: turn(s) ?? s.onRoll, doubleOffered: s.phase === "take",
        resignation: s.phase === "resign" ? s.resignLevel : 0, dice: s.dice || [0, 0],
        matchLength: s.length, score: s.score }),
    };
  }

  // The match as the holder of `seats` may see it, with what they may do: the server's view shape.
  view(seats) {
    const s = this.state;
    const board0 = this.boardFor(0);
    const playing = ["roll", "move", "take", "resign"].includes(s.phase);
    const result = s.result;
    const winner = !this.single ? (s.phase === "match_over" ? (s.score[0] > s.score[1] ? 0 : 1) : null)
      : (result ? result.winner : null);
    const view = {
      phase: s.phase,
      ...boardJson(board0),
      pips: pipCounts(board0),
      turn: playing ? s.onRoll : null,
      dice: s.dice ? s.dice.slice() : null,
      cube: { value: s.cubeValue, owner: s.cubeOwner, enabled: s.cube },
      score: s.score.slice(),
      length: this.config.length,
      game_number: s.gameNumber,
      crawford: s.crawford,
      over: this.isOver,
      winner,
      last: this.last,
      resignation: s.phase === "resign" ? { level: s.resignLevel, by: 1 - (turn(s) ?? 0) } : null,
      result: result ? { ...result } : null,
      to_act: this.toAct,
      actions: [],
      moves: null,
    };
    if (this.mayAct(seats)) {
      let kinds = [...new Set(legalKinds(s))].sort();
      if (s.phase === "game_over" && this.single) kinds = [];
      if (s.phase === "move" && !this.graph.plays.length) kinds = [];
      view.actions = kinds;
      if (s.phase === "move" && this.graph.plays.length) {
        const act = s.onRoll, g = this.graph;
        // As the server sends it: each end node with the index of its play (written out only when played).
        const finals = {};
        for (const [node, index] of Object.entries(g.finals)) finals[node] = index;
        view.moves = {
          depth: g.depth,
          nodes: g.nodes.map((edges) => edges.map(([a, b, die, hit, c]) => [toAbs(act, a), toAbs(act, b), die, hit ? 1 : 0, c])),
          finals,
        };
      }
    }
    return view;
  }
}
