// quarry's workflow editor. Plain ES module, no build step.
//
// The page keeps one thing: the workflow's graph, as the server's JSON
// (docs/workflows.md). It draws it and edits it. Every rule lives on the
// server: after each edit the graph goes to POST /api/workflows/check,
// which answers the canonical YAML (what Export downloads, byte for byte)
// and every problem, worded as `quarry workflow validate` words it. Which
// fields a node of each kind has comes from GET /api/workflows too.

import { el, api, streamSSE, toast, currentView, showChatParts } from "./app.js";
import { BOX_W, BOX_H, GAP_X, GAP_Y, PAD, LINKS, svgEl, clip, layout } from "./workflowgraph.js";

const $ = (sel, root = document) => root.querySelector(sel);

const CHECK_DELAY = 250; // ms after the last edit before the graph is checked

// The node fields, by their YAML names, and where each lives in the graph's
// JSON ("if" is a branch's expr).
const KEY = { if: "expr" };
const TEXTAREAS = new Set(["question", "sql", "expr", "if", "approval", "message"]);

const wf = {
  meta: null, // {kinds: Map(kind → fields), param_types, end_statuses}
  files: [],
  pick: "", // the file's name being edited, or "" for a new workflow
  graph: null, // the workflow being edited, as the server's JSON
  source: "", // the source of a file that does not decode
  selected: -1, // the selected node's index, or -1: the workflow's own fields
  version: 0, // bumped by every edit
  shape: 0, // bumped by every edit that moves nodes (problems name nodes by index)
  checked: { version: -1, shape: -1, yaml: "", problems: [], error: "" },
  checkSeq: 0,
  checkTimer: 0,
  pending: null, // the check in flight, a promise
  loaded: false,
  run: null, // {status, nodes: Map(id → node state), message}
  running: false,
  runToken: 0, // bumped when another workflow is opened: a run's events no longer show
  linkSnapshot: null, // while a node's id is edited: the links that name it
  reveal: false, // the next drawing scrolls the selected node into view
};

// ---------------------------------------------------------------- view

function showView() {
  const on = currentView() === "workflows";
  showChatParts();
  $("#workflows").hidden = !on;
  $("#wf-title").hidden = !on;
  if (on && !wf.loaded) load();
}

