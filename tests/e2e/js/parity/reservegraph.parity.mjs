// The move graph of rolls in Race, Dutch and Acey-Deucey (steps from 26 enter a waiting checker):
// the server's, node for node, with its plays in the same order and notation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { moveGraph } from "../../../../src/table/web/js/engine/graph.js";
import { decodeReserveId } from "../../../../src/table/web/js/engine/reserve.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

test("every graph as the server's, node for node", () => {
  const wrong = [];
  for (const want of fixture.graphs) {
    const g = moveGraph(decodeReserveId(want.id), want.dice[0], want.dice[1], want.variant);
    const got = { depth: g.depth, plays: g.plays.map((p) => p.text), finals: { ...g.finals },
      nodes: g.nodes.map((edges) => edges.map(([a, b, die, hit, c]) => [a, b, die, hit ? 1 : 0, c])) };
    try {
      assert.deepEqual(got, { depth: want.depth, plays: want.plays, finals: want.finals, nodes: want.nodes });
    } catch (err) {
      wrong.push(`${want.variant} ${want.id} ${want.dice.join("-")}: ${err.message.slice(0, 300)}`);
    }
  }
  assert.ok(fixture.graphs.length >= 200);
  assert.deepEqual(wrong, []);
});
