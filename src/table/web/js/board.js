// The SVG board: draws a position and reports taps, drags and key presses.
// It knows geometry only; what is legal comes from the caller (the server's moves).

import { attachPointer } from "./touch.js";
import { el } from "./svg.js";
import { WAITING, drawWaiting, slabs } from "./pile.js";
import { isPinned, pinMark, pinnedText, seenFrom, stackAt } from "./greekboard.js";

export const BAR = 25, OFF = 0;
export { WAITING };

// Two shapes.  "wide" (landscape, desktop): trays in a column on the right.  "tall" (a phone
// held upright): no tray column, so the points get the whole width; the trays are strips above
// and below the board, and the points grow as long as the screen allows.  Sizes are in SVG units.
// With checkers waiting off the board (`waiting`), each side's pile is a tray of its own: on the
// left in a column like the trays' (wide), in the strips above and below the left half (tall).
function geometry(tall, aspect, waiting) {
  const g = tall
    ? { PW: 62, BARW: 62, M: 6, TRAY: 0, NUM: 36, FONT: 27, STRIP: 62, DIE: 74, CUBE: 60, CH: 60 }
    : { PW: 64, BARW: 58, M: 12, TRAY: 64, NUM: 34, FONT: 24, STRIP: 0, DIE: 58, CUBE: 50, CH: 58 };
  g.R = g.CH / 2; g.Q = 6 * g.PW;
  g.M0 = g.M;                             // the margin; M is the left edge of the board
  if (waiting && !tall) g.M = 2 * g.M0 + g.TRAY;
  g.XR = g.M + g.Q + g.BARW;              // left edge of the right half
  g.XT = g.XR + g.Q + g.M0;               // left edge of the tray column (wide)
  g.W = g.XT + (g.TRAY ? g.TRAY + g.M0 : 0);
  const edge = g.STRIP + g.NUM;
  const want = aspect ? Math.round(g.W * aspect) - 2 * edge : 664;
  g.BH = tall ? Math.max(560, Math.min(1500, want)) : 664;
  g.TOP = edge; g.BOT = edge + g.BH; g.H = g.BOT + edge;
  // Points leave the middle free for the dice.
  g.PH = Math.min((tall ? 8 : 5) * g.CH, (g.BH - g.DIE - 24) / 2);
  g.TH = 252;                             // wide tray height: 15 slabs of 16
  return g;
}

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

export class Board {
  constructor(svg, handlers) {
    this.svg = svg;
    this.h = handlers;  // {pick(loc), drop(from, to), t(key, params)}
    this.g = geometry(false);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.focusLoc = null;
    attachPointer(this);
    svg.addEventListener("keydown", (e) => this._key(e));
  }

  // Where a point sits on screen: x of its left edge and whether it is in the bottom row.
  _slot(p) {
    const { M, XR, PW } = this.g;
    const dp = seenFrom(this.s, this.s.viewer, p);
    if (dp <= 6) return { x: XR + (6 - dp) * PW, bottom: true, dp };
    if (dp <= 12) return { x: M + (12 - dp) * PW, bottom: true, dp };
    if (dp <= 18) return { x: M + (dp - 13) * PW, bottom: false, dp };
    return { x: XR + (dp - 19) * PW, bottom: false, dp };
  }

  // What a tap or a drop on `loc` covers: a point's whole column, from its number at the edge to
  // near the middle of the board (a checker is smaller than a fingertip); the tray of the side on roll.
  zone(loc) {
    if (loc === OFF) return this._tray(this.s.turn === this.s.viewer);
    if (loc === WAITING) return this._pile(this.s.turn === this.s.viewer);
    const { x, bottom } = this._slot(loc), { TOP, BOT, NUM, H, PW } = this.g, mid = H / 2, gap = 8;
    return bottom ? { x, y: mid + gap, w: PW, h: BOT + NUM - mid - gap } : { x, y: TOP - NUM, w: PW, h: mid - gap - TOP + NUM };
  }

