// A play in standard notation, as table.rules.movetext.format_steps writes it ("24/18 13/8",
// "8/5(2) 6/3(2)", "bar/22*"), from single-die steps in playing order and their hit flags; and
// text read back into segments as parse_move_text reads it, refused in the same words.

import { pyRepr, pyTypeName } from "./pytext.js";

// Move text that cannot be read; the message is table.errors.NotationError's.
export class NotationError extends Error {
  get name() { return "NotationError"; }
}

export const pointName = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));

export function formatSteps(steps, hits, doubles = false) {
  // Each chain is one checker's path: [point, hit on arrival] pairs.
  const chains = [];
  steps.forEach(([src, dst], i) => {
    // A checker that stopped where this step starts is taken to go on (checkers are alike).
    const chain = chains.find((c) => c[c.length - 1][0] === src);
    if (chain) chain.push([dst, hits[i]]);
    else chains.push([[src, false], [dst, hits[i]]]);
  });
  // Steps played out of path order (8/2 before 13/8) join up as well.
  let merged = true;
  while (merged) {
    merged = false;
    for (const first of chains) {
      const later = chains.find((c) => c !== first && c[0][0] === first[first.length - 1][0]);
      if (later) {
        first.push(...later.slice(1));
        chains.splice(chains.indexOf(later), 1);
        merged = true;
        break;
      }
    }
  }
  // Checkers travelling the same path are written once with a count.
  const groups = new Map();
  for (const chain of chains) {
    const path = chain.map((c) => c[0]);
    const key = path.join(",");
    const g = groups.get(key) || { path, count: 0, hit: new Set() };
    g.count += 1;
    chain.forEach(([p, h]) => { if (h) g.hit.add(p); });
    groups.set(key, g);
  }
  // From the back of the board forward; from one point the shorter move first, except with doubles.
  const sign = doubles ? 1 : -1;
  const sorted = [...groups.values()].sort((a, b) =>
    (b.path[0] - a.path[0]) || sign * (a.path[a.path.length - 1] - b.path[b.path.length - 1]));
  return sorted.map(({ path, count, hit }) => {
    const shown = path.filter((p, i) => i === 0 || i === path.length - 1 || hit.has(p));
    const word = shown.map((p) => pointName(p) + (hit.has(p) ? "*" : "")).join("/");
    return count === 1 ? word : `${word}(${count})`;
  }).join(" ");
}

// Whether each step of a play hit a blot, replaying it on the board before it (mover's view).
export function hitsOf(board, steps) {
  const b = Array.from(board);
  return steps.map(([src, dst]) => {
    b[src] -= 1;
    const hit = dst !== 0 && b[dst] === -1;
    if (hit) b[dst] = 0;
    if (dst !== 0) b[dst] += 1;
    return hit;
  });
}

// A point of a move word: [number (bar 25, off 0), marked as a hit].
function parsePoint(text, word) {
  const m = /^(bar|b|off|o|[0-9]{1,2})(\*?)$/.exec(text);
  if (!m) throw new NotationError(`cannot read ${pyRepr(text)} in ${pyRepr(word)}: a point is 1-24, 'bar' or 'off'`);
  const p = m[1];
  const n = p === "bar" || p === "b" ? 25 : p === "off" || p === "o" ? 0 : Number(p);
  if (n > 25) throw new NotationError(`point ${n} in ${pyRepr(word)} does not exist: points are 1-24`);
  return [n, m[2] === "*"];
}

// Move text read into segments {src, dst, hit}, one per checker per stretch between named points
// ("bar/22* 13/7(2)" is four); throws a NotationError naming the part that cannot be read.
export function parseMoveText(text) {
  if (typeof text !== "string") throw new NotationError(`move text must be a string, got ${pyTypeName(text)}`);
  const words = text.trim().toLowerCase().replace(/,/g, " ").split(/\s+/).filter(Boolean);
  if (!words.length) throw new NotationError("empty move text: write moves like '24/18 13/10'");
  const segments = [];
  for (const word of words) {
    const m = /^([^()]+?)(?:\(([0-9]+)\))?$/.exec(word);
    if (!m) throw new NotationError(`cannot read ${pyRepr(word)}: write a move like '13/7' or '6/off(2)'`);
    const count = Number(m[2] ?? 1);
    if (!(count >= 1 && count <= 4)) {
      throw new NotationError(`${pyRepr(word)} repeats a move ${m[2].replace(/^0+(?=.)/, "")} times; at most 4 are possible`);
    }
    const parts = m[1].split("/");
    if (parts.length < 2 || parts.some((part) => !part)) {
      throw new NotationError(`cannot read ${pyRepr(word)}: a move is 'from/to', such as '13/7'`);
    }
    const points = parts.map((part) => parsePoint(part, word));
    if (points[0][1]) throw new NotationError(`${pyRepr(word)} marks a hit on the starting point`);
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1][0], points[i][0]];
      if (b >= a) {
        throw new NotationError(`${pyRepr(word)} moves from ${pointName(a)} to ${pointName(b)}: `
          + "checkers move toward 'off', to lower point numbers");
      }
      if (a === 0) throw new NotationError(`${pyRepr(word)} continues after bearing off`);
    }
    for (let k = 0; k < count; k++) {
      for (let i = 1; i < points.length; i++) segments.push({ src: points[i - 1][0], dst: points[i][0], hit: points[i][1] });
    }
  }
  return segments;
}
