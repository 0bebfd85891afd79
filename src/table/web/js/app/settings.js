// The player's settings, kept on this device, and the theme they choose.
import * as sound from "../sound.js";
import { $, store } from "./store.js";

// `botPause` (ms) has no control in the dialog: the pace of the computer in games on this device,
// as `table serve --bot-delay` sets it for the server's (tests shorten both).
export const settings = Object.assign({ animations: true, autoConfirm: false, autoForced: false, autoRoll: true, numbers: true, hints: true,
  sounds: false, theme: "auto", botPause: 350 },
  store.get("settings", {}));
if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches && store.get("settings", null) === null) {
  settings.animations = false;
}

// Light, dark, or as the system says (prefers-color-scheme).
export function applyTheme() {
  if (settings.theme === "light" || settings.theme === "dark") document.documentElement.dataset.theme = settings.theme;
  else delete document.documentElement.dataset.theme;
}

// The settings dialog shows the settings as they are; each change is kept at once, and
// `changed` redraws what depends on them.
export function openSettings() {
  const f = $("dlg-settings").querySelector("form");
  for (const k of Object.keys(settings)) {
    if (k === "theme") f.theme.value = settings.theme; else if (f.elements[k]) f.elements[k].checked = settings[k];
  }
  $("dlg-settings").showModal();
}

export function watchSettings(changed) {
  $("dlg-settings").addEventListener("change", (e) => {
    settings[e.target.name] = e.target.name === "theme" ? e.target.value : e.target.checked;
    store.set("settings", settings);
    applyTheme();
    sound.enable(settings.sounds);
    if (e.target.name === "sounds" && settings.sounds) sound.play("dice");
    changed();
  });
}
