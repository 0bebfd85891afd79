// Trays and piles of checkers seen edge on: the borne-off checkers, and in Race, Dutch and
// Acey-Deucey each side's checkers still waiting to enter (26 in the server's steps).
import { el } from "./svg.js";

export const WAITING = 26;

// `n` checkers of `seat` seen edge on, stacked from the viewer's edge of the tray `tr`.
export function slabs(grp, tr, n, seat, mine) {
  for (let i = 0; i < n; i++) {
    const a = tr.vertical
      ? { x: tr.x + 8, y: mine ? tr.y + tr.h - 6 - (i + 1) * 16 : tr.y + 6 + i * 16, width: tr.w - 16, height: 13 }
      : { x: tr.x + tr.w - 8 - (i + 1) * ((tr.w - 16) / 15), y: tr.y + 6, width: (tr.w - 16) / 15 - 3, height: tr.h - 12 };
    el("rect", { ...a, rx: 3, class: `slab c${seat}` }, grp);
  }
}

// Each side's waiting checkers in its pile (`board._pile`); the mover's pile is where a checker
// is picked to enter, by tap, drag or keyboard, as a point is.
export function drawWaiting(board, svg, s, sources) {
  const t = board.h.t;
  for (const seat of [0, 1]) {
    const mine = seat === s.viewer, n = s.waiting[seat], tr = board._pile(mine);
    const grp = el("g", { class: "tray pile", role: "img" }, svg);
    const source = sources.has(WAITING) && s.turn === seat, picked = source && s.selected === WAITING;
    if (s.turn === seat) { grp.setAttribute("data-loc", WAITING); grp.setAttribute("tabindex", -1); grp.setAttribute("role", "button"); }
    el("rect", { x: tr.x, y: tr.y, width: tr.w, height: tr.h, rx: 6,
      class: `trayrect pilerect${source ? " source" : ""}${picked ? " picked" : ""}` }, grp);
    grp.setAttribute("aria-label", t("waiting_label", { n, colour: t(seat === 0 ? "checkers_white" : "checkers_black") }) +
      (source ? ", " + t("legal_source") : ""));
    slabs(grp, tr, n, seat, mine);
    if (n) {
      // The count over the middle of the pile, outlined so that it reads on either colour.
      const step = tr.vertical ? 16 : (tr.w - 16) / 15;
      const [cx, cy] = tr.vertical ? [tr.x + tr.w / 2, mine ? tr.y + tr.h - 6 - n * step / 2 + 9 : tr.y + 6 + n * step / 2 + 9]
        : [tr.x + tr.w - 8 - n * step / 2, tr.y + tr.h / 2 + 9];
      el("text", { x: cx, y: cy, class: "count pilecount" }, grp).textContent = n;
    }
  }
}
