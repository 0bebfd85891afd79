// The turn in progress: picking checkers up and putting them down, undo, confirming, and what the
// app does by itself (rolling, a forced move).
import { t } from "../i18n.js";
import { targetsFor, sourcesAt, isFinal } from "../moves.js";
import * as sound from "../sound.js";
import { app } from "./store.js";
import { settings } from "./settings.js";
import { diceOrder, graph } from "./seats.js";
import { toast } from "./status.js";
import { draw } from "./view.js";

export function maybeAuto() {
  const acts = app.msg.view.actions || [];
  if (settings.autoRoll && acts.includes("roll") && !acts.includes("double")) {
    setTimeout(() => { if (app.msg && (app.msg.view.actions || []).includes("roll")) send({ type: "roll" }); }, 0);
    return;
  }
  const g = graph();
  if (!g) return;
  const finals = Object.keys(g.finals);
  if (settings.autoForced && finals.length === 1) {
    // Walk the only play step by step.
    let node = 0;
    const path = [];
    while (!isFinal(g, node)) { const e = g.nodes[node][0]; path.push(e); node = e[4]; }
    app.path = path; app.node = node;
    setTimeout(() => confirmMove(), settings.animations ? 300 : 0);
  }
}

// ---- picking and dropping -------------------------------------------------------
export function pick(loc, dragging) {
  if (app.peek) return;
  const g = graph();
  if (!g) return;
  const sources = sourcesAt(g, app.node);
  if (app.selected !== null && !dragging) {
    const targets = targetsFor(g, app.node, app.selected, diceOrder());
    if (targets.has(loc)) { step(targets.get(loc)); return; }
    if (loc === app.selected) {
      // A second tap on the same checker plays the first die that can move it.
      const direct = [...targets.values()].filter((p) => p.length === 1);
      if (direct.length) { step(direct[0]); return; }
    }
  }
  app.selected = sources.includes(loc) && (dragging || app.selected !== loc) ? loc : null;
  // Drawn either way: a tap off the checkers also drops the selection and its lit targets.
  if (!dragging && app.selected === null && !sources.includes(loc)) toast(t("not_a_source"));
  draw();
}

export function drop(from, to) {
  if (app.peek) { draw(); return; }
  const g = graph();
  if (!g) return;
  const targets = targetsFor(g, app.node, from, diceOrder());
  if (to !== null && targets.has(to)) { step(targets.get(to)); return; }
  app.selected = null;
  draw();
  if (to !== from) toast(t("illegal_drop"));
}

function step(edges) {
  for (const e of edges) { app.path.push(e); app.node = e[4]; }
  sound.play(edges.some((e) => e[3]) ? "hit" : "move");
  app.selected = null;
  const g = graph();
  if (isFinal(g, app.node) && settings.autoConfirm) { confirmMove(); return; }
  if (!isFinal(g, app.node)) {
    const src = sourcesAt(g, app.node);
    if (src.length === 1) app.selected = src[0];
  }
  draw();
}

export function confirmMove() {
  const g = graph();
  if (!g || !isFinal(g, app.node)) return;
  send({ type: "move", steps: app.path.map((e) => [e[0], e[1]]) });
}

export function send(action) {
  if (!app.live || !app.msg) return;
  app.sticky = "";
  app.sent = action.type === "move";
  if (!app.live.send(app.msg.version, action)) { app.sent = false; toast(t("offline")); }
}
