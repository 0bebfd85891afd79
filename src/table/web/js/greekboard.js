// Plakoto and Fevga on the board (board.js asks): the numbering of each side (Fevga's sides move
// the same way, so seat 1's 24-point is seat 0's 12), a pinned checker drawn at the foot of its
// point under its captors with a mark of its own and said in the point's label (Plakoto), and the
// tray of a Fevga side beside its own home board.  The drawn state carries `round` (Fevga) and
// `pinned` (Plakoto: per point of seat 0's numbering, +1 where a checker of seat 0 is pinned under
// seat 1's, -1 the other way), from the view.

import { el } from "./svg.js";

// The number of point `p` (seat 0's numbering) for `seat`.
export const seenFrom = (s, seat, p) => (seat === 0 ? p : s.round ? ((p + 11) % 24) + 1 : 25 - p);

// The seats of the checkers on point `p`, from the edge of the board inward: a pinned checker first.
export function stackAt(s, p) {
  const v = s.points[p - 1], pin = s.pinned ? s.pinned[p - 1] : 0;
  const out = pin ? [pin > 0 ? 0 : 1] : [];
  for (let i = 0; i < Math.abs(v); i++) out.push(v > 0 ? 0 : 1);
  return out;
}

// Whether the checker at `index` of point `p` is a pinned one (it is always the first).
export const isPinned = (s, p, index) => index === 0 && !!(s.pinned && s.pinned[p - 1]);

// What a point's label adds for a checker pinned there.
export function pinnedText(s, p, t) {
  const pin = s.pinned ? s.pinned[p - 1] : 0;
  return pin ? ", " + t("point_pinned", { colour: t(pin > 0 ? "checker_white" : "checker_black") }) : "";
}

// The mark on a pinned checker: a red ring and a cross, readable on either colour.
export function pinMark(parent, cx, cy, R) {
  const m = el("g", { class: "pinmark" }, parent);
  el("circle", { cx, cy, r: R - 3 }, m);
  const k = R * 0.38;
  el("path", { d: `M${cx - k},${cy - k} L${cx + k},${cy + k} M${cx + k},${cy - k} L${cx - k},${cy + k}` }, m);
}
