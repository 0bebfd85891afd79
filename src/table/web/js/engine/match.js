// One match in the browser, for games that live on this device (table.server.play.game is the
// reference; a seeded whole-match test pins this file to it).  `LocalGame` takes the same wire
// actions as the server and gives the same per-seat views; the rules it applies (score, Crawford,
// cube) are state.js.
//
// Offline games have no Jacoby rule and no set-up start position (the app's own games have
// neither: a single game is money play without Jacoby, a match is played with Crawford).

import { formatSteps } from "./movetext.js";
import { moveGraph, playFor } from "./graph.js";
import { positionId, matchId, GAME_STATE } from "./ids.js";
import { secretDice } from "./dice.js";
import { RESERVE, RESERVE_BOARD_SIZE, THEIR_RESERVE, encodeReserveId, folded, formatReserveSteps } from "./reserve.js";
import { IllegalAction, aceyDeuceyStage, greekFlow, initialState, legalKinds, step, turn, turnBoard, whyNoDouble } from "./state.js";
import { LEVEL_NAMES, MATCH_LENGTHS, STANDARD, playable, seriesGame, seriesOf, variantOf } from "./variants.js";
import { encodeGreekId, greekGame, greekPips } from "./greek.js";
import { PINS, PLAKOTO_SIZE, rotated } from "./greekkernel.js";

export const LEVELS = LEVEL_NAMES;
export { MATCH_LENGTHS };
const PLAYER_ACTIONS = new Set(["roll", "double", "take", "drop", "resign", "accept_resignation",
  "reject_resignation", "next_game", "move", "name_double"]);

// Pips each side needs: [player on roll, opponent]; a checker waiting off the board needs 25, as
// one on the bar.
export function pipCounts(board) {
  if (board.length > RESERVE) board = folded(board);
  let mine = 0, theirs = 0;
  for (let i = 1; i < 26; i++) if (board[i] > 0) mine += board[i] * i;
  for (let i = 0; i < 25; i++) if (board[i] < 0) theirs -= board[i] * (25 - i);
  return [mine, theirs];
}

// A point in `seat`'s numbering as an absolute point (seat 0's numbering; bar, tray and waiting
// checkers, 26, unchanged).  In Fevga (`round`) both sides move the same way: seat 1's 24-point is
// seat 0's 12 (the map is its own inverse).
export const toAbs = (seat, point, round = false) => (seat === 0 || point === 0 || point === 25 || point === RESERVE ? point
  : round ? rotated(point) : 25 - point);

// Whether `variant` is Fevga, whose sides move the same way round the board.
const isRound = (variant) => greekGame(variant)?.name === "Fevga";

// Seat 0's board as views give it: points 1..24 (+ seat 0, - seat 1), bar and off per seat;
// `checkers` is each side's count (the variant's).  A 28-entry board (checkers waiting off the
// board: Race, Dutch, Acey-Deucey) adds `waiting` per seat.
export function boardJson(board, checkers = STANDARD.checkers) {
  const points = Array.from(board.slice(1, 25));
  const bar = [board[25], 0 - board[0]]; // not -board[0]: that is -0, which JSON and deepEqual tell apart
  const reserve = board.length === RESERVE_BOARD_SIZE;
  const waiting = reserve ? [board[RESERVE], 0 - board[THEIR_RESERVE]] : [0, 0];
  const on = [bar[0] + waiting[0], bar[1] + waiting[1]];
  for (const v of points) { if (v > 0) on[0] += v; else on[1] -= v; }
  // Plakoto: +1 where a checker of seat 0 is pinned under seat 1's, -1 for seat 1's under seat 0's.
  const pinned = board.length === PLAKOTO_SIZE ? Array.from(board.slice(PINS + 1, PINS + 25)) : null;
  if (pinned) for (const v of pinned) { if (v > 0) on[0] += 1; else if (v < 0) on[1] += 1; }
  const view = { points, bar, off: [checkers - on[0], checkers - on[1]] };
  if (reserve) view.waiting = waiting;
  if (pinned) view.pinned = pinned;
  return view;
}

