// A player's page: name, points, record and recent games, from GET /api/players/{name}.
import { t, plural, locale, num } from "./i18n.js";
import { playerPage, OnlineError } from "./online.js";
import { showStats, showGames } from "./history.js";

const $ = (id) => document.getElementById(id);

// What a ledger entry's reason says in words ("win:gammon" -> "gammon won").
function reasonText(reason) {
  const [what, level] = reason.split(":");
  if (level) return `${t(what === "win" ? "recent_won" : "recent_lost")}, ${t("result_word_" + level)}`;
  return t("reason_" + reason.replace("-", "_"));
}

export async function showPlayer(name) {
  $("player-name").textContent = name;
  for (const id of ["player-since", "player-points", "player-record"]) $(id).textContent = "";
  $("player-games").textContent = "";
  $("player-stats").textContent = ""; $("player-history").textContent = "";
  let p;
  try { p = await playerPage(name); } catch (err) {
    $("player-since").textContent = t(err instanceof OnlineError && err.code === "not_found" ? "player_not_found" : "unreachable_title");
    return;
  }
  $("player-name").textContent = p.name;
  if (p.bot) {
    const b = document.createElement("span");
    b.className = "badge bot";
    b.textContent = t("bot_marker");
    $("player-name").append(" ", b);
  }
  $("player-points").textContent = num(p.points);
  showStats($("player-stats"), p);
  showGames($("player-history"), p.name);
  $("player-record").textContent = t("player_record", { w: p.record.wins, l: p.record.losses });
  const ul = $("player-games");
  if (!p.recent.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("player_none");
    ul.appendChild(li);
  }
  const when = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  for (const r of p.recent) {
    const li = document.createElement("li");
    li.className = "ledger-item";
    const amount = document.createElement("b");
    amount.className = r.amount > 0 ? "plus" : r.amount < 0 ? "minus" : "";
    amount.textContent = (r.amount > 0 ? "+" : "") + plural("points", r.amount);
    const text = document.createElement("span");
    text.textContent = t("recent_line", { when: when.format(new Date(r.at * 1000)), name: r.opponent || "?", how: reasonText(r.reason) });
    li.append(amount, " ", text);
    ul.appendChild(li);
  }
}
