// The board's box.  On a phone held upright an open panel (the chat, the move list, the hint, the
// export, the review) must not squeeze the board: the box's height, measured while no panel is
// open, is kept as --board-h, which app.css gives the box while a panel is open; the panel goes
// below it and the page scrolls to show it.
const panelOpen = () => document.body.classList.contains("learn-open") || !!document.querySelector("#chat.open:not([hidden])");

// Watch `wrap` (the board's box); `redraw()` after its size changed (rotation, resizing, panels).
export function watchBoardBox(wrap, redraw) {
  let timer = 0;
  new ResizeObserver(() => {
    if (!panelOpen() && wrap.clientHeight > 0) document.documentElement.style.setProperty("--board-h", `${wrap.clientHeight}px`);
    clearTimeout(timer);
    timer = setTimeout(redraw, 60);
  }).observe(wrap);
  // A panel opened below the board comes into view; a past position opened from the move list or
  // the review brings the board back into view (on a phone: beside the board there is room).
  const wide = window.matchMedia("(min-aspect-ratio: 5/4)");
  const panels = new Set(["chat", "learn-panel", "move-list", "peek"]);
  new MutationObserver((records) => {
    for (const r of records) {
      const e = r.target;
      if (wide.matches || !panels.has(e.id) || e.hidden || (e.id === "chat" && !e.classList.contains("open"))) continue;
      const peek = e.id === "peek";  // the board with the bar above it
      requestAnimationFrame(() => (peek ? document.getElementById("p-top") : e).scrollIntoView({ block: peek ? "start" : "nearest" }));
    }
  }).observe(document.getElementById("play"), { subtree: true, attributes: true, attributeFilter: ["hidden", "class"] });
}
