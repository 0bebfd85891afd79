// The last move played out on the board, checker by checker, before the new state shows.
import { BAR } from "../board.js";
import { applySteps } from "../moves.js";
import * as sound from "../sound.js";
import { ui } from "./store.js";
import { boardState } from "./view.js";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function animateLast(prev, msg) {
  const last = msg.view.last;
  const pv = prev.view;
  if (!last.steps.length || pv.turn !== last.seat) return;
  let st = { points: pv.points.slice(), bar: pv.bar.slice(), off: pv.off.slice() };
  const sign = last.seat === 0 ? 1 : -1;
  for (const [a, b] of last.steps) {
    const hit = b !== 0 && st.points[b - 1] === -sign;
    const next = applySteps(st, [[a, b]], last.seat);
    const lifted = applySteps(st, [[a, b]], last.seat, true);
    ui.board.render(boardState(prev, lifted));
    await ui.board.animate(a, b, last.seat, 220);
    sound.play(hit ? "hit" : "move");
    if (hit) {
      // The hit checker leaves for the bar.
      const gone = { points: lifted.points.slice(), bar: lifted.bar, off: lifted.off };
      gone.points[b - 1] = 0;
      ui.board.render(boardState(prev, gone));
      await ui.board.animate(b, BAR, 1 - last.seat, 180);
    }
    st = next;
  }
}
