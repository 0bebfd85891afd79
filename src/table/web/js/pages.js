// The reading pages (rules, the variants, tips, openings, glossary, FAQ) from the page catalogue.
import { loadPages, t } from "./i18n.js";
import { Board } from "./board.js";
import { ENGINE_ONLY, MATCH_ONLY, VARIANTS } from "./engine/variants.js";
import { greekBoard, variantName } from "./app/variants.js";
import { NS } from "./svg.js";

const ORDER = ["rules", "variants", "tips", "openings", "glossary", "faq"];

export async function showPage(name) {
  const pages = await loadPages();
  const key = ORDER.includes(name) ? name : "rules";
  const tabs = document.getElementById("page-tabs");
  tabs.textContent = "";
  for (const k of ORDER) {
    const a = document.createElement("a");
    a.href = `#/learn/${k}`;
    a.textContent = t("page_" + k);
    if (k === key) a.setAttribute("aria-current", "page");
    tabs.appendChild(a);
  }
  // The catalogue is our own file, shipped with the app: trusted markup.
  document.getElementById("page-body").innerHTML = pages[key];
  startDiagrams(document.getElementById("page-body"));
  document.title = `${t("page_" + key)} · Table`;
}

// The board a game starts from, as variants.json has it (seat 0's numbering, + White, - Black;
// entries 26 and 27 the checkers waiting off the board), in the shape the game screen draws.
function startState(v) {
  const b = v.board;
  return {
    points: b.slice(1, 25), bar: [0, 0], off: [0, 0],
    waiting: b.length > 26 && b.length < 50 ? [b[26], -b[27]] : undefined,
    pinned: v.name === "plakoto" ? new Array(24).fill(0) : undefined,
    round: v.direction === "same", noBar: greekBoard(v.name),
    viewer: 0, turn: null, numbersFor: 0, showNumbers: true, cube: { value: 1, owner: null, enabled: v.cube },
    dice: null, tall: false,
  };
}

// Each <figure data-start="variant"> of a page: that game's start drawn as the game screen draws
// a board (read-only), with a caption.
function startDiagrams(root) {
  for (const fig of root.querySelectorAll("figure[data-start]")) {
    const name = fig.dataset.start, v = VARIANTS[name] || ENGINE_ONLY[name] || MATCH_ONLY[name];
    if (!v) continue;
    const svg = document.createElementNS(NS, "svg");
    new Board(svg, { pick() {}, drop() {}, t }).render(startState(v));
    svg.setAttribute("aria-label", t("start_diagram", { game: variantName(name) }));
    const caption = document.createElement("figcaption");
    caption.textContent = t(v.direction === "same" ? "start_diagram_same_way" : "start_diagram_caption",
      { game: variantName(name) });
    fig.append(svg, caption);
  }
}