// A play of `seat`'s as absolute steps and hits, and its text from each seat's side (`reserve`:
// a step from 26 is written "in/").
// `round`: Fevga's numbering (toAbs).
export function stepsJson(seat, play, doubles, reserve = false, round = false) {
  const steps = play ? play.steps.map(([a, b]) => [toAbs(seat, a, round), toAbs(seat, b, round)]) : [];
  const hits = play ? play.hits.slice() : [];
  const write = reserve ? formatReserveSteps : formatSteps;
  const text = [0, 1].map((s) => write(steps.map(([a, b]) => [toAbs(s, a, round), toAbs(s, b, round)]), hits, doubles));
  return { steps, hits, text };
}

// One match on this device, as table.server.play.game.Game runs one on the server: wire actions in,
// per-seat views out, and a log of entries from which `replay` rebuilds it.
// config: {mode: "computer" | "local", length, cube, level, seat (the person's, vs the computer),
// names, variant (its name; standard backgammon when absent, as in games saved before variants)}.
export class LocalGame {
  constructor(config, dice = secretDice) {
    // The Tavli match (a series) plays its games' variants in turn, to one of its lengths.
    const series = seriesOf(config.variant);
    const variant = series ? seriesGame(series, 1) : variantOf(config.variant ?? STANDARD.name);
    const title = series ? series.title : variant.title;
    if (!playable(variant) && !greekGame(variant)) throw new IllegalAction(`the browser's engine does not play ${variant.title} yet`);
    if (series && !series.lengths.includes(config.length)) {
      const allowed = `${series.lengths.slice(0, -1).join(", ")} or ${series.lengths[series.lengths.length - 1]}`;
      throw new IllegalAction(`a ${title} match is played to ${allowed} points (got ${JSON.stringify(config.length ?? null)})`);
    }
    // Race, Acey-Deucey and the Greek games are played without the cube (GameConfig.from_json's refusal).
    if (config.cube && !variant.cube) {
      throw new IllegalAction(`${title} is played without the doubling cube: cube must be false`);
    }
    this.config = { mode: config.mode, length: config.length ?? 1, cube: config.cube ?? variant.cube,
      level: config.level ?? "medium", seat: config.seat ?? 0, names: config.names ?? ["", ""],
      variant: series ? series.name : variant.name };
    this.dice = dice;
    this.state = initialState(this.single ? 0 : this.config.length, this.config.cube, variant, series);
    this.opening = null; // the Greek opening's dice [seat 0's, seat 1's], shown until the first roll is played
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
    if (!this._graph) this._graph = moveGraph(s.board, s.dice[0], s.dice[1], s.variant);
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
          && st.every((p) => Number.isInteger(p) && p >= 0 && p <= RESERVE))) {
        throw new IllegalAction("a move is {type: move, steps: [[from, to], ...]} with at most four steps between points 0..25 "
          + "(26: a checker waiting off the board)");
      }
      let play;
      try {
        const round = isRound(this.state.variant);
        play = playFor(this.graph, steps.map(([a, b]) => [toAbs(seat, a, round), toAbs(seat, b, round)]));
      } catch (e) {
        throw new IllegalAction(e.message);
      }
      return this._apply(seat, { type: "move", play: play.text });
    }
    if (kind === "next_game") throw new IllegalAction("the game is not over yet");
    if (kind === "resign" && ![1, 2, 3].includes(action.level)) {
      throw new IllegalAction(`resign needs a level of 1, 2 or 3 (single, gammon, backgammon), got ${JSON.stringify(action.level)}`);
    }
    if (kind === "name_double" && !(Number.isInteger(action.number) && action.number >= 1 && action.number <= 6)) {
      throw new IllegalAction(`name_double needs a number from 1 to 6 (the double to play), got ${JSON.stringify(action.number)}`);
    }
    // Acey-Deucey has no gammons: only a single game (level 1) may be offered.
    const oneLevel = this.state.variant.turnFlow === "acey-deucey" && kind === "resign" && action.level > 1;
    if (!legalKinds(this.state).includes(kind) || oneLevel) {
      throw new IllegalAction((kind === "double" && whyNoDouble(this.state)) || `${kind} is not possible now`);
    }
    if (kind === "name_double") return this._apply(seat, { type: "name_double", number: action.number });
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
        ...stepsJson(s.onRoll, play, s.dice[0] === s.dice[1], s.variant.entry === "reserve", isRound(s.variant)) };
    } else if (logged.type === "opening_roll" || logged.type === "next_game") {
      this.last = null;
    }
    if (logged.type === "opening_roll" && greekFlow(s.variant)) this.opening = logged.dice.slice();
    else if (logged.type !== "roll") this.opening = null;
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
    // A game starts with its opening roll, or (a Tavli match) with the last game's winner on roll.
    if (logged.type === "opening_roll" || (logged.type === "next_game" && s.phase !== "opening")) {
      this.moves.push({ kind: "game", game: s.gameNumber, score: s.score.slice() });
    }
    if (logged.type === "move" && this.last) {
      const l = this.last;
      this.moves.push({ kind: "move", seat: l.seat, dice: l.dice.slice().sort((a, b) => b - a), text: l.text,
        steps: l.steps, hits: l.hits, board: boardJson(this.boardFor(0), s.variant.checkers) });
    } else if (["double", "take", "drop", "resign"].includes(logged.type)) {
      this.moves.push({ kind: logged.type, seat: actor, cube: s.cubeValue });
    } else if (logged.type === "name_double") {
      this.moves.push({ kind: "name_double", seat: actor, number: logged.number });
    }
    const r = s.result, prev = this.moves[this.moves.length - 1];
    if (r && (s.phase === "game_over" || s.phase === "match_over") && (!prev || prev.kind !== "result")) {
      this.moves.push({ kind: "result", winner: r.winner, points: r.points, score: s.score.slice() });
    }
  }

  // The board from `player`'s side.
  boardFor(player) { return player === this.state.onRoll ? this.state.board : turnBoard(this.state.board, this.state.variant); }

  // GNU Backgammon's Position ID and Match ID of the current state.
  get ids() {
    const s = this.state;
    const over = s.phase === "game_over" || s.phase === "match_over";
    const state = s.phase === "opening" ? GAME_STATE.NO_GAME : !over ? GAME_STATE.PLAYING
      : s.result.how === "drop" ? GAME_STATE.DROPPED : s.result.how === "resign" ? GAME_STATE.RESIGNED : GAME_STATE.OVER;
    return {
      position: greekGame(s.variant) ? encodeGreekId(s.board) : s.board.length > RESERVE ? encodeReserveId(s.board) : positionId(s.board),
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
    const playing = ["roll", "move", "take", "resign", "name_double"].includes(s.phase);
    const result = s.result;
    const winner = !this.single ? (s.phase === "match_over" ? (s.score[0] > s.score[1] ? 0 : 1) : null)
      : (result && result.how !== "draw" ? result.winner : null); // a drawn Plakoto game has no winner
    const view = {
      phase: s.phase,
      variant: s.variant.name,
      ...boardJson(board0, s.variant.checkers),
      pips: greekGame(s.variant) ? greekPips(board0) : pipCounts(board0),
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
      result: result ? { winner: result.winner, points: result.points, level: result.level, cube: result.cube,
        how: result.how } : null,
      to_act: this.toAct,
      actions: [],
      moves: null,
    };
    if (s.variant.turnFlow === "acey-deucey") view.stage = aceyDeuceyStage(s);
    if (s.series) { view.kind = s.series.name; view.series = s.series.games.slice(); } // as the server's Tavli view
    if (this.mayAct(seats)) {
      let kinds = [...new Set(legalKinds(s))].sort();
      if (s.phase === "game_over" && this.single) kinds = [];
      if (s.phase === "move" && !this.graph.plays.length) kinds = [];
      view.actions = kinds;
      if (s.phase === "move" && this.graph.plays.length) {
        const act = s.onRoll, g = this.graph, round = isRound(s.variant);
        // As the server sends it: each end node with the index of its play (written out only when played).
        const finals = {};
        for (const [node, index] of Object.entries(g.finals)) finals[node] = index;
        view.moves = {
          depth: g.depth,
          nodes: g.nodes.map((edges) => edges.map(([a, b, die, hit, c]) => [toAbs(act, a, round), toAbs(act, b, round), die, hit ? 1 : 0, c])),
          finals,
        };
      }
    }
    return view;
  }
}
