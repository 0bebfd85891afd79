// Which screen shows, and the tab's title.
import { t } from "../i18n.js";
import { $ } from "./store.js";

const SCREENS = ["home", "play", "page", "connect", "lobby", "table", "player", "leaderboard", "replay"];
export function show(id) {
  for (const s of SCREENS) $(s).hidden = s !== id;
  document.body.dataset.screen = id;
  setTitle();
}

// How many of your games wait for your move: a badge on the Online button and the tab's title.
let waitingGames = 0;
export function showWaiting(n) {
  waitingGames = n;
  const b = $("waiting-badge");
  b.textContent = String(n);
  b.hidden = !n;
  b.title = t("waiting_badge", { n });
  setTitle();
}

// The tab's title follows the screen and the language.
export function setTitle() {
  const screen = document.body.dataset.screen;
  const part = screen === "play" || screen === "connect" ? t("title_game")
    : screen === "page" ? t("page_" + (location.hash.split("/")[2] || "rules"))
    : screen === "lobby" || screen === "table" ? t("title_lobby") : screen === "player" ? t("title_player")
    : screen === "leaderboard" ? t("st_leaderboard") : screen === "replay" ? t("st_replay_title") : "";
  // Games waiting for your move come first in the tab's title, as "(2) …".
  document.title = (waitingGames ? `(${waitingGames}) ` : "") + (part ? `${part} · Table` : "Table");
}