// toChat leaves another view for the chat (a new conversation, or one
// from the history). pushState fires no event of its own: every view's
// module hears the popstate sent here and shows or hides itself.
function toChat() {
  if (currentView() === "chat") return;
  history.pushState(null, "", location.pathname + location.search);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

// ---------------------------------------------------------------- loading

async function load() {
  wf.loaded = true;
  setCheck("Loading…");
  let list;
  try {
    list = await api("/api/workflows");
  } catch (e) {
    wf.loaded = false;
    setCheck(`Could not load the workflows: ${e.message}`, "bad");
    return;
  }
  wf.meta = {
    kinds: new Map((list.kinds || []).map((k) => [k.kind, k.fields || []])),
    paramTypes: list.param_types || [],
    endStatuses: list.end_statuses || [],
  };
  wf.files = list.workflows || [];
  $("#wf-add-kind").replaceChildren(...[...wf.meta.kinds.keys()].map((k) => el("option", { text: k, attrs: { value: k } })));
  renderPicker();
  if (wf.files.length) openFile(wf.files[0].name);
  else newWorkflow();
}

function renderPicker() {
  const opts = wf.files.map((f) => el("option", { text: f.file || f.name, attrs: { value: f.name } }));
  if (!wf.pick) opts.push(el("option", { text: "(new workflow)", attrs: { value: "" } }));
  $("#wf-pick").replaceChildren(...opts);
  $("#wf-pick").value = wf.pick;
}

function openFile(name) {
  const f = wf.files.find((x) => x.name === name);
  if (!f) return;
  wf.pick = name;
  wf.graph = f.workflow ? structuredClone(f.workflow) : null;
  wf.source = f.source;
  begin();
  if (!wf.graph) {
    // It does not decode: there is no graph to edit, only the file's
    // problems to show.
    wf.checked = { version: wf.version, shape: wf.shape, yaml: "", problems: f.problems || [], error: "" };
    renderAll();
    showChecked();
    return;
  }
  renderAll();
  checkNow();
}

function newWorkflow() {
  wf.pick = "";
  wf.graph = {
    name: "new-workflow",
    nodes: [
      { id: "start", kind: "ask", next: "done" },
      { id: "done", kind: "end" },
    ],
  };
  wf.source = "";
  begin();
  renderAll();
  checkNow();
}

// begin resets what belongs to the workflow that was open before.
function begin() {
  wf.selected = -1;
  wf.run = null;
  wf.runToken++;
  $("#wf-run-status").textContent = "";
  delete $("#wf-run-status").dataset.status;
  wf.version++;
  wf.shape++;
  wf.checked = { version: -1, shape: -1, yaml: "", problems: [], error: "" };
  $("#wf-canvas").scrollTop = 0;
  $("#wf-canvas").scrollLeft = 0;
  renderPicker();
}

function renderAll() {
  renderGraph();
  renderSide();
  renderRunPanel();
  const editable = wf.graph !== null;
  for (const id of ["#wf-add", "#wf-add-kind", "#wf-export", "#wf-run"]) $(id).disabled = !editable || (id === "#wf-run" && wf.running);
}

// ---------------------------------------------------------------- editing

// edited is called after every change to the graph: it redraws the graph
// and checks it once the edits pause.
function edited({ form = false, moved = false } = {}) {
  wf.version++;
  if (moved) wf.shape++;
  renderGraph();
  if (form) renderSide();
  renderRunParams();
  setCheck("Checking…");
  clearTimeout(wf.checkTimer);
  wf.checkTimer = setTimeout(checkNow, CHECK_DELAY);
}

function node(i) { return wf.graph.nodes[i]; }

function setField(n, field, value) {
  const key = KEY[field] || field;
  if (value === "" || value === 0 || value == null || (Array.isArray(value) && value.length === 0)) delete n[key];
  else n[key] = value;
}

function getField(n, field) {
  return n[KEY[field] || field];
}

function isSet(n, field) {
  const v = getField(n, field);
  return !(v === undefined || v === null || v === "" || v === 0 || (Array.isArray(v) && v.length === 0));
}

function uniqueId(base) {
  const ids = new Set(wf.graph.nodes.map((n) => n.id));
  for (let i = 1; ; i++) if (!ids.has(`${base}_${i}`)) return `${base}_${i}`;
}

function addNode() {
  if (!wf.graph) return;
  const kind = $("#wf-add-kind").value;
  const n = { id: uniqueId(kind), kind };
  const at = wf.selected >= 0 ? wf.selected + 1 : wf.graph.nodes.length;
  wf.graph.nodes.splice(at, 0, n);
  wf.selected = at;
  wf.reveal = true;
  edited({ form: true, moved: true });
  focusField("id");
}

function deleteNode(i) {
  const id = node(i).id;
  wf.graph.nodes.splice(i, 1);
  wf.selected = -1;
  edited({ form: true, moved: true });
  toast(`Deleted ${id || "the node"}`);
  $("#wf-add").focus();
}

function moveNode(i, by) {
  const j = i + by;
  if (j < 0 || j >= wf.graph.nodes.length) return;
  const [n] = wf.graph.nodes.splice(i, 1);
  wf.graph.nodes.splice(j, 0, n);
  wf.selected = j;
  edited({ form: true, moved: true });
  focusField(by < 0 ? "move-up" : "move-down");
}

function select(i, { focusBox = false } = {}) {
  wf.selected = i;
  renderGraph();
  renderSide();
  if (focusBox && i >= 0) {
    const box = $(`#wf-canvas [data-node="${i}"]`);
    if (box) box.focus();
  }
}

function focusField(name) {
  const f = $(`#wf-side [data-field="${name}"]`);
  if (f) f.focus();
}

// ---------------------------------------------------------------- checking

function setCheck(text, tone = "") {
  const c = $("#wf-check");
  c.textContent = text;
  c.className = `wf-check ${tone}`.trim();
}

// checkNow sends the graph to the server's check and shows its answer,
// unless the graph changed again meanwhile.
function checkNow() {
  clearTimeout(wf.checkTimer);
  if (!wf.graph) return Promise.resolve();
  const seq = ++wf.checkSeq;
  const version = wf.version;
  const shape = wf.shape;
  setCheck("Checking…");
  wf.pending = (async () => {
    let c;
    try {
      const r = await api("/api/workflows/check", { method: "POST", body: { workflow: wf.graph } });
      c = { version, shape, yaml: r.yaml || "", problems: r.problems || [], error: "" };
    } catch (e) {
      c = { version, shape, yaml: "", problems: [], error: e.message };
    }
    if (seq !== wf.checkSeq) return;
    wf.checked = c;
    showChecked();
  })();
  return wf.pending;
}

// current waits until the YAML shown is the graph's, checking it if need be.
async function current() {
  if (!wf.graph) return;
  while (wf.checked.version !== wf.version) await checkNow();
}

function showChecked() {
  const c = wf.checked;
  if (c.error) setCheck(`Not checked: ${c.error}`, "bad");
  else if (c.problems.length === 0) setCheck("No problems", "ok");
  else setCheck(c.problems.length === 1 ? "1 problem" : `${c.problems.length} problems`, "bad");
  $("#wf-yaml").textContent = wf.graph ? c.yaml : wf.source;
  renderProblems();
  renderGraph();
  markFields();
}

// problems are the last check's problems while they still name the nodes
// as they are (an edit that moves nodes makes them stale until the next).
function problems() {
  return wf.checked.shape === wf.shape ? wf.checked.problems : [];
}

// nodeOf is the index of the node a problem's path is in, or -1.
function nodeOf(path) {
  const m = /^nodes\[(\d+)\]/.exec(path || "");
  return m ? Number(m[1]) : -1;
}

function renderProblems() {
  const ul = $("#wf-problems");
  const c = wf.checked;
  if (c.error) {
    ul.replaceChildren(el("li", { class: "wf-problem", text: c.error }));
    return;
  }
  if (c.problems.length === 0) {
    ul.replaceChildren(el("li", { class: "wf-problem none muted", text: wf.graph ? "None." : "" }));
    return;
  }
  ul.replaceChildren(...c.problems.map((p) => {
    const where = [p.line ? `line ${p.line}` : "", p.path].filter(Boolean).join(" · ");
    const i = nodeOf(p.path);
    const body = [el("span", { class: "wf-problem-where", text: where }), el("span", { class: "wf-problem-msg", text: p.msg })];
    if (!wf.graph) return el("li", { class: "wf-problem" }, body);
    const b = el("button", { class: "wf-problem-go", attrs: { type: "button", "data-path": p.path || "" } }, body);
    b.addEventListener("click", () => {
      wf.reveal = true;
      select(i);
      const field = (p.path || "").replace(/^nodes\[\d+\]\.?/, "").replace(/^params\[\d+\]\.?/, "");
      const target = $(`#wf-side [data-path="${CSS.escape(p.path || "")}"]`) || (field && $(`#wf-side [data-field="${CSS.escape(field)}"]`));
      if (target) target.focus();
    });
    return el("li", { class: "wf-problem" }, b);
  }));
}

// markFields shows each problem by the field it is about, in the form.
function markFields() {
  const side = $("#wf-side");
  for (const p of side.querySelectorAll(".wf-field-problem")) { p.textContent = ""; p.hidden = true; }
  for (const f of side.querySelectorAll("[aria-invalid]")) f.removeAttribute("aria-invalid");
  for (const p of problems()) {
    let path = p.path || "";
    for (;;) {
      const slot = side.querySelector(`.wf-field-problem[data-for="${CSS.escape(path)}"]`);
      if (slot) {
        slot.hidden = false;
        slot.append(el("span", { text: p.msg }));
        const input = side.querySelector(`[data-path="${CSS.escape(path)}"]`);
        if (input) input.setAttribute("aria-invalid", "true");
        break;
      }
      const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
      if (cut <= 0) break;
      path = path.slice(0, cut);
    }
  }
}

// ---------------------------------------------------------------- export

async function exportYAML() {
  if (!wf.graph) return;
  await current();
  if (wf.checked.error) { toast(`Not exported: ${wf.checked.error}`); return; }
  const yaml = wf.checked.yaml;
  const name = (wf.graph.name || "workflow").replace(/[^A-Za-z0-9_.-]+/g, "-");
  const url = URL.createObjectURL(new Blob([yaml], { type: "application/yaml" }));
  const a = el("a", { attrs: { href: url, download: `${name}.yaml` } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  toast(`Exported ${name}.yaml`);
}

// ---------------------------------------------------------------- graph

function renderGraph() {
  const box = $("#wf-canvas");
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.node : null;
  if (!wf.graph) {
    box.replaceChildren(el("p", { class: "wf-empty muted", text: "This file cannot be read as a workflow, so there is no graph to edit. Its problems are listed below." }));
    return;
  }
  const nodes = wf.graph.nodes || [];
  const L = layout(nodes);
  const bad = new Map();
  for (const p of problems()) {
    const i = nodeOf(p.path);
    if (i >= 0) bad.set(i, (bad.get(i) || 0) + 1);
  }
  const svg = svgEl("svg", {
    class: "wf-graph", width: L.width, height: L.height, viewBox: `0 0 ${L.width} ${L.height}`,
    role: "group", "aria-label": `The graph: ${nodes.length} ${nodes.length === 1 ? "node" : "nodes"}`,
  });
  svg.append(svgEl("defs", {}, svgEl("marker", {
    id: "wf-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse",
  }, svgEl("path", { d: "M0,0 L10,5 L0,10 z", class: "wf-arrowhead" }))));
  const edges = svgEl("g", { class: "wf-edges" });
  const labels = svgEl("g", { class: "wf-edge-labels" });
  let bend = 0;
  nodes.forEach((n, i) => {
    const a = L.pos[i];
    const links = LINKS.filter((f) => n[f]);
    links.forEach((f) => {
      const j = L.index.get(n[f]);
      const sx = a.x + (f === "then" ? BOX_W / 3 : f === "else" ? (2 * BOX_W) / 3 : BOX_W / 2);
      const sy = a.y + BOX_H;
      let d;
      let lx;
      let ly;
      if (j === undefined) {
        // A link to no node: a stub that names what it points at.
        d = `M${sx},${sy} L${sx},${sy + 26}`;
        edges.append(svgEl("path", { d, class: "wf-edge missing", "marker-end": "url(#wf-arrow)", "data-from": n.id, "data-to": n[f], "data-field": f }));
        labels.append(svgEl("text", { x: sx + 4, y: sy + 40, class: "wf-edge-label missing" }, `${f === "next" ? "" : `${f}: `}${clip(n[f], 20)}`));
        return;
      }
      const b = L.pos[j];
      if (L.row[j] > L.row[i] + 1) {
        // Past the rows between: round them, then on the left, else on
        // the right, so that the arrow crosses no box.
        const between = nodes.map((_, k) => k).filter((k) => L.row[k] > L.row[i] && L.row[k] < L.row[j]);
        const left = f === "then";
        const side = left
          ? Math.min(sx, ...between.map((k) => L.pos[k].x)) - 18
          : Math.max(sx, ...between.map((k) => L.pos[k].x + BOX_W)) + 18;
        const tx = b.x + BOX_W / 2;
        const ty = b.y;
        const y1 = sy + GAP_Y / 2;
        const y2 = ty - GAP_Y / 2;
        d = `M${sx},${sy} C${sx},${y1} ${side},${sy} ${side},${y1} L${side},${y2} C${side},${ty} ${tx},${y2} ${tx},${ty}`;
        lx = left ? side - 34 : side;
        ly = (y1 + y2) / 2;
      } else if (L.row[j] > L.row[i]) {
        const tx = b.x + BOX_W / 2;
        const ty = b.y;
        const dy = Math.max(24, (ty - sy) / 2);
        d = `M${sx},${sy} C${sx},${sy + dy} ${tx},${ty - dy} ${tx},${ty}`;
        lx = (sx + 3 * sx + 3 * tx + tx) / 8;
        ly = (sy + 3 * (sy + dy) + 3 * (ty - dy) + ty) / 8;
      } else {
        // Up, across or to itself: round by the right-hand side.
        bend++;
        const x1 = a.x + BOX_W;
        const y1 = a.y + BOX_H / 2 + (j === i ? 10 : 0);
        const x2 = b.x + BOX_W;
        const y2 = b.y + BOX_H / 2 - (j === i ? 10 : 0);
        const out = 36 + 14 * bend;
        d = `M${x1},${y1} C${x1 + out},${y1} ${x2 + out},${y2} ${x2},${y2}`;
        lx = Math.max(x1, x2) + out * 0.75 + 4;
        ly = (y1 + y2) / 2;
      }
      edges.append(svgEl("path", { d, class: `wf-edge ${f}`, "marker-end": "url(#wf-arrow)", "data-from": n.id, "data-to": n[f], "data-field": f }));
      if (f !== "next") labels.append(svgEl("text", { x: lx + 4, y: ly, class: `wf-edge-label ${f}` }, f));
    });
  });
  svg.append(edges);
  const boxes = svgEl("g", { class: "wf-nodes" });
  nodes.forEach((n, i) => {
    const p = L.pos[i];
    const run = wf.run && wf.run.nodes.get(n.id);
    const problems = bad.get(i) || 0;
    const cls = ["wf-node", `kind-${n.kind || "none"}`];
    if (i === wf.selected) cls.push("selected");
    if (problems) cls.push("bad");
    if (run) cls.push(`run-${run.status}`);
    const label = [`Node ${n.id || "(no id)"}`, n.kind || "no kind", n.title, i === 0 ? "the first node" : "",
      problems ? `${problems} ${problems === 1 ? "problem" : "problems"}` : "", run ? `run: ${run.status}` : ""].filter(Boolean).join(", ");
    const g = svgEl("g", {
      class: cls.join(" "), transform: `translate(${p.x},${p.y})`, tabindex: 0, role: "button",
      "aria-pressed": i === wf.selected ? "true" : "false", "aria-label": label, "data-node": i, "data-id": n.id || "",
    }, [
      svgEl("title", {}, label),
      svgEl("rect", { width: BOX_W, height: BOX_H, rx: 9, class: "wf-box" }),
      svgEl("text", { x: 12, y: 23, class: "wf-node-id" }, clip(n.id || "(no id)", 22)),
      svgEl("text", { x: 12, y: 43, class: "wf-node-sub" }, clip([n.kind, n.title].filter(Boolean).join(" · "), 25)),
    ]);
    if (i === 0) g.append(svgEl("text", { x: 0, y: -6, class: "wf-start" }, "start"));
    if (problems) {
      g.append(svgEl("circle", { cx: BOX_W - 4, cy: 4, r: 9, class: "wf-badge" }));
      g.append(svgEl("text", { x: BOX_W - 4, y: 8, class: "wf-badge-text", "text-anchor": "middle" }, String(problems)));
    }
    if (run) g.append(svgEl("text", { x: BOX_W - (problems ? 18 : 2), y: -6, class: `wf-run-mark ${run.status}`, "text-anchor": "end" }, run.status));
    g.addEventListener("click", (e) => { e.stopPropagation(); select(i, { focusBox: true }); });
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(i, { focusBox: true }); }
    });
    boxes.append(g);
  });
  svg.append(boxes, labels);
  svg.addEventListener("click", () => { if (wf.selected !== -1) select(-1); });
  box.replaceChildren(svg);
  if (focused != null) {
    const again = box.querySelector(`[data-node="${focused}"]`);
    if (again) again.focus();
  }
  if (wf.reveal) {
    wf.reveal = false;
    const sel = box.querySelector(`[data-node="${wf.selected}"]`);
    if (sel) {
      // Scroll the canvas, not the page, to the selected node.
      const r = sel.getBoundingClientRect();
      const c = box.getBoundingClientRect();
      if (r.top < c.top || r.bottom > c.bottom) box.scrollTop += r.top - c.top - (c.height - r.height) / 2;
      if (r.left < c.left || r.right > c.right) box.scrollLeft += r.left - c.left - (c.width - r.width) / 2;
    }
  }
}

