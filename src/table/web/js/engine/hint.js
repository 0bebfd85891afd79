// The computer's advice offline, as the server's hint gives it (table.server.learn.routes.hint_for):
// Greu's best plays with their equities and chances, or its cube decision.

import { turnBoard } from "./state.js";
import { namedPlays } from "./graph.js";
import { chances, cubeDecision, equityOf as equity } from "./player.js";
import { LEVELS } from "./bot.js";

export const HINT_PLAYS = 5;
const LEVEL = "hard";
// Every play is judged at the level's analysis depth (Bot.analyse_plays in Python).
const ANALYSIS = LEVELS[LEVEL].analysisDepth ?? LEVELS[LEVEL].depth;

const wild = (e) => ({ win: e.win, winG: e.winGammon, winBg: e.winBackgammon, loseG: e.loseGammon, loseBg: e.loseBackgammon });

// Advice for the player who must decide in match state `s` (LocalGame.state).
export function hintFor(judge, s) {
  if (s.phase === "move" && s.dice) {
    const ranked = namedPlays(s.board, s.dice[0], s.dice[1], s.variant).map((play) => {
      const e = chances(judge, LEVEL, turnBoard(play.board, s.variant), ANALYSIS); // the opponent's: turn it round
      const mine = { win: 1 - e.win, winGammon: e.loseGammon, winBackgammon: e.loseBackgammon,
        loseGammon: e.winGammon, loseBackgammon: e.winBackgammon };
      return { play: play.text, e: mine, equity: equity(mine) };
    }).sort((a, b) => b.equity - a.equity);
    const best = ranked.length ? ranked[0].equity : 0;
    return { kind: "play", plays: ranked.slice(0, HINT_PLAYS).map((r) => ({
      play: r.play, equity: r.equity, diff: r.equity - best, probabilities: wild(r.e) })) };
  }
  const d = cubeDecision(judge, LEVEL, s, s.onRoll);
  return { kind: "cube", no_double: d.nd, double_take: d.dt, double_pass: d.dp, double: d.double, take: d.take,
    probabilities: wild(chances(judge, LEVEL, s.board)) };
}
