// Whole Plakoto and Fevga matches replayed in the browser's match flow (LocalGame): Python Match's
// entries and states at every step, the move graph giving exactly Python's legal plays.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { LocalGame, toAbs } from "../../../../src/table/web/js/engine/match.js";
import { playFor } from "../../../../src/table/web/js/engine/graph.js";
import { toJsonRecord } from "../../../../src/table/web/js/engine/records.js";
import { greekGame } from "../../../../src/table/web/js/engine/greek.js";

const fixture = JSON.parse(readFileSync(process.env.PARITY_FIXTURE, "utf8"));

// The state fields the Python fixture records, from the browser's game.
function stateOf(game) {
  const s = game.state, r = s.result;
  const over = s.phase === "game_over" || s.phase === "match_over";
  const view = game.view([0, 1]);
  assert.equal(view.waiting, undefined); // nothing waits off the board in these games
  if (greekGame(s.variant)) assert.deepEqual(view.bar, [0, 0]); // Portes has a bar
  return {
    variant: s.variant.name, off: view.off, pips: view.pips, pinned: view.pinned ?? null,
    phase: s.phase, onRoll: s.onRoll, dice: s.dice ? s.dice.slice() : null, score: s.score.slice(),
    gameNumber: s.gameNumber, crawford: s.crawford, position: game.ids.position,
    match: game.ids.match, plays: s.phase === "move" && s.dice ? game.graph.plays.map((p) => p.text).sort() : null,
    result: over && r ? { winner: r.winner, points: r.points, level: r.level, how: r.how } : null,
  };
}

// Python sorts with its own string order (code points), as JS's default sort does.
const pySorted = (a) => (a ? a.slice().sort() : a);

// Each match's JSON record as the browser writes it, for the Python test to read back.
const records = [];
process.on("exit", () => writeFileSync(join(dirname(process.env.PARITY_FIXTURE), "browser-records.json"), JSON.stringify(records)));

fixture.matches.forEach((m, i) => {
  test(`${m.variant} ${m.length ? `to ${m.length}` : "single game"} (match ${i}): every step as Python's Match`, () => {
    let k = 0;
    const game = new LocalGame({ mode: "local", length: m.length || 1, variant: m.variant }, { rollDie: () => m.faces[k++] });
    assert.equal(game.config.cube, false);
    m.steps.forEach((st, n) => {
      const round = game.state.variant.name === "fevga"; // a Tavli match changes game
      const where = `step ${n}: ${JSON.stringify(st.action)}`;
      const a = st.action;
      let entry;
      if (a.type === "opening_roll") entry = game.applyAutomatic({ type: "opening_roll" });
      else if (a.type === "move" && !a.play) {
        assert.deepEqual(game.automatic(), { type: "move", play: "" }, where);
        entry = game.applyAutomatic(game.automatic());
      } else if (a.type === "move") {
        // The play as a person makes it: its steps, one by one, through the view's move graph.
        const seat = game.toAct;
        const play = game.graph.plays.find((p) => p.text === a.play);
        assert.ok(play, `${where}: not among the browser's plays`);
        const steps = play.steps.map(([x, y]) => [toAbs(seat, x, round), toAbs(seat, y, round)]);
        const view = game.view([seat]);
        let node = 0;
        for (const [x, y] of steps) node = view.moves.nodes[node].find((e) => e[0] === x && e[1] === y)[4];
        assert.equal(game.graph.plays[view.moves.finals[node]].text, a.play, where);
        entry = game.act([seat], { type: "move", steps });
      } else {
        const seats = a.type === "next_game" ? [0, 1] : [game.toAct];
        entry = game.act(seats, a);
      }
      const { seat, ...logged } = entry;
      assert.deepEqual(logged, st.logged, where);
      const want = { ...st.state, plays: pySorted(st.state.plays) };
      const got = stateOf(game);
      assert.deepEqual(got, want, where);
    });
    assert.ok(game.isOver);
    records[i] = toJsonRecord(game);
    assert.deepEqual(records[i], m.record); // Table's JSON record, as Match.to_json writes it
  });
});