// ---------------------------------------------------------------- the side form

let fieldSeq = 0;

// field builds a labelled input with a slot for its problems. path is the
// problem path the field answers to.
function field(label, input, path, hint) {
  const id = `wf-f${++fieldSeq}`;
  input.id = id;
  input.dataset.path = path;
  const slot = el("p", { class: "wf-field-problem", attrs: { id: `${id}-problem`, "data-for": path, hidden: true } });
  const described = [`${id}-problem`];
  const parts = [el("label", { class: "wf-field-label", text: label, attrs: { for: id } }), input];
  if (hint) {
    parts.push(el("p", { class: "wf-hint muted", text: hint, attrs: { id: `${id}-hint` } }));
    described.push(`${id}-hint`);
  }
  parts.push(slot);
  input.setAttribute("aria-describedby", described.join(" "));
  return el("div", { class: "wf-field" }, parts);
}

function textInput(value, onInput, { area = false, type = "text", name } = {}) {
  const i = area ? el("textarea", { attrs: { rows: 3, spellcheck: "false" } }) : el("input", { attrs: { type } });
  i.value = value == null ? "" : String(value);
  if (name) i.dataset.field = name;
  i.addEventListener("input", () => onInput(i.value, i));
  return i;
}

function selectInput(options, value, onChange, name) {
  const s = el("select", {}, options.map(([v, text]) => el("option", { text, attrs: { value: v } })));
  s.value = value == null ? "" : value;
  if (name) s.dataset.field = name;
  s.addEventListener("change", () => onChange(s.value));
  return s;
}

