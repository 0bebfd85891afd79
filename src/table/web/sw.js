// Service worker: keeps the app's own files so it opens fast, installs, and plays offline.
// Online games go to the server (when it cannot be reached the page says so); without a
// connection a new game lives on the device, played by the engine and the computer cached here.
// The server writes a hash of the shipped web files into the cache name, so that any change to
// them makes a new worker that fetches them all afresh and deletes the old cache.
const CACHE = "table-shell-WEB_VERSION";
const SHELL = [
  "/", "/static/app.css", "/static/js/main.js", "/static/js/app/store.js", "/static/js/app/settings.js",
  "/static/js/app/screens.js", "/static/js/app/seats.js", "/static/js/app/status.js", "/static/js/app/dialogs.js",
  "/static/js/app/view.js", "/static/js/app/animate.js", "/static/js/app/turn.js", "/static/js/app/game.js", "/static/js/app/variants.js",
  "/static/js/board.js", "/static/js/boardbox.js", "/static/js/svg.js", "/static/js/pile.js",
  "/static/js/touch.js", "/static/js/moves.js", "/static/js/greekboard.js",
  "/static/js/net.js", "/static/js/i18n.js", "/static/js/pages.js", "/static/js/notation.js", "/static/js/sound.js",
  "/static/js/online.js", "/static/js/guest.js", "/static/js/lobby.js", "/static/js/match.js", "/static/js/chat.js",
  "/static/js/clock.js", "/static/js/player.js", "/static/js/learn.js", "/static/js/standings.js", "/static/js/history.js", "/static/js/chart.js",
  "/static/i18n/ro.json", "/static/i18n/en.json", "/static/i18n/pages.ro.json", "/static/i18n/pages.en.json", "/static/i18n/stats.ro.json", "/static/i18n/stats.en.json",
  // The engine, the computer and its weights: games on this device need nothing else.
  "/static/js/local.js", "/static/js/engine/rules.js", "/static/js/engine/ids.js", "/static/js/engine/movetext.js",
  "/static/js/engine/graph.js", "/static/js/engine/dice.js", "/static/js/engine/state.js", "/static/js/engine/match.js", "/static/js/engine/records.js", "/static/js/engine/features.js",
  "/static/js/engine/nn.js", "/static/js/engine/simd.js", "/static/js/engine/bearoff.js", "/static/js/engine/search.js", "/static/js/engine/bot.js",
  "/static/js/engine/cube.js", "/static/js/engine/player.js", "/static/js/engine/hint.js", "/static/js/engine/worker.js",
  "/static/js/engine/variants.js", "/static/js/engine/variants.json", "/static/js/engine/pytext.js",
  "/static/js/engine/reserve.js", "/static/js/engine/aceydeucey.js", "/static/js/engine/greek.js", "/static/js/engine/greekkernel.js",
  "/static/js/engine/greekfeatures.js",
  "/static/bot/table.json", "/static/bot/table.bin", "/static/bot/hypergammon.json", "/static/bot/hypergammon.bin",
  "/static/bot/race.json", "/static/bot/race.bin", "/static/bot/plakoto.json", "/static/bot/plakoto.bin",
  "/static/bot/fevga.json", "/static/bot/fevga.bin",
  "/static/manifest.webmanifest", "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/icons/icon-512.png",
];

self.addEventListener("install", (e) => {
  // "reload": past the browser's HTTP cache, which may still hold the previous release.
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL.map((u) => new Request(u, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// Stale-while-revalidate for the shell: answer from the cache, refresh it behind.
self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (!(url.pathname === "/" || url.pathname.startsWith("/static/"))) return;
  e.respondWith(caches.open(CACHE).then(async (cache) => {
    const key = url.pathname === "/" ? "/" : e.request;
    const hit = await cache.match(key);
    const fresh = fetch(e.request).then((res) => { if (res.ok) cache.put(key, res.clone()); return res; });
    return hit || fresh;
  }));
});

// Web Push: "your move is waiting" (a turn-based game); the server writes the words in the player's language.
self.addEventListener("push", (e) => {
  let d = {};
  try { d = e.data ? e.data.json() : {}; } catch (_) { /* not ours */ }
  e.waitUntil(self.registration.showNotification(d.title || "Table", {
    body: d.body || "", tag: d.tag, icon: "/static/icons/icon-192.png", data: { url: d.url || "/" } }));
});

self.addEventListener("notificationclick", (e) => {
  e.notification.close();
  e.waitUntil(self.clients.openWindow((e.notification.data && e.notification.data.url) || "/"));
});
