// The SVG board: draws a position and reports taps, drags and key presses.
// It knows geometry only; what is legal comes from the caller (the server's moves).

const NS = "http://www.w3.org/2000/svg";
const PW = 64, Q = PW * 6, BARW = 56, M = 12, TRAY = 64, NUM = 26;
const CH = PW - 6, R = CH / 2;
const W = M + Q + BARW + Q + M + TRAY + M;
const XR = M + Q + BARW;              // left edge of the right half
const XT = M + Q + BARW + Q + M;      // left edge of the trays
const TOP = NUM, TH = 252;            // tray height: 15 slabs of 16
// The board's height: a phone held upright gets longer points, so the board fills the screen.
let BH = 640, PH = 5 * CH, H = NUM + BH + NUM, BOT = NUM + BH;
function setHeight(tall) {
  BH = tall ? 940 : 640; PH = (tall ? 7 : 5) * CH; H = NUM + BH + NUM; BOT = NUM + BH;
}
export const BAR = 25, OFF = 0;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Where a point sits when seat 0 is at the bottom: x of its left edge and whether it is in the bottom row.
function slot(p) {
  if (p <= 6) return { x: XR + (6 - p) * PW, bottom: true };
  if (p <= 12) return { x: M + (12 - p) * PW, bottom: true };
  if (p <= 18) return { x: M + (p - 13) * PW, bottom: false };
  return { x: XR + (p - 19) * PW, bottom: false };
}

export class Board {
  constructor(svg, handlers) {
    this.svg = svg;
    this.h = handlers;  // {pick(loc), drop(from, to), t(key, params), keyNav}
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.drag = null;
    this.focusLoc = null;
    svg.addEventListener("pointerdown", (e) => this._down(e));
    svg.addEventListener("pointermove", (e) => this._move(e));
    svg.addEventListener("pointerup", (e) => this._up(e));
    svg.addEventListener("pointercancel", () => this._cancelDrag());
    svg.addEventListener("keydown", (e) => this._key(e));
  }

  // Screen placement of a location for seat `seat`'s checkers, seen by `viewer`.
  _drawPoint(p) { return this.s.viewer === 0 ? p : 25 - p; }

  _checkerXY(loc, seat, index) {
    const s = this.s;
    if (loc === BAR) {
      const mine = seat === s.viewer;
      const cx = M + Q + BARW / 2;
      const step = Math.min(CH, 200 / Math.max(1, s.bar[seat]));
      const cy = mine ? H / 2 + 40 + R + index * step : H / 2 - 40 - R - index * step;
      return [cx, cy];
    }
    const { x, bottom } = slot(this._drawPoint(loc));
    const n = Math.abs(s.points[loc - 1]);
    // Stacks taller than the point squeeze together; the top checker shows the count.
    const step = n * CH > PH ? (PH - CH) / (n - 1) : CH;
    const off = Math.min(index * step, PH - CH);
    const cy = bottom ? BOT - R - off : TOP + R + off;
    return [x + PW / 2, cy];
  }

  // Centre of a location, where a moving checker lands.
  centre(loc, seat) {
    const s = this.s;
    if (loc === OFF) {
      const mine = seat === s.viewer;
      return [XT + TRAY / 2, mine ? BOT - 40 : TOP + 40];
    }
    if (loc === BAR) return this._checkerXY(BAR, seat, 0);
    const n = Math.abs(s.points[loc - 1]);
    return this._checkerXY(loc, seat, Math.min(n, 4));
  }