function renderSide() {
  const side = $("#wf-side");
  if (!wf.graph) { side.replaceChildren(); return; }
  if (wf.selected >= 0 && wf.selected < wf.graph.nodes.length) side.replaceChildren(...nodeForm(wf.selected));
  else { wf.selected = -1; side.replaceChildren(...settingsForm()); }
  side.setAttribute("aria-label", wf.selected >= 0 ? "Edit the node" : "Edit the workflow");
  markFields();
}

function nodeForm(i) {
  const n = node(i);
  const base = `nodes[${i}]`;
  const kinds = [...wf.meta.kinds.keys()];
  const kindOptions = kinds.map((k) => [k, k]);
  if (n.kind && !wf.meta.kinds.has(n.kind)) kindOptions.push([n.kind, n.kind]);
  if (!n.kind) kindOptions.unshift(["", ""]);
  // Its kind's fields, then any other field it has, so it can be cleared.
  const fields = [...(wf.meta.kinds.get(n.kind) || [])];
  for (const f of ["question", "verified", "sql", "expr", "if", "min_confidence", "retries", "for", "until", "approval", "channels", "message", "status", ...LINKS]) {
    if (f === "expr" && n.kind === "branch") continue;
    if (f === "if" && n.kind !== "branch") continue;
    if (!fields.includes(f) && isSet(n, f)) fields.push(f);
  }
  const idInput = textInput(n.id, (v) => renameNode(i, v), { name: "id" });
  idInput.addEventListener("focus", () => {
    wf.linkSnapshot = [];
    wf.graph.nodes.forEach((m, k) => LINKS.forEach((f) => { if (n.id && m[f] === n.id) wf.linkSnapshot.push([k, f]); }));
  });
  idInput.addEventListener("blur", () => { wf.linkSnapshot = null; });
  const head = el("div", { class: "wf-side-head" }, [
    el("h2", { class: "wf-side-title", text: `Node ${i + 1} of ${wf.graph.nodes.length}` }),
    el("button", { class: "btn small btn-ghost", text: "Workflow settings", attrs: { type: "button", "data-field": "settings" }, on: { click: () => select(-1) } }),
  ]);
  const out = [
    head,
    el("p", { class: "wf-field-problem wf-node-problem", attrs: { "data-for": base, hidden: true, role: "alert" } }),
    field("id", idInput, `${base}.id`),
    field("kind", selectInput(kindOptions, n.kind || "", (v) => { n.kind = v; edited({ form: true }); focusField("kind"); }, "kind"), `${base}.kind`),
    field("title", textInput(n.title, (v) => { setField(n, "title", v); edited(); }, { name: "title" }), `${base}.title`),
  ];
  for (const f of fields) out.push(nodeField(i, n, f, base));
  out.push(el("div", { class: "wf-side-actions" }, [
    el("button", { class: "btn small", text: "Move up", attrs: { type: "button", "data-field": "move-up", disabled: i === 0 }, on: { click: () => moveNode(i, -1) } }),
    el("button", { class: "btn small", text: "Move down", attrs: { type: "button", "data-field": "move-down", disabled: i === wf.graph.nodes.length - 1 }, on: { click: () => moveNode(i, 1) } }),
    el("button", { class: "btn small wf-danger", text: "Delete node", attrs: { type: "button", "data-field": "delete" }, on: { click: () => deleteNode(i) } }),
  ]));
  return out;
}

