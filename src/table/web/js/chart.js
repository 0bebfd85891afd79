// A small SVG line chart of a player's rating over time (no library): one line, the lowest and
// highest rating written at the left, the first and last dates underneath.
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// `points`: [{at, rating}] oldest first; `label`: the chart's accessible name; `date`: at -> text.
export function ratingChart(points, label, date) {
  const W = 320, H = 140, L = 40, R = 8, T = 10, B = 22;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "rating-chart" });
  if (!points.length) return svg;
  const rs = points.map((p) => p.rating);
  let lo = Math.min(...rs), hi = Math.max(...rs);
  if (hi - lo < 10) { lo -= 5; hi += 5; }  // a flat line sits in the middle, not on an edge
  const x = (i) => L + (points.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (points.length - 1));
  const y = (r) => T + ((hi - r) * (H - T - B)) / (hi - lo);
  svg.append(el("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }),
    el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }),
    el("text", { x: L - 4, y: T + 4, "text-anchor": "end" }, String(Math.round(hi))),
    el("text", { x: L - 4, y: H - B, "text-anchor": "end" }, String(Math.round(lo))),
    el("text", { x: L, y: H - 6 }, date(points[0].at)),
    el("text", { x: W - R, y: H - 6, "text-anchor": "end" }, date(points[points.length - 1].at)));
  svg.append(el("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "), class: "line" }));
  const last = points[points.length - 1];
  svg.append(el("circle", { cx: x(points.length - 1).toFixed(1), cy: y(last.rating).toFixed(1), r: 3, class: "dot" }));
  return svg;
}
