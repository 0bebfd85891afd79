// Acey-Deucey's turn in the browser: the pieces its staged 1-2 turn is built from, as
// table.rules.aceydeucey defines them (the reference; tests/e2e/test_reserve_parity.py pins them).
//
// A roll of 1-2 is played in three stages (docs/variants.md): the 1 and the 2; if both were played,
// a double the player names, four times; if that was played in full, another roll.  The moves are
// ordinary reservePlays (of [2, 1], then of [d, d]); these say where a stage leaves the player and
// whether the turn goes on.  A play is one of reservePlays' ({board, steps, dice, variant}).

import { reservePlays, reserveResult, borneOff } from "./reserve.js";
import { VariantError, variantOf } from "./variants.js";

// Whether the roll is a 1 and a 2, which starts the staged turn.
export const isAceyDeucey = (dice) => [...dice].sort().join() === "1,2";

// Whether `variant` has the staged 1-2 turn and the per-checker scoring.
export const playsAceyDeucey = (variant) => variantOf(variant).turnFlow === "acey-deucey";

function check(variant) {
  const v = variantOf(variant);
  if (v.name !== "acey-deucey") throw new VariantError(`the staged 1-2 turn is Acey-Deucey's, not ${v.title}'s`);
}

// Whether the player on roll can play both the 1 and the 2 (else the turn ends after them); the
// maximum-use rule makes every legal play of 1-2 use both dice when one can.
export function canPlayBoth(board, variant) {
  check(variant);
  const plays = reservePlays(board, [2, 1], variant);
  return plays.length > 0 && plays[0].steps.length === 2;
}

// Whether a play of 1-2 used both dice: the player then names a double.
export function playedBoth(play) {
  check(play.variant);
  return isAceyDeucey(play.dice) && play.steps.length === 2;
}

// The board after `play` seen by the same player, who goes on with the next stage.
export function stillOnRoll(play) {
  check(play.variant);
  return Int8Array.from(play.board);
}

// Whether a named double was played four times: only then does the player roll again.
export function doublePlayedInFull(play) {
  check(play.variant);
  return play.dice[0] === play.dice[1] && play.steps.length === 4;
}

// Each side's checkers not borne off (on the board, on the bar or waiting), the player on roll's
// first: what that side pays if it loses now.
export function checkersLeft(board, variant) {
  check(variant);
  const [mine, theirs] = borneOff(board, variant);
  const checkers = variantOf(variant).checkers;
  return [checkers - mine, checkers - theirs];
}

// The finished game's value from the player on roll's side: the loser's checkers not borne off,
// 1 to 15, no gammons; 0 while playing.
export function gameValue(board, variant) {
  check(variant);
  const outcome = reserveResult(board, variant);
  if (outcome === 0) return 0;
  const [mine, theirs] = checkersLeft(board, variant);
  return outcome > 0 ? theirs : -mine;
}