function nodeField(i, n, f, base) {
  const path = `${base}.${f}`;
  const v = getField(n, f);
  if (LINKS.includes(f)) {
    const ids = wf.graph.nodes.map((m) => m.id).filter((id, k) => id && k !== i);
    const options = [["", "(none)"], ...[...new Set(ids)].map((id) => [id, id])];
    if (v && !ids.includes(v)) options.push([v, v]);
    return field(f, selectInput(options, v || "", (x) => { setField(n, f, x); edited(); }, f), path);
  }
  if (f === "status") {
    const options = [["", ""], ...wf.meta.endStatuses.map((s) => [s, s])];
    if (v && !wf.meta.endStatuses.includes(v)) options.push([v, v]);
    return field(f, selectInput(options, v || "", (x) => { setField(n, f, x); edited(); }, f), path);
  }
  if (f === "channels") {
    return field(f, textInput((v || []).join(", "), (x) => {
      setField(n, f, x.split(",").map((s) => s.trim()).filter(Boolean));
      edited();
    }, { name: f }), path, "channel names, separated by commas");
  }
  if (f === "min_confidence" || f === "retries") {
    const input = textInput(v || "", (x) => { setField(n, f, x.trim() === "" ? 0 : Number(x)); edited(); }, { type: "number", name: f });
    input.step = f === "retries" ? "1" : "0.05";
    return field(f, input, path);
  }
  return field(f, textInput(v, (x) => { setField(n, f, x); edited(); }, { area: TEXTAREAS.has(f), name: f }), path);
}

