// quarry's approval mode in the web UI (docs/approval.md). Plain ES
// module, no build step, no remote requests.
//
// A statement a language model proposed waits for a person's approval:
// the chat's stream says so (approval.requested) and the statement shows
// inline in its run, with its SQL, what it is read as meaning, the
// guard's verdict and the cost estimate; GET /api/approvals says whether
// the person here may decide it (admins; the local user when nobody signs
// in), and only then are Approve and Refuse offered. The asker sees that
// the run waits. The sidebar lists every statement waiting that the
// person may see, so an admin decides other people's statements too.
// Server text goes in as text, never markup.

import { el, api, toast, highlightSQL } from "./app.js";

const $ = (sel, root = document) => root.querySelector(sel);
const POLL_MS = 5000;

// cards are the inline cards of statements waiting, by run and statement.
const cards = new Map();
const key = (runId, statement) => `${runId}/${statement}`;

function estimateText(d) {
  if (d.estimate) {
    const parts = [];
    if (d.estimate.cost) parts.push(`cost ${Math.round(d.estimate.cost).toLocaleString("en-US")}`);
    if (d.estimate.rows) parts.push(`about ${Math.round(d.estimate.rows).toLocaleString("en-US")} rows at its widest step`);
    return parts.length ? `The database estimates ${parts.join(", ")}.` : "";
  }
  if (d.estimate_error) return `No cost estimate: ${d.estimate_error}`;
  return "This connection gives no cost estimate.";
}

function guardText(g) {
  if (!g) return "";
  return g.allowed ? `The read-only guard allowed it (${g.dialect || "sql"}).` : `The guard refused it: ${(g.violations || []).map((v) => v.message || v.code).join("; ")}`;
}

function deadlineText(d) {
  const t = Date.parse(d.deadline);
  return Number.isFinite(t) ? `It waits until ${new Date(t).toLocaleTimeString()}, then the run ends refused.` : "";
}

// card builds the view of one statement waiting. mayDecide adds the
// buttons; onDecided runs after a decision was recorded here.
function card(runId, d, mayDecide, onDecided) {
  const status = el("p", { class: "approval-status", attrs: { role: "status" } });
  const reason = el("input", { class: "approval-reason", attrs: { type: "text", maxlength: "500", placeholder: "Reason (optional)", "aria-label": "Reason for the decision" } });
  const root = el("section", { class: "approval", attrs: { "aria-label": "Statement waiting for approval", "data-run": runId, "data-statement": d.statement } }, [
    el("h3", { class: "approval-title", text: "Waiting for approval" }),
    el("p", { class: "muted small-text", text: [d.question && `Question: ${d.question}`, d.asked_by && `asked by ${d.asked_by}`, d.why === "connection" ? "the connection requires approval" : d.why === "person" ? "approval is required for this person" : ""].filter(Boolean).join(" · ") }),
    highlightSQL(d.sql || ""),
    d.interpretation ? el("p", { class: "approval-reading", text: `Read as: ${d.interpretation}` }) : null,
    el("p", { class: "muted small-text", text: [guardText(d.guard), estimateText(d), deadlineText(d)].filter(Boolean).join(" ") }),
    status,
  ]);
  if (!mayDecide) {
    status.textContent = "This statement waits for an admin to approve it; nothing has run yet.";
    return root;
  }
  const decide = async (verb) => {
    for (const b of root.querySelectorAll("button")) b.disabled = true;
    try {
      await api(`/api/runs/${encodeURIComponent(runId)}/${verb}`, { method: "POST", body: { statement: d.statement, reason: reason.value.trim() } });
      settle(root, verb === "approve" ? "Approved: the statement runs now." : "Refused: nothing ran.");
      if (onDecided) onDecided();
    } catch (e) {
      status.textContent = e.message;
      for (const b of root.querySelectorAll("button")) b.disabled = false;
      toast(e.message);
    }
  };
  root.append(el("div", { class: "approval-actions" }, [
    reason,
    el("button", { class: "btn btn-primary small", text: "Approve", attrs: { type: "button" }, on: { click: () => decide("approve") } }),
    el("button", { class: "btn small", text: "Refuse", attrs: { type: "button" }, on: { click: () => decide("refuse") } }),
  ]));
  return root;
}

// settle marks a card decided and removes its buttons.
function settle(root, text) {
  root.classList.add("decided");
  const actions = $(".approval-actions", root);
  if (actions) actions.remove();
  $(".approval-title", root).textContent = "Decided";
  $(".approval-status", root).textContent = text;
}

async function mayDecide(runId, statement) {
  try {
    const list = await api("/api/approvals");
    const item = (list || []).find((a) => a.run_id === runId && a.statement === statement);
    return Boolean(item && item.may_decide);
  } catch {
    return false;
  }
}

// The chat's stream: app.js dispatches each event of a run on the turn's
// body as a quarry-run-event.
document.addEventListener("quarry-run-event", async (ev) => {
  const { runId, type, data } = ev.detail || {};
  if (!runId) return;
  if (type === "approval.requested" && data && data.statement) {
    const k = key(runId, data.statement);
    const c = card(runId, data, false);
    cards.set(k, c);
    ev.target.append(c);
    if (await mayDecide(runId, data.statement)) {
      const full = card(runId, data, true, refresh);
      c.replaceWith(full);
      cards.set(k, full);
    }
    return;
  }
  // Any later event of the run: its statement was decided; the run's
  // state says how.
  if ([...cards.keys()].some((k) => k.startsWith(runId + "/") && !cards.get(k).classList.contains("decided"))) settleFromRun(runId);
});

function decisionText(a) {
  const d = a.decided;
  if (d.timed_out) return "Nobody decided in time: nothing ran, and the run ended.";
  const by = d.by ? ` by ${d.by}` : "";
  return d.approved ? `Approved${by}: the statement ran.` : `Refused${by}${d.reason ? `: ${d.reason}` : ""}. Nothing ran.`;
}

async function settleFromRun(runId) {
  let st;
  try { st = await api(`/api/runs/${encodeURIComponent(runId)}`); } catch { return; }
  for (const a of (st && st.approvals) || []) {
    const c = cards.get(key(runId, a.statement));
    if (c && a.decided && !c.classList.contains("decided")) settle(c, decisionText(a));
  }
}

// The sidebar: every statement waiting that the person may see.
async function refresh() {
  const box = $("#approvals");
  if (!box) return;
  let list = [];
  try { list = await api("/api/approvals"); } catch { return; }
  const ul = $("#approval-list", box);
  ul.replaceChildren(...(list || []).map((a) => el("li", {}, card(a.run_id, a, a.may_decide, refresh))));
  box.hidden = !list || list.length === 0;
}

function poll() {
  if (document.visibilityState === "visible") refresh();
}

refresh();
setInterval(poll, POLL_MS);
