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
import { STANDARD, networkFile, variantOf } from "./variants.js";

// Each variant's networks (variants.networkFile), loaded on first use; one judge per variant.
const networks = new Map(); // file -> weights
const judges = new Map(); // variant name -> judge
let database = null; // the bear-off database once the page hands it over (15 checkers a side)

async function ready(variant = STANDARD) {
  if (!judges.has(variant.name)) {
    const file = networkFile(variant);
    if (!networks.has(file)) {
      const [header, bin] = await Promise.all([
        fetch(`/static/bot/${file}.json`).then((r) => r.json()),
        fetch(`/static/bot/${file}.bin`).then((r) => r.arrayBuffer()),
      ]);
      networks.set(file, loadWeights(header, bin));
    }
    // The browser's database is built for fifteen checkers a side: its first-off layer would
    // say a side of three has one off, so a variant with fewer plays its races by the network.
    const standardCount = variant.checkers === STANDARD.checkers;
    judges.set(variant.name, makeJudge(networks.get(file), standardCount ? database : null, variant.checkers, variant));
  }
  return judges.get(variant.name);
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
      // The state came as a copy: its variant is made the engine's own again (found by name).
      const state = { ...msg.state, variant: variantOf(msg.state.variant.name) };
      const j = withDeadline(await ready(state.variant), THINK_MS);
      const t0 = performance.now();
      const action = msg.type === "hint" ? hintFor(j, state) : computerAction(j, msg.level, state);
      self.postMessage({ type: "action", id: msg.id, action, ms: performance.now() - t0 });
    } catch (err) {
      self.postMessage({ type: "action", id: msg.id, error: String(err) });
    }
  }
};