// renameNode changes a node's id and the links that named it when the
// edit began, so that renaming does not cut the graph.
function renameNode(i, id) {
  const n = node(i);
  n.id = id;
  for (const [k, f] of wf.linkSnapshot || []) {
    if (wf.graph.nodes[k]) wf.graph.nodes[k][f] = id;
  }
  edited();
}

function settingsForm() {
  const g = wf.graph;
  const out = [
    el("div", { class: "wf-side-head" }, el("h2", { class: "wf-side-title", text: "Workflow" })),
    el("p", { class: "wf-hint muted", text: "Select a node in the graph to edit it." }),
    el("p", { class: "wf-field-problem wf-node-problem", attrs: { "data-for": "nodes", hidden: true, role: "alert" } }),
    field("name", textInput(g.name, (v) => { setField(g, "name", v); edited(); }, { name: "name" }), "name", "names the file: workflows/NAME.yaml"),
    field("description", textInput(g.description, (v) => { setField(g, "description", v); edited(); }, { area: true, name: "description" }), "description"),
    field("schedule", textInput(g.schedule, (v) => { setField(g, "schedule", v); edited(); }, { name: "schedule" }), "schedule", "cron or a phrase such as every Monday at 8; empty: never on its own"),
  ];
  const params = el("fieldset", { class: "wf-params" }, el("legend", { class: "wf-field-label", text: "Parameters" }));
  (g.params || []).forEach((p, k) => {
    const base = `params[${k}]`;
    const types = wf.meta.paramTypes.map((t) => [t, t]);
    if (p.type && !wf.meta.paramTypes.includes(p.type)) types.push([p.type, p.type]);
    const required = el("input", { attrs: { type: "checkbox" } });
    required.checked = !!p.required;
    required.addEventListener("change", () => { setField(p, "required", required.checked ? true : ""); edited(); });
    params.append(el("div", { class: "wf-param", attrs: { role: "group", "aria-label": `Parameter ${k + 1}` } }, [
      el("p", { class: "wf-field-problem wf-node-problem", attrs: { "data-for": base, hidden: true } }),
      field("name", textInput(p.name, (v) => { p.name = v; edited(); }, { name: `${base}.name` }), `${base}.name`),
      field("type", selectInput(types, p.type || "", (v) => { p.type = v; edited(); }, `${base}.type`), `${base}.type`),
      field("default", textInput(p.default, (v) => { setField(p, "default", v); edited(); }, { name: `${base}.default` }), `${base}.default`),
      field("required", required, `${base}.required`),
      field("description", textInput(p.description, (v) => { setField(p, "description", v); edited(); }, { name: `${base}.description` }), `${base}.description`),
      el("button", { class: "btn small wf-danger", text: "Remove parameter", attrs: { type: "button" }, on: { click: () => { g.params.splice(k, 1); if (!g.params.length) delete g.params; edited({ form: true, moved: true }); } } }),
    ]));
  });
  params.append(el("button", {
    class: "btn small", text: "Add parameter", attrs: { type: "button", "data-field": "add-param" },
    on: { click: () => { (g.params = g.params || []).push({ name: `param_${(g.params.length || 0) + 1}`, type: wf.meta.paramTypes[0] || "text" }); edited({ form: true, moved: true }); focusField(`params[${g.params.length - 1}].name`); } },
  }));
  out.push(params);
  return out;
}