  _checkerXY(loc, seat, index) {
    const s = this.s, { M, Q, BARW, CH, R, PH, PW, TOP, BOT, H } = this.g;
    if (loc === BAR) {
      const mine = seat === s.viewer;
      const step = Math.min(CH, (PH - CH) / Math.max(1, s.bar[seat] - 1));
      const off = Math.min(index * step, PH - CH);
      return [M + Q + BARW / 2, mine ? H / 2 + 44 + R + off : H / 2 - 44 - R - off];
    }
    if (loc === OFF || loc === WAITING) {
      const t = loc === OFF ? this._tray(seat === s.viewer) : this._pile(seat === s.viewer);
      return [t.x + t.w / 2, t.y + t.h / 2];
    }
    const { x, bottom } = this._slot(loc);
    const n = stackAt(s, loc).length;
    // Stacks taller than the point squeeze together; the top checker shows the count.
    const step = n * CH > PH ? (PH - CH) / (n - 1) : CH;
    const off = Math.min(index * step, PH - CH);
    return [x + PW / 2, bottom ? BOT - R - off : TOP + R + off];
  }

  // Where a checker of `seat` moving to `loc` comes to rest (the next free place).
  centre(loc, seat) {
    if (loc === OFF || loc === BAR || loc === WAITING) return this._checkerXY(loc, seat, loc === BAR ? this.s.bar[seat] : 0);
    const n = stackAt(this.s, loc).length;
    // A lone opposing checker is hit and leaves (Plakoto: pinned, and stays under).
    const blot = n === 1 && !this.s.pinned && (this.s.points[loc - 1] > 0 ? 0 : 1) !== seat;
    return this._checkerXY(loc, seat, blot ? 0 : n);
  }

  _tray(mine) {
    const { XT, TRAY, TH, TOP, BOT, XR, M, Q, STRIP, H } = this.g;
    if (TRAY) return { x: XT, y: mine ? BOT - TH : TOP, w: TRAY, h: TH, vertical: true };
    // Fevga: the other side's home board is the far left quarter, and its tray above it.
    return { x: this.s.round && !mine ? M : XR, y: mine ? H - STRIP + 4 : 4, w: Q, h: STRIP - 8, vertical: false };
  }

  // The pile of a side's checkers waiting to enter: the trays' mirror image, on the left.
  _pile(mine) {
    const { M0, M, TRAY, TH, TOP, BOT, Q, STRIP, H } = this.g;
    if (TRAY) return { x: M0, y: mine ? BOT - TH : TOP, w: TRAY, h: TH, vertical: true };
    return { x: M, y: mine ? H - STRIP + 4 : 4, w: Q, h: STRIP - 8, vertical: false };
  }

