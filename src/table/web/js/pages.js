// The reading pages (rules, the variants, tips, openings, glossary, FAQ) from the page catalogue.
import { loadPages, t } from "./i18n.js";

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
  document.title = `${t("page_" + key)} · Table`;
}
