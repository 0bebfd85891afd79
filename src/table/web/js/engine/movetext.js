// A play in standard notation, as table.rules.movetext.format_steps writes it ("24/18 13/8",
// "8/5(2) 6/3(2)", "bar/22*"), from single-die steps in playing order and their hit flags.

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