  render(s) {
    this.s = s;
    const g = this.g = geometry(!!s.tall, s.aspect, !!s.waiting);
    const { W, H, M, Q, BARW, XR, TOP, BOT, BH, PW, PH, CH, FONT } = g;
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.classList.toggle("selecting", s.selected !== undefined && s.selected !== null);
    const t = this.h.t;
    this._hadFocus = svg.contains(document.activeElement);
    svg.textContent = "";
    svg.setAttribute("aria-label", t("board_label"));
    svg.setAttribute("aria-roledescription", t("board_role"));
    this._defs(svg);
    el("rect", { x: 0, y: 0, width: W, height: H, rx: 14, class: "frame" }, svg);
    el("rect", { x: M, y: TOP, width: Q, height: BH, class: "felt" }, svg);
    el("rect", { x: XR, y: TOP, width: Q, height: BH, class: "felt" }, svg);
    el("rect", { x: M + Q, y: TOP, width: BARW, height: BH, class: "bar" }, svg);
    const lit = new Set(s.targets || []);
    const sources = new Set(s.sources || []);
    // Points
    for (let p = 1; p <= 24; p++) {
      const { x, bottom, dp } = this._slot(p);
      const grp = el("g", { "data-loc": p, class: "pt", tabindex: -1, role: "button" }, svg);
      const count = s.points[p - 1];
      const who = count > 0 ? 0 : 1;
      const num = seenFrom(s, s.numbersFor, p);
      grp.setAttribute("data-num", num);
      const n = Math.abs(count);
      const what = n === 0 ? t("point_empty", { n: num })
        : n === 1 ? t("point_one", { n: num, colour: t(who === 0 ? "checker_white" : "checker_black") })
          : t("point_label", { n: num, count: n, colour: t(who === 0 ? "checkers_white" : "checkers_black") });
      grp.setAttribute("aria-label", what + pinnedText(s, p, t) + (lit.has(p) ? ", " + t("legal_target") : sources.has(p) ? ", " + t("legal_source") : ""));
      const y0 = bottom ? BOT : TOP, y1 = bottom ? BOT - PH : TOP + PH;
      const z = this.zone(p);
      el("rect", { x: z.x, y: z.y, width: z.w, height: z.h, class: "hit" }, grp);
      el("polygon", { points: `${x + 2},${y0} ${x + PW - 2},${y0} ${x + PW / 2},${y1}`,
        class: `tri ${(dp % 2) ? "odd" : "even"}` }, grp);
      if (s.showNumbers) {
        el("text", { x: x + PW / 2, y: bottom ? BOT + g.NUM / 2 + FONT * 0.36 : TOP - g.NUM / 2 + FONT * 0.36,
          class: "num", "font-size": FONT }, svg).textContent = num;
      }
      const stack = stackAt(s, p), h = stack.length; // a pinned checker (Plakoto) at the foot
      for (let i = 0; i < h; i++) {
        const [cx, cy] = this._checkerXY(p, stack[i], i);
        this._checker(grp, cx, cy, stack[i], sources.has(p) && i === h - 1, s.selected === p && i === h - 1);
        if (isPinned(s, p, i)) pinMark(grp, cx, cy, g.R);
        if (h * CH > PH && i === h - 1) el("text", { x: cx, y: cy + 8, class: `count c${who}` }, grp).textContent = n;
      }
    }
    if (!s.noBar) this._bar(svg, s, sources); // Plakoto and Fevga have none: nothing is hit
    // Trays
    for (const seat of [0, 1]) {
      const mine = seat === s.viewer;
      const tr = this._tray(mine);
      const grp = el("g", { class: "tray", role: "img" }, svg);
      const here = lit.has(OFF) && s.turn === seat;
      if (s.turn === seat) { grp.setAttribute("data-loc", OFF); grp.setAttribute("tabindex", -1); grp.setAttribute("role", "button"); }
      el("rect", { x: tr.x, y: tr.y, width: tr.w, height: tr.h, rx: 6, class: `trayrect${here ? " lit" : ""}` }, grp);
      grp.setAttribute("aria-label", t("tray_label", { n: s.off[seat], colour: t(seat === 0 ? "checkers_white" : "checkers_black") }) +
        (here ? ", " + t("legal_target") : ""));
      slabs(grp, tr, s.off[seat], seat, mine);
      if (here) this._ghost(grp, tr.x + tr.w / 2, tr.y + tr.h / 2, s.turn, "off");
    }
    if (s.waiting) drawWaiting(this, svg, s, sources);
    this._offer = null;
    this._cube(svg, s);
    this._arrows(svg, s);
    this._dice(svg, s);
    // Destinations last, so that nothing covers them: a see-through checker where it will land.
    for (const p of lit) {
      if (p === OFF) continue;
      const grp = el("g", { "data-loc": p, class: "dest" }, svg);
      const [cx, cy] = this.centre(p, s.turn);
      const hit = s.points[p - 1] !== 0 && (s.points[p - 1] > 0 ? 0 : 1) !== s.turn;
      this._ghost(grp, cx, cy, s.turn, hit ? "hit" : "");
    }
    this._focusables = [...svg.querySelectorAll(".pt[data-loc], .tray[data-loc]")];
    this._restoreFocus();
  }

