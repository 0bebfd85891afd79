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

let judge = null;

// The browser ships one set of networks, the standard ones (bot/table.*); every variant it plays
// names them (variants.json "weights"), as table.bot.evaluator.evaluator_for gives Nackgammon the
// standard networks.  A variant with networks of its own would need them exported too.
const SHIPPED = "standard";

async function ready(variant = STANDARD) {
  if (variant.weights !== SHIPPED) throw new Error(`the browser has no networks for ${variant.title} (${variant.weights})`);
  if (!judge) {
    const [header, bin] = await Promise.all([
      fetch("/static/bot/table.json").then((r) => r.json()),
      fetch("/static/bot/table.bin").then((r) => r.arrayBuffer()),
    ]);
    judge = makeJudge(loadWeights(header, bin), null);
  }
  return judge;
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
    (await ready()).db = msg.db;
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