test("a Greek game refuses a cube, a backgammon resignation and a double, saying why, and changes nothing", () => {
  for (const variant of ["plakoto", "fevga"]) {
    assert.throws(() => new LocalGame({ mode: "local", variant, cube: true }), /without the doubling cube: cube must be false/);
    const game = new LocalGame({ mode: "local", variant, length: 3 }, { rollDie: (() => { const f = [2, 5, 3, 1]; let k = 0; return () => f[k++]; })() });
    game.applyAutomatic({ type: "opening_roll" });
    assert.equal(game.state.phase, "roll"); // the higher die rolls both dice afresh
    assert.equal(game.toAct, 1);
    const before = JSON.stringify(game.view([0, 1]));
    assert.throws(() => game.act([1], { type: "resign", level: 3 }), /has no backgammon: resign a single game \(1\) or a gammon \(2\)/);
    assert.throws(() => game.act([1], { type: "double" }), /without the doubling cube/);
    assert.equal(JSON.stringify(game.view([0, 1])), before);
  }
});

test("every play of a random walk through a Greek move graph is a legal play, from either seat", () => {
  // Walks from the graph's root to an end by random edges land on a play of the roll.
  for (const m of fixture.matches.slice(0, 2)) {
    let k = 0, checked = 0;
    const game = new LocalGame({ mode: "local", length: m.length || 1, variant: m.variant }, { rollDie: () => m.faces[k++] });
    let rnd = 7;
    for (const st of m.steps) {
      if (game.state.phase === "move" && game.graph.plays.length) {
        const seat = game.toAct, view = game.view([seat]);
        let node = 0;
        const steps = [];
        while (!(String(node) in view.moves.finals)) {
          const edges = view.moves.nodes[node];
          rnd = (rnd * 1103515245 + 12345) % 2147483648;
          const e = edges[rnd % edges.length];
          steps.push([e[0], e[1]]);
          node = e[4];
        }
        const round = m.variant === "fevga";
        const play = playFor(game.graph, steps.map(([x, y]) => [toAbs(seat, x, round), toAbs(seat, y, round)]));
        assert.ok(game.graph.plays.includes(play));
        checked += 1;
      }
      const a = st.action;
      if (a.type === "opening_roll" || (a.type === "move" && !a.play)) game.applyAutomatic(a.type === "move" ? { type: "move", play: "" } : a);
      else if (a.type === "move") game._apply(game.toAct, { type: "move", play: a.play });
      else game.act(a.type === "next_game" ? [0, 1] : [game.toAct], a);
    }
    assert.ok(checked > 10);
  }
});

test("Portes scores a backgammon as a gammon (2 points), where backgammon scores 3", async () => {
  const { initialState, step } = await import("../../../../src/table/web/js/engine/state.js");
  const { moveGraph } = await import("../../../../src/table/web/js/engine/graph.js");
  // White, on roll, bears off its last checker with 2-1; Black has a checker on the bar.
  const board = new Int8Array(26);
  board[1] = 1; board[0] = -1; board[20] = -14;
  for (const [variant, level, points] of [["portes", 2, 2], ["standard", 3, 3]]) {
    const s = { ...initialState(0, false, variant), phase: "move", board, dice: [2, 1], onRoll: 0 };
    const graph = moveGraph(board, 2, 1, s.variant);
    const [after] = step(s, { type: "move", play: graph.plays[0].text }, null, graph);
    assert.deepEqual([after.result.winner, after.result.level, after.result.points, after.score], [0, level, points, [points, 0]]);
  }
});

test("a Tavli match is played to 3, 5 or 7 points, without the cube; against the computer too", () => {
  for (const length of [1, 2, 9]) {
    assert.throws(() => new LocalGame({ mode: "local", variant: "tavli", length }), /a Tavli match is played to 3, 5 or 7 points/);
  }
  assert.throws(() => new LocalGame({ mode: "local", variant: "tavli", length: 3, cube: true }), /without the doubling cube/);
  assert.equal(new LocalGame({ mode: "computer", variant: "tavli", length: 3 }).config.mode, "computer"); // issue 51
  const game = new LocalGame({ mode: "local", variant: "Tavli", length: 5 });
  assert.equal(game.config.variant, "tavli");
  const view = game.view([0, 1]);
  assert.deepEqual([view.kind, view.series, view.variant, view.length], ["tavli", ["portes", "plakoto", "fevga"], "portes", 5]);
});
