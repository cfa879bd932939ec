// Sharing a run with people and groups (docs/auth.md, Sharing a run).
// Only a signed-in page offers it: without sign-in everyone who can reach
// quarry reads every run already. The server decides who may share
// (the run's owner or an admin) and says so when someone else tries.

import { el, api } from "./app.js";

let me;

// signedIn resolves to the signed-in person ({user, role}) or null, asked
// once per page.
function signedIn() {
  me ??= fetch("/api/session", { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((w) => (w && w.required && w.user ? w : null))
    .catch(() => null);
  return me;
}

// sharedText says whom a run is shared with.
function sharedText(shares) {
  if (!shares.length) return "Not shared.";
  return "Shared with " + shares.map((s) => s.with).join(", ") + ".";
}

// shareControl returns the "Share" control of a run: a button that opens a
// field for names ("bob, group:support"), filled in once the page knows
// someone is signed in.
export function shareControl(runId) {
  const wrap = el("span", { class: "share" });
  signedIn().then((who) => {
    if (!who) return;
    const base = `/api/runs/${encodeURIComponent(runId)}/shares`;
    const status = el("span", { class: "share-status muted small-text", attrs: { role: "status" } });
    const input = el("input", { class: "share-with", attrs: { type: "text", placeholder: "bob, group:support", "aria-label": "Share with (names, or group:NAME)", spellcheck: "false" } });
    const send = el("button", { class: "btn small", text: "Share", attrs: { type: "submit" } });
    const form = el("form", { class: "share-form", attrs: { hidden: true } }, [input, " ", send]);
    const toggle = el("button", { class: "btn small share-toggle", text: "Share…", attrs: { type: "button", title: "Let people or groups read this run" } });
    toggle.addEventListener("click", async () => {
      form.hidden = !form.hidden;
      if (form.hidden) return;
      input.focus();
      try {
        status.textContent = sharedText(await api(base));
      } catch (e) {
        status.textContent = e.message;
      }
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const names = input.value.split(",").map((s) => s.trim()).filter(Boolean);
      if (!names.length) {
        status.textContent = "Give a name, or group:NAME.";
        return;
      }
      send.disabled = true;
      try {
        status.textContent = sharedText(await api(base, { method: "POST", body: { with: names } }));
        input.value = "";
      } catch (err) {
        status.textContent = err.message || "Sharing failed.";
      } finally {
        send.disabled = false;
      }
    });
    wrap.append(toggle, " ", form, " ", status);
  });
  return wrap;
}
