// The leaderboard (GET /api/leaderboard: by rating or points, this week or all time, in pages)
// and the site's statistics (GET /api/stats).
import { t, plural, num as format } from "./i18n.js";
import { request } from "./online.js";
import { num, pager } from "./history.js";

const node = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// The choice of `by` and `period`, as two rows of links; the current ones are marked.
function choices(by, period) {
  const bar = node("div", "lb-choices");
  for (const [name, options, current] of [["by", ["rating", "points"], by], ["period", ["all", "week"], period]]) {
    const row = node("nav", "page-tabs");
    for (const o of options) {
      const a = node("a", "", t(`st_lb_${name}_${o}`));
      const q = name === "by" ? { by: o, period } : { by, period: o };
      a.href = `#/leaderboard/${q.by}/${q.period}`;
      if (o === current) a.setAttribute("aria-current", "page");
      row.appendChild(a);
    }
    bar.appendChild(row);
  }
  return bar;
}

function value(by, period, v) {
  if (by === "points") return (period === "week" && v > 0 ? "+" : "") + plural("points", v);
  return format(v, { maximumFractionDigits: 1, signDisplay: period === "week" ? "exceptZero" : "auto" });
}

async function siteStats(box) {
  let s;
  try { s = await request("GET", "/api/stats"); } catch (_) { return; }
  box.textContent = "";
  box.appendChild(node("h3", "", t("st_site")));
  const pct = (n) => (s.games ? Math.round((100 * n) / s.games) : 0);
  const dl = node("dl", "stats");
  dl.id = "site-stats";
  for (const [key, n] of [["st_site_games", s.games], ["st_site_white", s.white], ["st_site_black", s.black], ["st_site_unfinished", s.unfinished]]) {
    const d = node("div");
    d.append(node("dt", "", t(key)), node("dd", "", key === "st_site_games" ? num(n) : t("st_count_pct", { n: num(n), p: pct(n) })));
    dl.appendChild(d);
  }
  box.appendChild(dl);
}

// The leaderboard screen into `root`.  `by`, `period` come from the address; `page` from the pager.
export async function showLeaderboard(root, by = "rating", period = "all", page = 1) {
  if (!["rating", "points"].includes(by)) by = "rating";
  if (!["all", "week"].includes(period)) period = "all";
  root.textContent = "";
  root.append(node("h2", "", t("st_leaderboard")), choices(by, period));
  const box = node("div");
  const site = node("section", "site-stats");
  root.append(box, site);
  const lobby = node("div", "home-actions");
  const back = node("a", "button", t("back_to_lobby"));
  back.href = "#/online";
  lobby.appendChild(back);
  root.appendChild(lobby);
  siteStats(site);
  let data;
  try { data = await request("GET", `/api/leaderboard?by=${by}&period=${period}&page=${page}`); } catch (_) {
    box.appendChild(node("p", "muted", t("unreachable_title")));
    return;
  }
  const ol = node("ol", "leaderboard");
  ol.id = "leaderboard-rows";
  fillRows(ol, data.rows, by, period);
  box.append(ol, pager(data.page, data.pages, (n) => showLeaderboard(root, by, period, n)));
}

function fillRows(ol, rows, by, period) {
  ol.textContent = "";
  if (!rows.length) ol.appendChild(node("li", "empty", t("st_lb_empty")));
  for (const r of rows) {
    const li = node("li", "lb-row");
    const a = node("a", "", r.name);
    a.href = `#/player/${encodeURIComponent(r.name)}`;
    li.append(node("span", "rank", `${r.rank}.`), a, node("span", "value", value(by, period, r.value)));
    ol.appendChild(li);
  }
}

// The lobby's column of standings: the first ten by rating, into the list `ol`.
export async function showTop(ol) {
  try { fillRows(ol, (await request("GET", "/api/leaderboard?by=rating&period=all&page=1")).rows.slice(0, 10), "rating", "all"); } catch (_) {
    ol.textContent = "";  // the lobby itself says when the server is away
  }
}