// ---------------------------------------------------------------- running

function renderRunPanel() {
  renderRunParams();
  renderRunNodes();
}

function renderRunParams() {
  const box = $("#wf-run-params");
  const params = (wf.graph && wf.graph.params) || [];
  const old = new Map([...box.querySelectorAll("input[data-param]")].map((i) => [i.dataset.param, i.value]));
  box.replaceChildren(...params.filter((p) => p.name).map((p) => {
    const id = `wf-run-param-${p.name}`;
    const input = el("input", { attrs: { id, type: "text", "data-param": p.name, placeholder: p.default || "" } });
    input.value = old.get(p.name) || "";
    return el("div", { class: "wf-field" }, [el("label", { class: "wf-field-label", text: `${p.name} (${p.type || "text"})`, attrs: { for: id } }), input]);
  }));
}

function renderRunNodes() {
  const ol = $("#wf-run-nodes");
  if (!wf.run) { ol.replaceChildren(); return; }
  ol.replaceChildren(...[...wf.run.nodes.values()].map((n) => {
    const parts = [
      el("span", { class: "wf-run-id", text: n.id }),
      el("span", { class: `wf-run-badge ${n.status}`, text: n.status }),
    ];
    if (n.attempts > 1) parts.push(el("span", { class: "muted small-text", text: `${n.attempts} attempts` }));
    const li = el("li", { class: "wf-run-node", attrs: { "data-id": n.id, "data-status": n.status } }, el("div", { class: "wf-run-line" }, parts));
    if (n.message) li.append(el("p", { class: "wf-run-message", text: n.message }));
    if (n.output !== undefined) {
      const text = JSON.stringify(n.output);
      li.append(el("code", { class: "wf-run-output", text: clip(text, 240), attrs: { title: text } }));
    }
    return li;
  }));
}