  render(s) {
    this.s = s;
    const svg = this.svg;
    setHeight(!!s.tall);
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const t = this.h.t;
    this._hadFocus = svg.contains(document.activeElement);
    svg.textContent = "";
    svg.setAttribute("aria-label", t("board_label"));
    el("rect", { x: 0, y: 0, width: W, height: H, rx: 14, class: "frame" }, svg);
    el("rect", { x: M, y: TOP, width: Q, height: BH, class: "felt" }, svg);
    el("rect", { x: XR, y: TOP, width: Q, height: BH, class: "felt" }, svg);
    el("rect", { x: M + Q, y: TOP, width: BARW, height: BH, class: "bar" }, svg);
    const lit = new Set(s.targets || []);
    const sources = new Set(s.sources || []);
    const last = new Set(s.lastPoints || []);
    // Points
    for (let p = 1; p <= 24; p++) {
      const dp = this._drawPoint(p);
      const { x, bottom } = slot(dp);
      const g = el("g", { "data-loc": p, class: "pt", tabindex: -1, role: "button" }, svg);
      const count = s.points[p - 1];
      const who = count > 0 ? 0 : 1;
      const num = s.numbersFor === 0 ? p : 25 - p;
      g.setAttribute("aria-label", t("point_label", {
        n: num, count: Math.abs(count),
        colour: count === 0 ? "" : t(who === 0 ? "checkers_white" : "checkers_black"),
      }) + (lit.has(p) ? ", " + t("legal_target") : sources.has(p) ? ", " + t("legal_source") : ""));
      const y0 = bottom ? BOT : TOP, y1 = bottom ? BOT - PH : TOP + PH;
      el("rect", { x, y: bottom ? BOT - PH - 20 : TOP, width: PW, height: PH + 20, class: "hit" }, g);
      el("polygon", { points: `${x + 2},${y0} ${x + PW - 2},${y0} ${x + PW / 2},${y1}`,
        class: `tri ${(dp % 2) ? "odd" : "even"}${last.has(p) ? " last" : ""}` }, g);
      if (s.showNumbers) {
        el("text", { x: x + PW / 2, y: bottom ? H - 8 : 19, class: "num" }, svg).textContent = num;
      }
      const n = Math.abs(count);
      for (let i = 0; i < n; i++) {
        const [cx, cy] = this._checkerXY(p, who, i);
        this._checker(g, cx, cy, who, sources.has(p) && i === n - 1, s.selected === p && i === n - 1);
        if (n * CH > PH && i === n - 1) el("text", { x: cx, y: cy + 7, class: `count c${who}` }, g).textContent = n;
      }
      if (lit.has(p)) {
        const cy = bottom ? BOT - PH - 6 : TOP + PH + 6;
        el("circle", { cx: x + PW / 2, cy, r: 9, class: "target" }, g);
      }
    }
    // Bar
    const barG = el("g", { "data-loc": BAR, class: "pt barzone", tabindex: -1, role: "button" }, svg);
    el("rect", { x: M + Q, y: TOP, width: BARW, height: BH, class: "hit" }, barG);
    barG.setAttribute("aria-label", t("bar_label", { a: s.bar[s.viewer], b: s.bar[1 - s.viewer] }) +
      (sources.has(BAR) ? ", " + t("legal_source") : ""));
    for (const seat of [0, 1]) {
      for (let i = 0; i < s.bar[seat]; i++) {
        const [cx, cy] = this._checkerXY(BAR, seat, i);
        const top = i === s.bar[seat] - 1;
        this._checker(barG, cx, cy, seat, sources.has(BAR) && seat === s.turn && top, s.selected === BAR && seat === s.turn && top);
      }
      if (s.bar[seat] > 3) {
        const [cx, cy] = this._checkerXY(BAR, seat, s.bar[seat] - 1);
        el("text", { x: cx, y: cy + 7, class: `count c${seat}` }, barG).textContent = s.bar[seat];
      }
    }
    // Trays
    for (const seat of [0, 1]) {
      const mine = seat === s.viewer;
      const g = el("g", { class: "tray", role: "img" }, svg);
      if (s.turn === seat) { g.setAttribute("data-loc", OFF); g.setAttribute("tabindex", -1); g.setAttribute("role", "button"); }
      const y = mine ? BOT - TH : TOP;
      el("rect", { x: XT, y, width: TRAY, height: TH, rx: 6, class: `trayrect${lit.has(OFF) && s.turn === seat ? " lit" : ""}` }, g);
      g.setAttribute("aria-label", t("tray_label", { n: s.off[seat], colour: t(seat === 0 ? "checkers_white" : "checkers_black") }) +
        (lit.has(OFF) && s.turn === seat ? ", " + t("legal_target") : ""));
      for (let i = 0; i < s.off[seat]; i++) {
        const yy = mine ? BOT - 6 - (i + 1) * 16 : TOP + 6 + i * 16;
        el("rect", { x: XT + 8, y: yy, width: TRAY - 16, height: 13, rx: 3, class: `slab c${seat}` }, g);
      }
    }
    // Cube
    if (s.cube && s.cube.enabled) {
      const owner = s.cube.owner;
      // Centred on the bar; once owned, beside its owner's tray.
      const cy = owner === null ? H / 2 : owner === s.viewer ? H / 2 + 40 : H / 2 - 40;
      const cx = owner === null ? M + Q + BARW / 2 : XT + TRAY / 2;
      const g = el("g", { class: "cube", role: "img", "aria-label": t("cube_label", { v: s.cube.value }) }, svg);
      el("rect", { x: cx - 24, y: cy - 24, width: 48, height: 48, rx: 7 }, g);
      el("text", { x: cx, y: cy + 9 }, g).textContent = s.cube.value === 1 ? 64 : s.cube.value;
    }
    // Dice
    if (s.dice) {
      const mine = s.turn === s.viewer || s.local;
      const cx0 = mine ? XR + Q / 2 : M + Q / 2;
      const g = el("g", { class: `dice${s.rolling ? " rolling" : ""}`, role: "img",
        "aria-label": t("dice_label", { a: s.dice[0], b: s.dice[1] }) }, svg);
      const faces = s.dice[0] === s.dice[1] ? [s.dice[0], s.dice[0]] : s.dice;
      faces.forEach((d, i) => {
        const used = (s.used || [])[i];
        this._die(g, cx0 - 66 + i * 76, H / 2 - 28, d, s.turn, used);
      });
      if (s.dice[0] === s.dice[1] && s.usedCount !== undefined && s.usedCount < 4) {
        el("text", { x: cx0 + 70, y: H / 2 + 10, class: "num" }, g).textContent = `×${4 - s.usedCount}`;
      }
    }
    this._focusables = [...svg.querySelectorAll("[data-loc]")];
    this._restoreFocus();
  }

