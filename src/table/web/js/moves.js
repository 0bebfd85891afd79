// Walking the server's move graph.  Each edge is [from, to, die, hit, child]; the
// graph already holds only legal steps, so nothing here decides legality.

export const isFinal = (g, node) => Object.prototype.hasOwnProperty.call(g.finals, String(node));

export function sourcesAt(g, node) {
  return [...new Set(g.nodes[node].map((e) => e[0]))];
}

// Every place the checker on `src` can reach this turn, with the edges that take it
// there: one die, or several in a row with the same checker.  The shortest way wins,
// and among equals the one that starts with the die shown first.
export function targetsFor(g, node, src, order) {
  const out = new Map();
  const rank = (e) => (order && e[2] === order[0] ? 0 : 1);
  let frontier = [{ node, at: src, path: [] }];
  while (frontier.length) {
    const next = [];
    for (const f of frontier) {
      const edges = g.nodes[f.node].filter((e) => e[0] === f.at).sort((a, b) => rank(a) - rank(b));
      for (const e of edges) {
        const path = f.path.concat([e]);
        if (!out.has(e[1])) out.set(e[1], path);
        if (e[1] !== 0) next.push({ node: e[4], at: e[1], path });
      }
    }
    frontier = next;
  }
  return out;
}

// The board after `steps` by `seat`, for drawing only (25 = that seat's bar, 0 = off, 26 = its
// checkers waiting off the board in Race, Dutch and Acey-Deucey, counted in `waiting`).
// With `lift`, the last checker is taken up but not yet put down.  Plakoto (`pinned`, +1 where
// seat 0's checker is pinned under seat 1's, -1 the other way): a lone checker landed on is pinned,
// not hit, and freed when its last captor leaves.
export function applySteps(state, steps, seat, lift) {
  const points = state.points.slice(), bar = state.bar.slice(), off = state.off.slice();
  const waiting = state.waiting ? state.waiting.slice() : undefined;
  const pinned = state.pinned ? state.pinned.slice() : undefined;
  const sign = seat === 0 ? 1 : -1;
  steps.forEach(([a, b], i) => {
    if (a === 25) bar[seat] -= 1; else if (a === 26) waiting[seat] -= 1; else points[a - 1] -= sign;
    if (pinned && a >= 1 && a <= 24 && points[a - 1] === 0 && pinned[a - 1] === -sign) {
      points[a - 1] = -sign; pinned[a - 1] = 0;
    }
    if (lift && i === steps.length - 1) return;
    if (b === 0) { off[seat] += 1; return; }
    if (pinned && points[b - 1] === -sign && !pinned[b - 1]) { points[b - 1] = 0; pinned[b - 1] = -sign; }
    if (points[b - 1] === -sign) { points[b - 1] = 0; bar[1 - seat] += 1; }
    points[b - 1] += sign;
  });
  const out = waiting ? { points, bar, off, waiting } : { points, bar, off };
  if (pinned) out.pinned = pinned;
  return out;
}