function showState(st, final) {
  wf.run = { status: st.status, message: st.message || "", nodes: new Map((st.nodes || []).map((n) => [n.id, n])), runId: st.run_id };
  const status = $("#wf-run-status");
  let what = `Finished: ${st.status}`;
  if (!final) what = st.status === "running" ? `Running${st.next ? ` ${st.next}` : ""}…` : `Now ${st.status}`;
  status.textContent = [what, st.message, st.run_id ? `run ${st.run_id}` : ""].filter(Boolean).join(" · ");
  status.dataset.status = final ? st.status : "running";
  renderRunNodes();
  renderGraph();
}

async function runWorkflow() {
  if (!wf.graph || wf.running) return;
  const params = {};
  for (const i of $("#wf-run-params").querySelectorAll("input[data-param]")) if (i.value !== "") params[i.dataset.param] = i.value;
  wf.running = true;
  const token = ++wf.runToken;
  const shown = () => token === wf.runToken;
  $("#wf-run").disabled = true;
  wf.run = null;
  renderRunNodes();
  renderGraph();
  const status = $("#wf-run-status");
  status.textContent = "Starting…";
  status.dataset.status = "starting";
  let ended = false;
  try {
    await streamSSE("/api/workflows/run", { workflow: wf.graph, params }, (ev) => {
      if (!shown()) return;
      if (ev.event === "state") showState(ev.data, false);
      else if (ev.event === "done") { ended = true; showState(ev.data, true); }
      else if (ev.event === "error") {
        ended = true;
        if (ev.data && ev.data.state) showState(ev.data.state, true);
        status.textContent = `Failed: ${(ev.data && ev.data.error && ev.data.error.message) || "the run failed"}`;
        status.dataset.status = "error";
      }
    });
    if (!ended && shown()) {
      status.textContent = "The stream ended before the run did; its record is in quarry runs.";
      status.dataset.status = "error";
    }
  } catch (e) {
    if (!shown()) return;
    // Refused: the definition has problems (the check's own answer).
    if (e.body && Array.isArray(e.body.problems)) {
      wf.checked = { version: wf.version, shape: wf.shape, yaml: e.body.yaml || "", problems: e.body.problems, error: "" };
      showChecked();
    }
    status.textContent = `Not run: ${e.message}`;
    status.dataset.status = "refused";
  } finally {
    wf.running = false;
    $("#wf-run").disabled = !wf.graph;
  }
}

// ---------------------------------------------------------------- wiring

function init() {
  window.addEventListener("hashchange", showView);
  window.addEventListener("popstate", showView);
  $("#new-chat").addEventListener("click", toChat);
  $("#session-list").addEventListener("click", toChat);
  $("#wf-pick").addEventListener("change", () => {
    const v = $("#wf-pick").value;
    if (v) openFile(v);
  });
  $("#wf-new").addEventListener("click", () => { if (wf.meta) newWorkflow(); });
  $("#wf-add").addEventListener("click", addNode);
  $("#wf-export").addEventListener("click", exportYAML);
  $("#wf-run").addEventListener("click", runWorkflow);
  showView();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