  _bar(svg, s, sources) {
    const { M, Q, BARW, TOP, BH } = this.g, t = this.h.t;
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
      if (s.bar[seat] > 1) {
        const [cx, cy] = this._checkerXY(BAR, seat, s.bar[seat] - 1);
        el("text", { x: cx, y: cy + 8, class: `count c${seat}` }, barG).textContent = s.bar[seat];
      }
    }
  }

  _defs(svg) {
    const defs = el("defs", {}, svg);
    const m = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.4, markerHeight: 3.4,
      orient: "auto-start-reverse", markerUnits: "strokeWidth" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, m);
  }

  _ghost(parent, cx, cy, seat, kind) {
    el("circle", { cx, cy, r: this.g.R - 1, class: `target ghost-ck c${seat}${kind ? " " + kind : ""}` }, parent);
    el("circle", { cx, cy, r: this.g.R * 0.3, class: "target-dot" }, parent);
  }

  _cube(svg, s) {
    const c = s.cube;
    if (!c || !c.enabled || s.crawford) return;
    const { M, Q, BARW, H, CUBE, XT, TRAY, XR, STRIP, BOT, TOP } = this.g;
    let cx, cy, value = c.value, cls = "cube";
    if (s.offeredBy !== null && s.offeredBy !== undefined) {
      // An offered cube sits in the offering side's half, toward the bar, showing the stake it
      // proposes; dice in that half make way for it (_dice), so that its value can be read.
      const [hx, hy] = this._diceCentre(s.offeredBy), size = CUBE * 1.3;
      cx = hx + (hx < XR ? 1 : -1) * (Q / 2 - size / 2 - 12); cy = hy;
      this._offer = { left: cx - size / 2, right: cx + size / 2, half: hx };
      value = c.value * 2; cls += " offered";
    } else if (c.owner === null) {
      if (c.value !== 1) return;
      cx = M + Q + BARW / 2; cy = H / 2;
    } else {
      const mine = c.owner === s.viewer;
      if (TRAY) { cx = XT + TRAY / 2; cy = mine ? BOT - this.g.TH - CUBE / 2 - 14 : TOP + this.g.TH + CUBE / 2 + 14; }
      else { cx = XR - BARW / 2; cy = mine ? H - STRIP / 2 : STRIP / 2; }
    }
    const size = cls.includes("offered") ? CUBE * 1.3 : CUBE;
    const g = el("g", { class: cls, role: "img", "aria-label": this.h.t("cube_label", { v: value }) }, svg);
    el("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 7 }, g);
    el("text", { x: cx, y: cy + size * 0.19, "font-size": size * 0.52 }, g).textContent = value === 1 ? 64 : value;
  }

  // The middle of the half where `seat`'s dice lie: the right half for the viewer.
  _diceCentre(seat) {
    const { XR, M, Q, H } = this.g;
    const mine = seat === this.s.viewer || this.s.local;
    return [mine ? XR + Q / 2 : M + Q / 2, H / 2];
  }

  _dice(svg, s) {
    const { DIE, M, Q, H } = this.g;
    const o = this._offer;
    const row = (parent, cx, faces, seat, used, size) => {
      const gap = size * 0.18;
      const width = faces.length * size + (faces.length - 1) * gap;
      // Away from an offered cube in the same half.
      if (o && o.half === cx) cx = o.left > cx ? Math.min(cx, o.left - gap - width / 2) : Math.max(cx, o.right + gap + width / 2);
      faces.forEach((d, i) => this._die(parent, cx - width / 2 + i * (size + gap), H / 2 - size / 2, d, seat, used[i], size));
    };
    if (s.dice) {
      const grp = el("g", { class: `dice${s.rolling ? " rolling" : ""}`, role: "img",
        "aria-label": this.h.t("dice_label", { a: Math.max(...s.dice), b: Math.min(...s.dice) }) }, svg);
      const double = s.dice[0] === s.dice[1];
      // A double is four dice; each one fades as it is used.
      const faces = double ? [s.dice[0], s.dice[0], s.dice[0], s.dice[0]] : s.dice;
      const used = double ? faces.map((_, i) => i >= 4 - (s.usedCount || 0)) : (s.used || []);
      row(grp, this._diceCentre(s.turn)[0], faces, s.turn, used, DIE);
    }
    // The dice of the last move, smaller, in the left half when the current dice leave it free.
    if (s.lastDice && s.lastDice.length && (!s.dice || this._diceCentre(s.turn)[0] !== M + Q / 2)) {
      const grp = el("g", { class: "dice lastdice", role: "img",
        "aria-label": this.h.t("last_dice_label", { a: Math.max(...s.lastDice), b: Math.min(...s.lastDice) }) }, svg);
      row(grp, M + Q / 2, s.lastDice, s.lastSeat, [], DIE * 0.72);
    }
  }

  // The last move as arrows from where each checker left to where it landed; hits are marked.
  _arrows(svg, s) {
    if (!s.lastSteps || !s.lastSteps.length) return;
    const g = el("g", { class: "arrows", "aria-hidden": "true" }, svg);
    const seat = s.lastSeat;
    const name = (loc) => (loc === BAR ? "bar" : loc === OFF ? "off" : loc === WAITING ? "in"
      : String(seenFrom(s, s.numbersFor, loc)));
    s.lastSteps.forEach(([a, b], i) => {
      const from = this._anchor(a, seat, true);
      const to = this._anchor(b, seat, false);
      const hit = !!(s.lastHits && s.lastHits[i]);
      // Bend each arrow a little toward the middle of the board, so that it does not hide the points it crosses.
      const mx = (from[0] + to[0]) / 2, my = (from[1] + to[1]) / 2;
      const bend = (this.g.H / 2 - my) * 0.35 + (from[1] === to[1] ? (from[1] > this.g.H / 2 ? -60 : 60) : 0);
      // Straight across the board (13 to 12, say) it bends sideways, toward the bar, so that it is
      // told apart from the checkers of that column and is never a line without width.
      const side = from[0] === to[0] ? (from[0] > this.g.M + this.g.Q + this.g.BARW / 2 ? -60 : 60) : 0;
      const d = `M${from[0]},${from[1]} Q${mx + side},${my + bend} ${to[0]},${to[1]}`;
      el("path", { d, class: "arrow-under" }, g);
      el("path", { d, class: "arrow", "marker-end": "url(#arrowhead)", "data-from": name(a), "data-to": name(b),
        "data-hit": hit ? "1" : "0" }, g);
      if (hit) {
        const m = el("g", { class: "hitmark" }, g);
        el("circle", { cx: to[0], cy: to[1], r: this.g.R + 4 }, m);
      }
    });
  }

  _anchor(loc, seat, leaving) {
    if (loc === OFF || loc === WAITING) return this._checkerXY(loc, seat, 0);
    if (loc === BAR) return this._checkerXY(BAR, seat, Math.max(0, this.s.bar[seat] - (leaving ? 0 : 1)));
    const n = stackAt(this.s, loc).length;
    const own = n && (this.s.points[loc - 1] > 0 ? 0 : 1) === seat;
    return this._checkerXY(loc, seat, leaving ? (own ? n : 0) : Math.max(0, n - 1));
  }

  _checker(g, cx, cy, seat, movable, selected) {
    const { R } = this.g;
    el("circle", { cx, cy, r: R - 1, class: `ck c${seat}${movable ? " movable" : ""}${selected ? " selected" : ""}` }, g);
    el("circle", { cx, cy, r: R - 9, class: `ring c${seat}` }, g);
    if (selected) el("circle", { cx, cy, r: R + 5, class: "selring" }, g);
  }

  _die(g, x, y, v, seat, used, size) {
    const d = el("g", { class: `die c${seat}${used ? " used" : ""}` }, g);
    const k = size / 56;
    el("rect", { x, y, width: size, height: size, rx: 9 * k }, d);
    for (const [i, j] of PIPS[v]) el("circle", { cx: x + i * 14 * k, cy: y + j * 14 * k, r: 5 * k, class: "pip" }, d);
  }

  // Slide a checker from one location to another; resolves when done.
  animate(from, to, seat, ms) {
    if (!ms) return Promise.resolve();
    const [x0, y0] = this.centre(from, seat);
    const [x1, y1] = this.centre(to, seat);
    const c = el("circle", { cx: 0, cy: 0, r: this.g.R - 1, class: `ck c${seat} flying` }, this.svg);
    const a = c.animate([{ transform: `translate(${x0}px,${y0}px)` }, { transform: `translate(${x1}px,${y1}px)` }],
      { duration: ms, easing: "ease-out", fill: "forwards" });
    return a.finished.then(() => c.remove(), () => c.remove());
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
