// Moves, dice and pip counts written for the person who reads them.

// Dice are written high first, as in the openings page: "3-1", "6-6".
export function diceText(dice) {
  return [...dice].sort((a, b) => b - a).join("-");
}

// The server writes a play from each seat's side ("bar/22* 13/7(2)"); the reader's language names
// the bar and off.
export function playText(text, words) {
  return text.replace(/\bbar\b/g, words.bar).replace(/\boff\b/g, words.off);
}

// Pip counts [seat 0, seat 1] of a drawn position, so that they follow the checkers as they move.
export function pipCounts(state) {
  let a = 25 * state.bar[0], b = 25 * state.bar[1];
  state.points.forEach((v, i) => {
    if (v > 0) a += v * (i + 1);
    else if (v < 0) b += -v * (24 - i);
  });
  return [a, b];
}
