// The move graph the board walks (table.rules.movegraph is the reference): every legal order of
// single-checker steps for a roll, built from the engine's single-step rule and kept only where
// it leads to a legal play.  Edges are [from, to, die, hit, child], points in the mover's numbering.
// In the variants whose checkers start off the board (28-entry boards, reserve.js) a step from 26
// enters a waiting checker, and the walk (table.rules.graphkernel's) takes the reserve's step rule.
// Plakoto and Fevga (no Python graph yet) walk greekkernel.js's step rule (pins, Fevga's first
// checker) and keep the orders ending on one of greekPlays' boards (maximum use, Fevga's starting
// quarter and prime): a step's `hit` there is a pin.

import { BAR, applyStep, generate, highestPoint, stepTarget } from "./rules.js";
import { formatSteps, hitsOf } from "./movetext.js";
import { RESERVE, formatReserveSteps, rearmost, reservePlays, reserveTarget } from "./reserve.js";
import { STANDARD, variantOf } from "./variants.js";
import { greekGame, greekPlays, greekPlayText } from "./greek.js";
import { apply as greekApply, target as greekTarget } from "./greekkernel.js";

const isReserve = (variant) => variant.entry === "reserve";

// The legal plays of a roll with their texts, in the engine's order: [{board, steps, hits, text}]
// (reserve variants' plays also carry {dice, variant}, as reservePlays gives them).
export function namedPlays(board, d1, d2, variant = STANDARD) {
  const doubles = d1 === d2;
  const v = variantOf(variant);
  const write = isReserve(v) ? formatReserveSteps : formatSteps;
  const greek = greekGame(v);
  const seen = new Set();
  const out = [];
  // The dice as rolled: the order follows them.
  const all = greek ? greekPlays(board, [d1, d2], v) : isReserve(v) ? reservePlays(board, [d1, d2], v) : generate(board, d1, d2);
  for (const play of all) {
    const hits = greek ? play.hits : hitsOf(board, play.steps);
    const text = greek ? greekPlayText(play) : write(play.steps, hits, doubles);
    if (seen.has(text)) continue; // as a dict keyed by text keeps the first
    seen.add(text);
    out.push({ ...play, hits, text });
  }
  return out;
}

// {plays, nodes, finals: {node: play index}, depth} for the roll d1-d2 on `board` (mover's view).
export function moveGraph(board, d1, d2, variant = STANDARD) {
  const v = variantOf(variant);
  const plays = namedPlays(board, d1, d2, v);
  const reserve = isReserve(v), greek = greekGame(v);
  const top = reserve ? RESERVE : greek ? 24 : BAR;
  if (!plays.length) return { plays, nodes: [[]], finals: {}, depth: 0 };
  const depth = plays[0].steps.length;
  const targets = new Map(plays.map((p, i) => [p.board.join(","), i]));
  const diceLeft = d1 === d2 ? [d1, d1, d1, d1] : [Math.max(d1, d2), Math.min(d1, d2)];
  const nodes = [], finals = {}, seen = new Map();
  const visit = (bd, left, level) => {
    const key = `${bd.join(",")}|${left.join(",")}`;
    if (seen.has(key)) return seen.get(key);
    let node = -1;
    if (level === depth) {
      const index = targets.get(bd.join(","));
      if (index !== undefined) {
        node = nodes.length + 1;
        nodes.push([]);
        finals[node] = index;
      }
      seen.set(key, node);
      return node;
    }
    const edges = [];
    const high = reserve ? rearmost(bd) : highestPoint(bd);
    for (const die of [...new Set(left)].sort((a, b) => b - a)) {
      const rest = left.slice();
      rest.splice(rest.indexOf(die), 1);
      for (let src = top; src > 0; src--) {
        if (bd[src] <= 0) continue;
        const dst = greek ? greekTarget(bd, src, die, greek.code)
          : reserve ? reserveTarget(bd, src, die, high, v.rules) : stepTarget(bd, src, die, high);
        if (dst < 0) continue;
        const nxt = Int8Array.from(bd);
        const hit = greek ? greekApply(nxt, src, dst, greek.code) : applyStep(nxt, src, dst);
        const child = visit(nxt, rest, level + 1);
        if (child >= 0) edges.push([src, dst, die, hit, child]);
      }
    }
    if (edges.length) {
      node = nodes.length + 1;
      nodes.push(edges);
    }
    seen.set(key, node);
    return node;
  };
  visit(Int8Array.from(board), diceLeft, 0);
  // Nodes are numbered as they are finished; the root, finished last, takes number 0.
  return { plays, nodes: [nodes[nodes.length - 1], ...nodes.slice(0, -1)], finals, depth };
}

// The play that `steps` ([from, to] pairs in order) make in graph `g`; throws saying what is wrong.
export function playFor(g, steps) {
  if (!g.plays.length) {
    if (steps.length) throw new Error("no move is possible with this roll: send no steps");
    throw new Error("no move is possible with this roll: there is no play");
  }
  let node = 0;
  steps.forEach(([src, dst], k) => {
    const e = g.nodes[node].find((edge) => edge[0] === src && edge[1] === dst);
    if (!e) throw new Error(`step ${k + 1} (${src}/${dst}) is not a legal move here`);
    node = e[4];
  });
  if (!(node in g.finals)) {
    throw new Error(`the play is not complete: ${steps.length} of ${g.depth} steps made; the whole roll must be used when it can be`);
  }
  return g.plays[g.finals[node]];
}
