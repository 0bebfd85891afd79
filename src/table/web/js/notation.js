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
  // A checker waiting off the board (Race, Dutch, Acey-Deucey) has all 25 pips to go, as on the bar.
  const w = state.waiting || [0, 0];
  let a = 25 * (state.bar[0] + w[0]), b = 25 * (state.bar[1] + w[1]);
  // Fevga (`round`): seat 1's number for point p is seat 0's p turned half round the board.
  const theirs = (i) => (state.round ? ((i + 12) % 24) + 1 : 24 - i);
  state.points.forEach((v, i) => {
    if (v > 0) a += v * (i + 1);
    else if (v < 0) b += -v * theirs(i);
  });
  // Plakoto: a pinned checker still has its way to go.
  (state.pinned || []).forEach((v, i) => { if (v > 0) a += i + 1; else if (v < 0) b += theirs(i); });
  return [a, b];
}

// The move list as players write it: one numbered row per pair of moves, white's then black's
// ("1. 3-1: 8/5 6/5   6-4: 24/14"), each game counting from 1.  `events` are the server's move
// list; the rows hold their indices: {n, cells: [white's, black's]} (null where that side has no
// move in the row), or {event} for a game heading, a cube action or a result.  A cube action
// between white's move and black's ends the row, and black's move goes on in a row of the same
// number ("3. … 6-4: 24/14"), as in chess.
export function moveRows(events) {
  const rows = [];
  let n = 0, row = null, broken = false;
  events.forEach((e, i) => {
    if (e.kind !== "move") {
      if (e.kind === "game") { n = 0; row = null; }
      rows.push({ event: i });
      broken = true;
      return;
    }
    if (row && e.seat === 1 && row.cells[1] === null && !broken) { row.cells[1] = i; return; }
    if (!(row && e.seat === 1 && row.cells[1] === null)) n += 1;
    row = { n, cells: [null, null] };
    row.cells[e.seat] = i;
    rows.push(row);
    broken = false;
  });
  return rows;
}

// The number moveRows gives the `turn`-th turn of a game (counted from 1, as the review counts
// them) when `onRoll` (0 white, 1 black) has that turn: whoever opened, white's turn t is in
// pair floor(t/2)+1 and black's in pair ceil(t/2).
export function pairNumber(turn, onRoll) {
  return onRoll === 0 ? Math.floor(turn / 2) + 1 : Math.ceil(turn / 2);
}
