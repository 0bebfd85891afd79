// Taps and drags on the board.  On a phone a checker is smaller than a fingertip, so a point's
// whole column answers for it (Board.zone), a dragged checker lands on the nearest legal point,
// and a finger that slides without carrying a checker picks nothing: a slip never plays a move.
const NS = "http://www.w3.org/2000/svg";
const SLOP = 10;  // CSS pixels a finger may wander and still be a tap

function locAt(e) {
  const target = document.elementFromPoint(e.clientX, e.clientY);
  const g = target && target.closest && target.closest("[data-loc]");
  return g ? Number(g.getAttribute("data-loc")) : null;
}

function svgXY(svg, e) {
  const pt = svg.createSVGPoint();
  pt.x = e.clientX; pt.y = e.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

// Where a dragged checker is dropped: the legal point under the finger, else the legal point
// whose zone is nearest, if it is within one point's width; else what lies under the finger.
export function snap(board, e) {
  const under = locAt(e);
  const targets = board.s.targets || [];
  if (targets.includes(under)) return under;
  const p = svgXY(board.svg, e);
  let best = null, nearest = board.g.PW;
  for (const loc of targets) {
    const r = board.zone(loc);
    const dx = Math.max(r.x - p.x, 0, p.x - (r.x + r.w)), dy = Math.max(r.y - p.y, 0, p.y - (r.y + r.h));
    const d = Math.hypot(dx, dy);
    if (d < nearest) { best = loc; nearest = d; }
  }
  return best === null ? under : best;
}

// Listen to `board`'s SVG; `board.h.pick(loc, dragging)` and `board.h.drop(from, to)` hear the result.
export function attachPointer(board) {
  const svg = board.svg;
  let drag = null;
  const cancel = () => { if (drag && drag.ghost) drag.ghost.remove(); drag = null; };
  svg.addEventListener("pointerdown", (e) => {
    cancel();
    const loc = locAt(e);
    if (loc === null) return;
    // Anywhere in a movable checker's column may start a drag of that checker.
    const from = (board.s.sources || []).includes(loc) ? loc : null;
    drag = { from, loc, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
  });
  svg.addEventListener("pointermove", (e) => {
    const d = drag;
    if (!d) return;
    const far = Math.hypot(e.clientX - d.x, e.clientY - d.y) >= SLOP;
    if (!d.moved && !far) return;
    if (d.from === null) { d.moved = true; return; }  // a slide, not a tap: it picks nothing
    if (!d.ghost) {
      d.moved = true;
      try { svg.setPointerCapture(d.id); } catch (_) { /* the pointer is gone */ }
      board.h.pick(d.from, true);
      d.ghost = document.createElementNS(NS, "circle");
      d.ghost.setAttribute("r", board.g.R - 1);
      d.ghost.setAttribute("class", `ck c${board.s.turn} ghost`);
      svg.appendChild(d.ghost);
    }
    const p = svgXY(svg, e);
    d.ghost.setAttribute("cx", p.x); d.ghost.setAttribute("cy", p.y);
  });
  svg.addEventListener("pointerup", (e) => {
    const d = drag;
    drag = null;
    if (!d) return;
    if (d.ghost) {
      d.ghost.remove();
      try { svg.releasePointerCapture(d.id); } catch (_) { /* already released */ }
      board.h.drop(d.from, snap(board, e));
      return;
    }
    // A tap: the finger came down and lifted on the same point without sliding away.
    if (!d.moved && locAt(e) === d.loc) board.h.pick(d.loc, false);
  });
  svg.addEventListener("pointercancel", cancel);
}
