// What the app keeps: on this device (localStorage) and in memory (the game on screen).

export const $ = (id) => document.getElementById(id);
export const store = {
  get(k, d) { try { const v = localStorage.getItem("table." + k); return v === null ? d : JSON.parse(v); } catch (_) { return d; } },
  set(k, v) { try { localStorage.setItem("table." + k, JSON.stringify(v)); } catch (_) { /* private mode */ } },
};

// The game on screen: its connection, the last state shown, states waiting to be shown, and the
// turn in progress (the steps made so far, the checker picked up).
export const app = {
  live: null, msg: null, queue: [], busy: false,
  path: [], node: 0, selected: null, swapped: false, notice: "", sent: false, answerNote: "",
};

// The screens' parts, made once the page has its words (main.js's init).
export const ui = { board: null, match: null, lobby: null, learn: null, replay: null };
