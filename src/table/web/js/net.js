// Talking to the server: create a game over HTTP, play it over a WebSocket.

export class ApiError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

export async function createGame(settings) {
  const res = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(settings),
  });
  const body = await res.json();
  if (!res.ok) throw new ApiError(body.code, body.message);
  return body;
}

// A live connection to one game that reconnects by itself.
export class Live {
  constructor(game, token, handlers) {
    // {state(msg), error(msg), online(bool), other(msg)}: `other` gets what online games add
    // (presence, chat, rematch).
    this.game = game; this.token = token; this.h = handlers;
    this.delay = 500; this.closed = false;
    // The last version a state showed: a reconnect says hello with it as `since`, and the server
    // sends the log entries missed meanwhile (an `events` message) before the state.
    this.version = null; this.hello = null;
    this._open();
  }

  _open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(this.game)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      ws.send(JSON.stringify(this._hello(this.version)));
      this.h.online(true);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      // When it came: a state may be drawn seconds later, after the animations queued before it,
      // and the clocks must count from its arrival, not from its drawing.
      msg.arrived = Date.now();
      if (msg.type === "state") { this.version = msg.version; this.h.state(msg); }
      else if (msg.type === "events") { /* the state that follows shows where they led */ }
      else if (msg.type === "error" && this.hello !== null && /^since /.test(msg.message || "")) {
        // The server no longer has the version we saw (its data was restored from a backup):
        // say hello again without it, and take its state as it is.
        this.version = null;
        ws.send(JSON.stringify(this._hello(null)));
      }
      else if (msg.type === "error") this.h.error(msg);
      else if (this.h.other) this.h.other(msg);
    };
    ws.onclose = () => {
      if (this.closed || ws !== this.ws) return;
      this.h.online(false);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { if (!this.closed) this._open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  _hello(since) {
    this.hello = since;
    const msg = { type: "hello", token: this.token };
    if (since !== null) msg.since = since;
    return msg;
  }

  // Try again now (the player pressed "Try again"), without waiting for the next attempt.
  retry() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.delay = 500;
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) return;
    this._open();
  }

  send(version, action) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "action", version, action }));
    return true;
  }

  // Any other message (a chat line); false when the connection is down.
  post(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() { this.closed = true; clearTimeout(this.timer); if (this.ws) this.ws.close(); }
}
