// The nickname dialog: the first time a player does anything online, they pick the name others
// will see.  The server's refusals come back as codes and are said in the page's language.
import { t, has } from "./i18n.js";
import { me, nameProblem, register, OnlineError } from "./online.js";

const $ = (id) => document.getElementById(id);
const NAME_MAX = 20;  // the server's limit (players.MAX_LENGTH)

function problemText(code, name) {
  // Too long: say how long it is, so that the player sees it was refused, not cut.
  if (code === "length" && name.trim().length > NAME_MAX) return t("err_nick_too_long", { n: name.trim().length, max: NAME_MAX });
  return t(has("err_nick_" + code) ? "err_nick_" + code : "err_nick_other");
}

// This device's guest, asking for a nickname first if it has none; null if the player cancels.
export function ensureGuest() {
  const known = me();
  if (known) return Promise.resolve(known);
  const dlg = $("dlg-nick"), form = $("form-nick"), input = $("in-nick"), error = $("nick-error");
  error.hidden = true;
  input.removeAttribute("aria-invalid");
  return new Promise((resolve) => {
    let busy = false;
    const say = (code) => {
      error.textContent = problemText(code, input.value);
      error.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
    };
    const onSubmit = async (e) => {
      const ok = e.submitter && e.submitter.value === "ok";
      if (!ok) return;  // cancel closes the dialog
      e.preventDefault();
      if (busy) return;
      const problem = nameProblem(input.value);
      if (problem) { say(problem); return; }
      busy = true;
      try {
        const guest = await register(input.value.trim());
        finish(guest);
        dlg.close("ok");
      } catch (err) {
        say(err instanceof OnlineError ? (err.code === "too_many" || err.status === 429 ? "rate_limited" : err.code) : "other");
      } finally { busy = false; }
    };
    // A name grown past the limit is refused as it is typed (or pasted), never cut short.
    const onInput = () => {
      if (input.value.trim().length > NAME_MAX) { say("length"); return; }
      error.hidden = true; input.removeAttribute("aria-invalid");
    };
    let done = false;
    const finish = (guest) => {
      if (done) return;
      done = true;
      form.removeEventListener("submit", onSubmit);
      input.removeEventListener("input", onInput);
      dlg.removeEventListener("close", onClose);
      resolve(guest);
    };
    const onClose = () => finish(me());
    form.addEventListener("submit", onSubmit);
    input.addEventListener("input", onInput);
    dlg.addEventListener("close", onClose);
    dlg.showModal();
    input.focus();
  });
}
