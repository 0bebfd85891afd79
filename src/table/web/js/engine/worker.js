// The computer's thinking, off the page's thread: {type: "think", id, level, state} is answered
// with {type: "action", id, action}, {type: "hint", id, state} likewise with Greu's advice; {type: "db", db} hands over the bear-off database and
// {type: "build"} builds it here and posts it back ({type: "built", db}).  Each decision has
// THINK_MS: a look-ahead of two plies still running then stops, and one ply answers.
import { loadWeights } from "./nn.js";
import { makeJudge, withDeadline } from "./search.js";
import { THINK_MS } from "./bot.js";
import { computerAction } from "./player.js";
import { build, representatives } from "./bearoff.js";
import { hintFor } from "./hint.js";
import { STANDARD } from "./variants.js";

// The networks each variant plays with (variants.json "weights", as table.bot.evaluator.
// evaluator_for gives them): the standard ones (bot/table.*, Nackgammon's too) and Hypergammon's
// own (bot/hypergammon.*), each exported by scripts/export-web-weights and loaded on first use.
const FILES = { standard: "table", hypergammon: "hypergammon" };
const judges = new Map();
let database = null; // the bear-off database once the page hands it over (15 checkers a side)

async function ready(variant = STANDARD) {
  const name = variant.weights;
  if (!(name in FILES)) throw new Error(`the browser has no networks for ${variant.title} (${name})`);
  if (!judges.has(name)) {
    const file = FILES[name];
    const [header, bin] = await Promise.all([
      fetch(`/static/bot/${file}.json`).then((r) => r.json()),
      fetch(`/static/bot/${file}.bin`).then((r) => r.arrayBuffer()),
    ]);
    // The browser's database is built for fifteen checkers a side: its first-off layer would
    // say a side of three has one off, so a variant with fewer plays its races by the network.
    const standardCount = variant.checkers === STANDARD.checkers;
    judges.set(name, makeJudge(loadWeights(header, bin), standardCount ? database : null, variant.checkers));
  }
  return judges.get(name);
}

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type === "build") {
    const t0 = performance.now();
    const db = build();
    self.postMessage({ type: "built", db, ms: performance.now() - t0 }, [db.finish.buffer, db.first.buffer, db.rep.buffer]);
  } else if (msg.type === "db") {
    // A database kept by an older client lacks the representatives: they follow from the rest.
    if (!msg.db.rep) msg.db.rep = representatives(msg.db.finish, msg.db.first);
    database = msg.db;
    for (const judge of judges.values()) if (judge.checkers === STANDARD.checkers) judge.db = database;
  } else if (msg.type === "think" || msg.type === "hint") {
    try {
      const j = withDeadline(await ready(msg.state.variant), THINK_MS);
      const t0 = performance.now();
      const action = msg.type === "hint" ? hintFor(j, msg.state) : computerAction(j, msg.level, msg.state);
      self.postMessage({ type: "action", id: msg.id, action, ms: performance.now() - t0 });
    } catch (err) {
      self.postMessage({ type: "action", id: msg.id, error: String(err) });
    }
  }
};
