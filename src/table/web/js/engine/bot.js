// The computer's levels offline, as table.bot.bot sets them: Ușor (easy) is the network blurred
// by noise, Mediu (medium) the network at 0-ply, Greu (hard) two plies of look-ahead on its best
// few plays; analysisDepth is how deep a level judges every play for advice (default: depth);
// budget, the plays judged at most a move (search.choose), is table.bot.bot's GREU_BUDGET.

import { choose } from "./search.js";

export const LEVELS = {
  easy: { depth: 0, noise: 0.12 },
  medium: { depth: 0, noise: 0 },
  hard: { depth: 2, noise: 0, keep: [8, 2], margin: [0.16, 0.04], analysisDepth: 1, budget: 60000 },
};

// What the computer may spend on a decision in the browser before a look-ahead of two plies
// stops and one ply answers (search.withDeadline): Greu's worst positions take seconds there.
export const THINK_MS = 1500;

// A standard normal draw from `random` (uniform on [0, 1)), by Box and Muller.
export function normalFrom(random) {
  return () => {
    let u = 0;
    while (u === 0) u = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
}

// The play the computer makes at `level` with the roll d1-d2 on `board` (mover's view):
// {board, steps} from the engine's plays, or null when nothing can be played.
export function botPlay(judge, level, board, d1, d2, random = Math.random) {
  const settings = LEVELS[level];
  if (!settings) throw new Error(`unknown level ${JSON.stringify(level)}: choose easy, medium or hard`);
  const { plays, best } = choose(judge, board, d1, d2, { ...settings, normal: normalFrom(random) });
  return plays[best].steps.length ? plays[best] : null;
}