  _checker(g, cx, cy, seat, movable, selected) {
    el("circle", { cx, cy, r: R - 1, class: `ck c${seat}${movable ? " movable" : ""}${selected ? " selected" : ""}` }, g);
    el("circle", { cx, cy, r: R - 9, class: `ring c${seat}` }, g);
  }

  _die(g, x, y, v, seat, used) {
    const d = el("g", { class: `die c${seat}${used ? " used" : ""}` }, g);
    el("rect", { x, y, width: 56, height: 56, rx: 9 }, d);
    const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
      5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[v];
    for (const [i, j] of pips) el("circle", { cx: x + i * 14, cy: y + j * 14, r: 5, class: "pip" }, d);
  }

  // Slide a checker from one location to another; resolves when done.
  animate(from, to, seat, ms) {
    if (!ms) return Promise.resolve();
    const [x0, y0] = this.centre(from, seat);
    const [x1, y1] = this.centre(to, seat);
    const c = el("circle", { cx: 0, cy: 0, r: R - 1, class: `ck c${seat} flying` }, this.svg);
    const a = c.animate([{ transform: `translate(${x0}px,${y0}px)` }, { transform: `translate(${x1}px,${y1}px)` }],
      { duration: ms, easing: "ease-out", fill: "forwards" });
    return a.finished.then(() => c.remove(), () => c.remove());
  }

  _loc(e) {
    const target = document.elementFromPoint(e.clientX, e.clientY);
    const g = target && target.closest && target.closest("[data-loc]");
    return g ? Number(g.getAttribute("data-loc")) : null;
  }

  _svgXY(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  _down(e) {
    const loc = this._loc(e);
    if (loc === null) return;
    const sources = new Set(this.s.sources || []);
    if (sources.has(loc) && e.target.classList.contains("ck")) {
      this.drag = { from: loc, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
    } else {
      this.drag = { from: null, x: e.clientX, y: e.clientY, moved: false, loc };
    }
  }

  _move(e) {
    const d = this.drag;
    if (!d || d.from === null) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
    if (!d.moved) {
      d.moved = true;
      this.svg.setPointerCapture(d.id);
      this.h.pick(d.from, true);
      d.ghost = el("circle", { r: R - 1, class: `ck c${this.s.turn} ghost` }, this.svg);
    }
    const p = this._svgXY(e);
    d.ghost.setAttribute("cx", p.x); d.ghost.setAttribute("cy", p.y);
  }

  _up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (d.moved) {
      if (d.ghost) d.ghost.remove();
      try { this.svg.releasePointerCapture(d.id); } catch (_) { /* already released */ }
      this.h.drop(d.from, this._loc(e));
      return;
    }
    const loc = this._loc(e);
    if (loc !== null) this.h.pick(loc, false);
  }

  _cancelDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }

  // Keyboard: arrows walk the points in the viewer's numbering, Enter or Space picks.
  _key(e) {
    const g = e.target.closest && e.target.closest("[data-loc]");
    if (!g) return;
    const loc = Number(g.getAttribute("data-loc"));
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.focusLoc = loc;
      this.h.pick(loc, false);
      return;
    }
    const order = this._focusables;
    const i = order.indexOf(g);
    let j = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = (i + 1) % order.length;
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = (i - 1 + order.length) % order.length;
    if (j !== null) {
      e.preventDefault();
      this._focus(order[j]);
    }
  }

  _focus(g) {
    for (const o of this._focusables) o.setAttribute("tabindex", -1);
    g.setAttribute("tabindex", 0);
    g.focus();
    this.focusLoc = Number(g.getAttribute("data-loc"));
  }

  _restoreFocus() {
    const all = this._focusables;
    if (!all.length) return;
    const had = this._hadFocus;
    let g = all.find((o) => Number(o.getAttribute("data-loc")) === this.focusLoc);
    if (!g) g = all.find((o) => (this.s.sources || []).includes(Number(o.getAttribute("data-loc")))) || all[0];
    g.setAttribute("tabindex", 0);
    if (had) g.focus();
  }
}
