// quarry web chat. Plain ES module, no build step, no remote requests.
// workflows.js (the workflow editor) imports the helpers exported here.
//
// Only two server fields are ever inserted as markup: done.answer.html (the
// server renders the Markdown, safe by construction) and done.answer.chart_svg (the
// server's own chart renderer). Everything else goes in as text.

import { showSignIn } from "./signin.js";
import { shareControl } from "./share.js";

const $ = (sel, root = document) => root.querySelector(sel);

const STORE_SESSION = "quarry.session";
const STORE_THEME = "quarry.theme";

const EXAMPLES = [
  "revenue by month last year",
  "top 5 products by revenue in 2025",
  "how many customers in Germany",
  "orders by status",
];

const state = {
  sessionId: null,
  streaming: false,
  abort: null,
  sessions: [],
  awaiting: null, // manual mode: {runId, question} of the run waiting for a pasted result
};

// ---------------------------------------------------------------- helpers

export function el(tag, opts = {}, children = []) {
  const n = document.createElement(tag);
  if (opts.class) n.className = opts.class;
  if (opts.text != null) n.textContent = String(opts.text);
  if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) if (v != null && v !== false) n.setAttribute(k, v === true ? "" : String(v));
  if (opts.on) for (const [k, v] of Object.entries(opts.on)) n.addEventListener(k, v);
  for (const c of [].concat(children)) if (c != null) n.append(c);
  return n;
}

// icon builds a small static SVG icon from a path list; no server data.
function icon(paths, size = 16) {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("width", size);
  s.setAttribute("height", size);
  s.setAttribute("aria-hidden", "true");
  for (const d of paths) {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", "none");
    p.setAttribute("stroke", "currentColor");
    p.setAttribute("stroke-width", "2");
    p.setAttribute("stroke-linecap", "round");
    p.setAttribute("stroke-linejoin", "round");
    s.append(p);
  }
  return s;
}
const ICONS = {
  copy: ["M9 9h10v11H9z", "M5 15V4h10"],
  download: ["M12 4v11", "M7 10l5 5 5-5", "M5 20h14"],
  up: ["M7 11v9H4v-9z", "M7 11l4-7c1.5 0 2.5 1 2.2 2.6L12.6 10H19a1.8 1.8 0 0 1 1.8 2.1l-1.3 6.3A2 2 0 0 1 17.6 20H7"],
  down: ["M7 13V4H4v9z", "M7 13l4 7c1.5 0 2.5-1 2.2-2.6l-.6-3.4H19a1.8 1.8 0 0 0 1.8-2.1l-1.3-6.3A2 2 0 0 0 17.6 4H7"],
};

function fmtRelative(iso) {
  const t = Date.parse(iso);
  if (!t) return "";
  const s = (Date.now() - t) / 1000;
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 7 * 86400) return `${Math.floor(s / 86400)} d ago`;
  return new Date(t).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

function humanize(name) {
  const s = String(name || "").replace(/[_-]+/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

let toastTimer = 0;
export function toast(msg) {
  const t = $("#toast");
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 2200);
}

function store(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage unavailable */ }
}
function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

// currentView names the view the address shows: "workflows" (#workflows),
// "monitors" (#monitors, or #monitors/NAME for one monitor) or "chat".
export function currentView() {
  const h = location.hash;
  if (h === "#workflows") return "workflows";
  if (h === "#monitors" || h.startsWith("#monitors/")) return "monitors";
  return "chat";
}

// showChatParts shows the chat's own parts (its conversation, composer and
// title) only when the chat is the view; each view's module calls it.
export function showChatParts() {
  const chat = currentView() === "chat";
  $("#conversation").hidden = !chat;
  $(".composer-wrap").hidden = !chat;
  $("#conv-title").hidden = !chat;
  for (const link of document.querySelectorAll(".views .view-link")) {
    link.setAttribute("aria-current", link.id === `view-${currentView()}` ? "page" : "false");
  }
}

// ---------------------------------------------------------------- API

export class APIError extends Error {
  constructor(status, kind, message) {
    super(message);
    this.status = status;
    this.kind = kind;
  }
}

async function errorOf(res) {
  let kind = "internal";
  let message = `The server answered ${res.status} ${res.statusText}`.trim();
  let body = null;
  try {
    body = await res.json();
    if (body && body.error) {
      kind = body.error.kind || kind;
      message = body.error.message || message;
    }
  } catch { /* not JSON */ }
  const e = new APIError(res.status, kind, message);
  e.body = body;
  if (res.status === 401) showSignIn(message);
  return e;
}

export async function api(path, opts = {}) {
  const init = { method: opts.method || "GET", headers: { Accept: "application/json" }, signal: opts.signal };
  if (opts.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new APIError(0, "connection", "The quarry server cannot be reached. Is `quarry serve` still running?");
  }
  if (!res.ok) throw await errorOf(res);
  return res.json();
}

// streamSSE posts body to path and calls onEvent({event, id, data}) for each
// server-sent event. EventSource cannot POST, so the stream is read and
// parsed here.
export async function streamSSE(path, body, onEvent, signal) {
  let res;
  try {
    // A body is POSTed; without one (a run's stream, resumed) it is a GET.
    res = await fetch(path, body == null ? { headers: { Accept: "text/event-stream" }, signal } : {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new APIError(0, "connection", "The quarry server cannot be reached. Is `quarry serve` still running?");
  }
  if (!res.ok) throw await errorOf(res);
  const type = res.headers.get("Content-Type") || "";
  if (!type.includes("text/event-stream")) {
    const data = await res.json().catch(() => null);
    if (data && data.error) throw new APIError(res.status, data.error.kind, data.error.message);
    throw new APIError(res.status, "internal", "The server did not answer with an event stream.");
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  let ev = { event: "", id: "", data: [] };
  const dispatch = () => {
    if (ev.data.length > 0 || ev.event) {
      const raw = ev.data.join("\n");
      let data = raw;
      try { data = JSON.parse(raw); } catch { /* leave as text */ }
      onEvent({ event: ev.event || "message", id: ev.id, data });
    }
    ev = { event: "", id: "", data: [] };
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + (buf[nl] === "\r" && buf[nl + 1] === "\n" ? 2 : 1));
      if (line === "") { dispatch(); continue; }
      if (line.startsWith(":")) continue; // comment / keep-alive
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let val = colon < 0 ? "" : line.slice(colon + 1);
      if (val.startsWith(" ")) val = val.slice(1);
      if (field === "event") ev.event = val;
      else if (field === "id") ev.id = val;
      else if (field === "data") ev.data.push(val);
    }
  }
  buf += decoder.decode();
  if (buf.trim() !== "") {
    for (const line of buf.split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const field = line.slice(0, colon);
      const val = line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") ev.event = val;
      else if (field === "data") ev.data.push(val);
    }
  }
  dispatch();
}

// ---------------------------------------------------------------- theme

function currentTheme() {
  const t = document.documentElement.getAttribute("data-theme");
  if (t) return t;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}
function updateThemeButton() {
  const next = currentTheme() === "dark" ? "light" : "dark";
  $("#theme-toggle").setAttribute("aria-label", `Switch to ${next} theme`);
  $("#theme-toggle").title = `Switch to ${next} theme`;
}
function toggleTheme() {
  const next = currentTheme() === "dark" ? "light" : "dark";
  document.documentElement.setAttribute("data-theme", next);
  store(STORE_THEME, next);
  updateThemeButton();
}

// ---------------------------------------------------------------- SQL highlighting

const SQL_KEYWORDS = new Set(`
select from where and or not in is null as on join left right inner outer full cross natural using
group by order having limit offset fetch first next rows row only union all intersect except distinct
case when then else end asc desc nulls last with recursive values table explain analyze between like ilike
exists any some cast interval over partition window filter within lateral true false date time timestamp
insert update delete into set create drop alter truncate grant revoke replace returning collate escape
current_date current_timestamp current_time extract top percent ties
`.trim().split(/\s+/));

// tokenizeSQL splits SQL into [kind, text] tokens: keyword, string, number,
// comment, quoted (identifier), function, ident, op, space.
export function tokenizeSQL(src) {
  const out = [];
  let i = 0;
  const n = src.length;
  const push = (kind, text) => out.push([kind, text]);
  while (i < n) {
    const c = src[i];
    const rest = src.slice(i);
    let m;
    if (c === "-" && src[i + 1] === "-") {
      const end = src.indexOf("\n", i);
      const j = end < 0 ? n : end;
      push("comment", src.slice(i, j)); i = j; continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      const j = end < 0 ? n : end + 2;
      push("comment", src.slice(i, j)); i = j; continue;
    }
    if (c === "'" || ((c === "E" || c === "e" || c === "N" || c === "n" || c === "X" || c === "x") && src[i + 1] === "'")) {
      let j = c === "'" ? i + 1 : i + 2;
      while (j < n) {
        if (src[j] === "\\" && c !== "'") { j += 2; continue; }
        if (src[j] === "'") { if (src[j + 1] === "'") { j += 2; continue; } j++; break; }
        j++;
      }
      push("string", src.slice(i, j)); i = j; continue;
    }
    if (c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      while (j < n) {
        if (src[j] === close) { if (src[j + 1] === close && close !== "]") { j += 2; continue; } j++; break; }
        j++;
      }
      push("quoted", src.slice(i, j)); i = j; continue;
    }
    if ((m = /^\s+/.exec(rest))) { push("space", m[0]); i += m[0].length; continue; }
    if ((m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(rest))) { push("number", m[0]); i += m[0].length; continue; }
    if ((m = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/.exec(rest))) {
      const w = m[0];
      const after = src.slice(i + w.length);
      if (/^\s*\(/.test(after) && !SQL_KEYWORDS.has(w.toLowerCase())) push("function", w);
      else if (SQL_KEYWORDS.has(w.toLowerCase())) push("keyword", w);
      else push("ident", w);
      i += w.length; continue;
    }
    if ((m = /^(?:<>|<=|>=|!=|\|\||::|[-+*/%=<>(),.;])/.exec(rest))) { push("op", m[0]); i += m[0].length; continue; }
    push("op", c); i++;
  }
  return out;
}

export function highlightSQL(sql) {
  const code = el("code", { class: "language-sql" });
  for (const [kind, text] of tokenizeSQL(sql)) {
    if (kind === "space") code.append(text);
    else code.append(el("span", { class: `tok-${kind}`, text }));
  }
  return el("pre", { class: "code" }, code);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = el("textarea", { class: "visually-hidden" });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

function sqlSection(sql, title = "SQL") {
  const copy = el("button", {
    class: "btn small copy-sql", attrs: { type: "button", "aria-label": "Copy the SQL" },
  }, [icon(ICONS.copy, 14), " Copy"]);
  copy.addEventListener("click", async () => {
    const ok = await copyText(sql);
    copy.lastChild.textContent = ok ? " Copied" : " Copy failed";
    setTimeout(() => { copy.lastChild.textContent = " Copy"; }, 1600);
  });
  return el("section", { class: "sql-section", attrs: { "aria-label": title } }, [
    el("div", { class: "section-head" }, [el("h3", { class: "section-title", text: title }), el("div", { class: "section-actions" }, copy)]),
    highlightSQL(sql),
  ]);
}

// ---------------------------------------------------------------- result table

const NUMERIC_TYPES = /^(int|integer|bigint|smallint|tinyint|float|double|real|decimal|numeric|number|money)/i;

function isNumber(v) {
  return typeof v === "number" || (typeof v === "string" && v.trim() !== "" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim()));
}

function formatCell(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") {
    if (Number.isInteger(v)) return v.toLocaleString("en-US");
    const a = Math.abs(v);
    if (a >= 1) return v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return v.toLocaleString("en-US", { maximumSignificantDigits: 4 });
  }
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function compareValues(a, b, numeric) {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1; // NULLs last
  if (numeric) return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
}

function resultTable(columns, rows, opts = {}) {
  const cols = (columns || []).map((c) => (typeof c === "string" ? { name: c, type: "" } : c));
  const numeric = cols.map((c, i) => NUMERIC_TYPES.test(c.type || "") ||
    (rows.length > 0 && rows.every((r) => r[i] === null || r[i] === undefined || isNumber(r[i])) && rows.some((r) => r[i] !== null && r[i] !== undefined)));
  const original = rows.map((r, i) => ({ r, i }));
  let view = original.slice();
  let sortCol = -1;
  let sortDir = 0; // 1 ascending, -1 descending, 0 original order

  const table = el("table", { class: "data-table" });
  const thead = el("thead");
  const headRow = el("tr");
  const tbody = el("tbody");
  const ths = cols.map((c, i) => {
    const ind = el("span", { class: "sort-ind", attrs: { "aria-hidden": "true" } });
    const b = el("button", {
      attrs: { type: "button", title: `Sort by ${c.name}` },
    }, [el("span", { class: "col-name", text: c.name }), ind]);
    const th = el("th", { class: numeric[i] ? "num" : "", attrs: { scope: "col", "aria-sort": "none", "data-col": i } }, b);
    b.addEventListener("click", () => {
      if (sortCol !== i) { sortCol = i; sortDir = 1; } else sortDir = sortDir === 1 ? -1 : sortDir === -1 ? 0 : 1;
      if (sortDir === 0) { sortCol = -1; view = original.slice(); } else {
        view = original.slice().sort((x, y) => compareValues(x.r[i], y.r[i], numeric[i]) * sortDir || x.i - y.i);
      }
      for (const [j, h] of ths.entries()) {
        const on = j === sortCol;
        h.setAttribute("aria-sort", on ? (sortDir === 1 ? "ascending" : "descending") : "none");
        h.querySelector(".sort-ind").textContent = on ? (sortDir === 1 ? "▲" : "▼") : "";
      }
      renderBody();
    });
    headRow.append(th);
    return th;
  });
  thead.append(headRow);

  function renderBody() {
    // The server's cells are the values as the answer's text writes them;
    // the raw values sort and go to the CSV.
    const cells = opts.cells && opts.cells.length === rows.length ? opts.cells : null;
    tbody.replaceChildren(...view.map(({ r, i: row }) => el("tr", {}, r.map((v, i) => {
      const nul = v === null || v === undefined;
      const text = cells && cells[row] && typeof cells[row][i] === "string" ? cells[row][i] : formatCell(v);
      const td = el("td", { class: [numeric[i] ? "num" : "", nul ? "null" : ""].join(" ").trim(), text });
      if (!nul && typeof v !== "object") td.title = String(v);
      return td;
    }))));
  }
  renderBody();
  table.append(thead, tbody);

  const count = opts.rowCount ?? rows.length;
  const shown = rows.length;
  const foot = el("div", { class: "table-foot" });
  foot.textContent = shown < count || opts.truncated
    ? `Showing the first ${shown.toLocaleString("en-US")} of ${count.toLocaleString("en-US")}${opts.truncated && shown >= count ? "+" : ""} rows · the CSV has them all`
    : `${count.toLocaleString("en-US")} ${count === 1 ? "row" : "rows"}`;

  const actions = el("div", { class: "section-actions" });
  if (opts.resultId) {
    actions.append(el("a", {
      class: "btn small download-csv",
      attrs: {
        href: `/api/results/${encodeURIComponent(opts.resultId)}?format=csv`,
        download: `${opts.resultId}.csv`,
        "aria-label": "Download the full result as CSV",
      },
    }, [icon(ICONS.download, 14), " Download CSV"]));
  }
  return el("section", { class: "result-section", attrs: { "aria-label": "Result" } }, [
    el("div", { class: "section-head" }, [el("h3", { class: "section-title", text: opts.title || "Result" }), actions]),
    el("div", { class: "table-wrap", attrs: { tabindex: "0", "aria-label": "Result rows" } }, table),
    foot,
  ]);
}

// ---------------------------------------------------------------- chart

// The chart renderer writes presentation as style attributes, which the
// page's Content-Security-Policy refuses in markup. They are moved onto the
// CSSOM instead (allowed), and the renderer's neutral colours are mapped to
// the theme's so the chart follows light and dark.
const CHART_COLORS = new Map([
  ["white", "var(--chart-bg)"], ["#fff", "var(--chart-bg)"], ["#ffffff", "var(--chart-bg)"], ["rgb(255,255,255)", "var(--chart-bg)"],
  ["rgb(31,41,55)", "var(--chart-ink)"], ["rgb(17,24,39)", "var(--chart-ink)"], ["rgb(55,65,81)", "var(--chart-ink)"],
  ["rgb(107,114,128)", "var(--chart-muted)"], ["rgb(75,85,99)", "var(--chart-muted)"],
  ["rgb(229,231,235)", "var(--chart-grid)"], ["rgb(243,244,246)", "var(--chart-grid)"],
  ["rgb(156,163,175)", "var(--chart-axis)"], ["rgb(209,213,219)", "var(--chart-axis)"],
]);

function parseStyle(text) {
  const out = [];
  for (const decl of String(text).split(";")) {
    const i = decl.indexOf(":");
    if (i < 0) continue;
    const prop = decl.slice(0, i).trim().toLowerCase();
    let val = decl.slice(i + 1).trim();
    if (!prop || !val) continue;
    if ((prop === "fill" || prop === "stroke" || prop === "color" || prop === "stop-color") && CHART_COLORS.has(val.replace(/\s+/g, "").toLowerCase())) {
      val = CHART_COLORS.get(val.replace(/\s+/g, "").toLowerCase());
    }
    if (prop === "font-family") val = "var(--font)";
    out.push([prop, val]);
  }
  return out;
}

// STYLE_ATTR finds style attributes inside tags. They are renamed before
// parsing, because even a parsed, unattached document reports each one as
// a CSP violation.
const STYLE_ATTR = /(\sstyle)(\s*=\s*(?:"[^"]*"|'[^']*'))/g;

function chartSection(svgText, title) {
  const safe = String(svgText).replace(/<[^<>]*>/g, (tag) => tag.replace(STYLE_ATTR, " data-chart-style$2"));
  const doc = new DOMParser().parseFromString(safe, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg" || doc.getElementsByTagName("parsererror").length) return null;
  // Defence in depth: our renderer never writes these, so drop them.
  for (const n of svg.querySelectorAll("script, foreignObject, iframe")) n.remove();
  const all = [svg, ...svg.querySelectorAll("*")];
  const styles = all.map((n) => {
    for (const a of [...n.attributes]) {
      if (/^on/i.test(a.name) || (/href$/i.test(a.name) && !a.value.startsWith("#"))) n.removeAttribute(a.name);
    }
    const decls = n.hasAttribute("data-chart-style") ? parseStyle(n.getAttribute("data-chart-style")) : null;
    n.removeAttribute("data-chart-style");
    n.removeAttribute("style");
    return decls;
  });
  const live = document.importNode(svg, true);
  [live, ...live.querySelectorAll("*")].forEach((n, i) => {
    const decls = styles[i];
    if (decls) for (const [p, v] of decls) n.style.setProperty(p, v);
  });
  live.removeAttribute("width");
  live.removeAttribute("height");
  live.setAttribute("role", "img");
  live.setAttribute("aria-label", title ? `Chart: ${title}` : "Chart of the result");
  return el("figure", { class: "chart", attrs: { "aria-label": "Chart" } }, live);
}

// ---------------------------------------------------------------- checks

const CHECK_MARK = { pass: "✓", warn: "⚠", fail: "✗" };

const NOTICE_ICONS = {
  refused: ["M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z", "M5.6 5.6l12.8 12.8"],
  clarify: ["M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z", "M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7", "M12 17h.01"],
  unknown: ["M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z", "M12 8v5", "M12 16.5h.01"],
  info: ["M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z", "M12 11v5", "M12 7.5h.01"],
  error: ["M12 3L2 20h20z", "M12 10v4", "M12 17h.01"],
};

function checksSection(checks, confidence) {
  const row = el("div", { class: "meta-row" });
  if (checks && checks.length) {
    const list = el("ul", { class: "checks", attrs: { "aria-label": "Checks" } });
    for (const c of checks) {
      const st = c.status in CHECK_MARK ? c.status : "warn";
      list.append(el("li", {
        class: `check ${st}`,
        attrs: { title: c.detail || "", tabindex: "0", "aria-label": `${humanize(c.name)}: ${st}${c.detail ? ", " + c.detail : ""}` },
      }, [el("span", { class: "mark", text: CHECK_MARK[st], attrs: { "aria-hidden": "true" } }), el("span", { text: humanize(c.name) })]));
    }
    row.append(list);
  }
  if (typeof confidence === "number") {
    const pct = Math.max(0, Math.min(1, confidence));
    const fill = el("div", { class: `meter-fill ${pct < 0.5 ? "low" : pct < 0.8 ? "mid" : ""}` });
    fill.style.width = `${Math.round(pct * 100)}%`;
    row.append(el("div", { class: "confidence" }, [
      el("span", { text: "Confidence" }),
      el("div", { class: "meter", attrs: { role: "meter", "aria-valuemin": "0", "aria-valuemax": "1", "aria-valuenow": pct.toFixed(2), "aria-label": "Confidence" } }, fill),
      el("span", { class: "confidence-value", text: pct.toFixed(2) }),
    ]));
  }
  const wrap = el("section", { class: "checks-section", attrs: { "aria-label": "Checks and confidence" } }, row);
  const notable = (checks || []).filter((c) => c.status === "warn" || c.status === "fail");
  if (notable.length) {
    wrap.append(el("ul", { class: "check-details" }, notable.map((c) =>
      el("li", {}, [el("strong", { text: `${CHECK_MARK[c.status]} ${humanize(c.name)}: ` }), c.detail || ""]))));
  }
  return wrap;
}

// ---------------------------------------------------------------- feedback

function feedbackBar(runId) {
  const note = el("span", { class: "feedback-note", attrs: { role: "status" } });
  const mk = (vote, label) => {
    const b = el("button", { class: "icon-btn", attrs: { type: "button", "aria-label": label, title: label, "aria-pressed": "false", "data-vote": vote } }, icon(vote === "up" ? ICONS.up : ICONS.down, 16));
    b.addEventListener("click", async () => {
      for (const x of bar.querySelectorAll("[data-vote]")) x.disabled = true;
      note.textContent = "Sending…";
      try {
        const res = await api("/api/feedback", { method: "POST", body: { run_id: runId, vote } });
        b.setAttribute("aria-pressed", "true");
        note.textContent = vote === "up"
          ? (res.pending_file ? "Thanks! Saved as a verified query for review." : "Thanks for the feedback.")
          : "Thanks. Noted, so this can be improved.";
      } catch (e) {
        note.textContent = `Could not send feedback: ${e.message}`;
        for (const x of bar.querySelectorAll("[data-vote]")) x.disabled = false;
      }
    });
    return b;
  };
  const bar = el("div", { class: "feedback" }, [
    el("span", { class: "label", text: "Was this right?" }),
    mk("up", "Good answer"), mk("down", "Wrong answer"), note,
    el("span", { class: "run-id muted", text: runId || "", attrs: { title: "Run id: quarry runs show " + (runId || "") } }),
  ]);
  return bar;
}

// ---------------------------------------------------------------- stages

const STAGES = [
  ["understand", "Understanding"],
  ["plan", "Planning"],
  ["sql", "Generating SQL"],
  ["guard", "Guard"],
  ["run", "Running"],
  ["check", "Checking"],
  ["explain", "Explaining"],
];
const STAGE_OF = {
  "run.started": ["understand", null],
  "question.parsed": ["understand", "plan"],
  "clarification": ["plan", null],
  "plan.made": ["plan", "sql"],
  "question.read": ["plan", "sql"],
  "sql.generated": ["sql", "guard"],
  "guard.checked": ["guard", "run"],
  "approval.requested": ["guard", "run"],
  "query.executed": ["run", "check"],
  "query.failed": ["run", null],
  "checks.ran": ["check", "explain"],
  "answer.rendered": ["explain", null],
};

function eventDetail(type, d) {
  d = d || {};
  switch (type) {
    case "run.started": return [d.question || d.sql, d.planner && `planner ${d.planner}`, d.as_of && `as of ${d.as_of}`, d.privacy && `privacy ${privacyText(d)}`].filter(Boolean).join(" · ");
    case "tool.called": return [d.tool, d.error, d.withheld && `withheld from the model: ${d.withheld}`].filter(Boolean).join(" · ");
    case "question.parsed": return [d.understood && d.understood.length && `understood: ${d.understood.join("; ")}`, d.unknown && d.unknown.length && `not understood: ${d.unknown.join(", ")}`].filter(Boolean).join(" · ");
    case "plan.made": return d.source ? `from ${d.source.replace(/_/g, " ")}` : "";
    case "question.read": return d.text || "";
    case "clarification": return d.question || "";
    case "sql.generated": return `${d.source || ""}: ${(d.sql || "").split("\n")[0]}${(d.sql || "").includes("\n") ? " …" : ""}`;
    case "guard.checked": return d.allowed ? `allowed (${d.dialect || "sql"})` : `refused: ${(d.violations || []).map((v) => v.message || v.code).join("; ")}`;
    case "query.executed": return `${Number(d.rows || 0).toLocaleString("en-US")} ${Number(d.rows) === 1 ? "row" : "rows"} in ${Math.round(d.duration_ms || 0)} ms${d.cached ? " (cached)" : ""}`;
    case "query.failed": return d.message || d.kind || "";
    case "approval.requested": return `${d.statement} waits for approval${d.asked_by ? ` (asked by ${d.asked_by})` : ""}`;
    case "approval.decided": return `${d.statement} ${d.approved ? "approved" : "refused"}${d.by ? ` by ${d.by}` : ""}${d.reason ? `: ${d.reason}` : ""}`;
    case "checks.ran": return `${(d.checks || []).length} checks · confidence ${typeof d.confidence === "number" ? d.confidence.toFixed(2) : "?"}`;
    case "answer.rendered": return d.chart ? `chart: ${d.chart}` : "";
    case "run.finished": return [d.status, d.error].filter(Boolean).join(": ");
    case "model.called": return Object.entries(d).slice(0, 4).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
    default: return "";
  }
}

class Progress {
  constructor(root, kind = "ask") {
    this.root = root;
    this.kind = kind;
    this.line = el("div", { class: "progress", attrs: { role: "status", "aria-label": "Progress" } });
    this.status = new Map(); // stage key → "current" | "done" | "bad"
    this.notes = new Map();
    this.events = [];
    root.append(this.line);
    this.set(kind === "run" ? "guard" : "understand", "current");
  }
  set(key, st, note) {
    this.status.set(key, st);
    if (note !== undefined) this.notes.set(key, note);
    this.render();
  }
  label(key) {
    const base = STAGES.find(([k]) => k === key)[1];
    const st = this.status.get(key);
    if (key === "guard" && st === "done") return "Guard ✓";
    if (key === "guard" && st === "bad") return "Guard ✗";
    const note = this.notes.get(key);
    return note ? `${base} · ${note}` : base;
  }
  render() {
    this.line.replaceChildren(...STAGES.filter(([k]) => this.status.has(k)).map(([k]) => {
      const st = this.status.get(k);
      const mark = st === "current" ? el("span", { class: "spinner", attrs: { "aria-hidden": "true" } })
        : el("span", { class: "stage-mark", text: st === "bad" ? "✗" : "✓", attrs: { "aria-hidden": "true" } });
      return el("span", { class: `stage ${st}`, attrs: { "data-stage": k } }, [mark, el("span", { text: this.label(k) + (st === "current" ? "…" : "") })]);
    }));
  }
  onEvent(type, env) {
    this.events.push(env);
    const d = (env && env.data) || {};
    if (type === "run.started" && d.kind === "run") this.kind = "run";
    if (this.kind === "run" && (type === "run.started" || type === "sql.generated")) {
      this.status.delete("understand");
      this.set("guard", "current");
      return;
    }
    const m = STAGE_OF[type];
    if (!m) return;
    const [done, next] = m;
    let bad = false;
    if (type === "guard.checked" && !d.allowed) bad = true;
    if (type === "query.failed") bad = true;
    let note;
    if (type === "query.executed") note = `${Number(d.rows || 0).toLocaleString("en-US")} ${Number(d.rows) === 1 ? "row" : "rows"}`;
    if (type === "approval.requested") { this.set("guard", "done"); this.set("run", "current", "waiting for approval"); return; }
    if (type === "clarification") note = "needs a choice";
    this.set(done, bad ? "bad" : "done", note);
    if (next && !bad) this.set(next, "current");
  }
  finish(status) {
    const stopped = { rejected: "refused", unanswered: "not understood", failed: "failed", canceled: "canceled" }[status];
    for (const [k, st] of this.status) {
      if (st !== "current") continue;
      if (stopped) { this.status.set(k, "bad"); this.notes.set(k, stopped); } else this.status.set(k, "done");
    }
    const summary = STAGES.filter(([k]) => this.status.has(k)).map(([k]) => this.label(k)).join(" · ");
    this.line.remove();
    this.root.prepend(traceDetails(summary, this.events));
    const note = privacyNote(this.events);
    if (note) this.root.prepend(note);
  }
}

// privacyText names a run's privacy tier as run.started records it.
function privacyText(d) {
  return d.privacy === "aggregates-only" && d.min_group_size ? `aggregates-only (groups of at least ${d.min_group_size} rows)` : d.privacy;
}

// privacyNote says, above a run's trace, what its connection's privacy
// tier let reach the model and what it withheld; nothing under full.
function privacyNote(events) {
  const started = events.find((e) => e && e.type === "run.started");
  const d = (started && started.data) || {};
  if (!d.privacy || d.privacy === "full") return null;
  const withheld = events.filter((e) => e && e.type === "tool.called" && e.data && e.data.withheld).length;
  const what = d.privacy === "schema-only" ? "no value of a row reached the model" : "only aggregated results of large enough groups reached the model";
  return el("p", { class: "privacy muted small-text", text: `Privacy: ${privacyText(d)}: ${what}${withheld ? `; ${withheld} tool ${withheld === 1 ? "result was" : "results were"} withheld from it` : ""}. You see the full result.` });
}

function traceDetails(summary, events, loadEvents) {
  const det = el("details", { class: "trace" });
  const ms = events.length > 1 ? Date.parse(events[events.length - 1].at) - Date.parse(events[0].at) : NaN;
  const sum = el("summary", { attrs: { "aria-label": "Show the run's trace" } }, [
    el("span", { text: "Trace" }),
    el("span", { class: "trace-summary-stages", text: `· ${summary}${Number.isFinite(ms) ? ` · ${ms} ms` : ""}` }),
  ]);
  const list = el("ol", { class: "trace-list" });
  const fill = (evs) => {
    const t0 = evs.length ? Date.parse(evs[0].at) : 0;
    list.replaceChildren(...evs.map((e) => el("li", {}, [
      el("span", { class: "trace-time", text: `+${Math.max(0, Date.parse(e.at) - t0) || 0} ms` }),
      el("span", { class: "trace-type", text: e.type }),
      el("span", { class: "trace-detail", text: eventDetail(e.type, e.data) }),
    ])));
  };
  fill(events);
  if (loadEvents) {
    let loaded = false;
    det.addEventListener("toggle", async () => {
      if (!det.open || loaded) return;
      loaded = true;
      list.replaceChildren(el("li", { class: "muted", text: "Loading…" }));
      try { fill(await loadEvents()); } catch (e) { list.replaceChildren(el("li", { text: `Could not load the trace: ${e.message}` })); }
    });
  }
  det.append(sum, list);
  return det;
}

// ---------------------------------------------------------------- turns

// readingView is how quarry read the question, in business terms: shown
// first, so that a misreading is seen before any number.
function readingView(done) {
  const r = done && done.interpretation;
  if (!r || !r.text) return null;
  return el("p", { class: "reading muted small-text" }, [el("strong", { text: "Read as: " }), r.text]);
}

function answerView(ans, runId, kind = "ask", reading = null) {
  const card = el("article", { class: "card answer", attrs: { "aria-label": "Answer" } });
  if (reading) card.append(reading);
  const hasRows = Array.isArray(ans.rows) && Array.isArray(ans.columns) && ans.columns.length > 0;
  if (ans.html || ans.headline || ans.markdown) {
    const prose = el("div", { class: "prose" });
    if (ans.html) {
      prose.innerHTML = ans.html; // server-rendered Markdown, safe by construction (internal/mdhtml)
      // The structured views below show these; keep the narrative only.
      for (const p of prose.querySelectorAll("p")) if (/^\s*(Checks|Confidence):/.test(p.textContent)) p.remove();
      if (hasRows) for (const t of prose.querySelectorAll("table")) t.remove();
    } else {
      prose.textContent = ans.headline || ans.markdown;
    }
    card.append(prose);
  }
  if (ans.chart_svg) {
    const title = ans.chart && ans.chart.title;
    const fig = chartSection(ans.chart_svg, title);
    if (fig) card.append(fig);
  }
  if (ans.checks && ans.checks.length) card.append(checksSection(ans.checks, kind === "run" ? undefined : ans.confidence));
  if (ans.sql) card.append(sqlSection(ans.sql));
  if (hasRows) card.append(resultTable(ans.columns, ans.rows, { rowCount: ans.row_count, truncated: ans.truncated, resultId: ans.result_id, cells: ans.cells }));
  if (runId && kind !== "run") card.append(feedbackBar(runId));
  else if (runId) card.append(el("p", { class: "run-id muted small-text", text: runId }));
  if (runId) card.append(provenanceBar(runId));
  return card;
}

// provenanceBar links a run's provenance bundle (JSON and Markdown) and
// re-executes its SQL on request, saying whether the result is the same
// and, if not, what changed.
function provenanceBar(runId) {
  const base = `/api/runs/${encodeURIComponent(runId)}`;
  const out = el("span", { class: "rerun-verdict muted small-text", attrs: { role: "status" } });
  const btn = el("button", { class: "btn small rerun", text: "Re-run", attrs: { type: "button", title: "Re-execute this SQL and compare the result hash" } });
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    out.textContent = "Re-running…";
    try {
      const r = await api(`${base}/rerun`, { method: "POST" });
      out.textContent = (r.verdict || []).join("; ") + ` (run ${r.rerun_id})`;
    } catch (e) {
      out.textContent = e.message || "The re-run failed.";
    } finally {
      btn.disabled = false;
    }
  });
  return el("p", { class: "provenance muted small-text" }, [
    "Provenance: ",
    el("a", { text: "JSON", attrs: { href: `${base}/export?format=json`, download: "" } }), " · ",
    el("a", { text: "Markdown", attrs: { href: `${base}/export?format=md`, download: "" } }), " ",
    btn, " ", out, " ", shareControl(runId),
  ]);
}

function noticeView(done, question) {
  const status = done.status;
  const err = done.error || {};
  const clar = done.clarification;
  let cls = "notice";
  let iconName = "unknown";
  let title = "quarry could not answer this with confidence";
  if (clar || status === "clarify") { cls += " clarify"; iconName = "clarify"; title = "Which one do you mean?"; }
  else if (status === "rejected" || err.kind === "forbidden" || err.kind === "rejected") { cls += " refused"; iconName = "refused"; title = done.kind === "run" ? "The guard refused this statement; nothing was run" : "quarry refused this request"; }
  else if (done.info) { cls += " info"; iconName = "info"; title = "The pasted result was not used"; }
  else if (err.kind === "unsupported") { cls += " info"; iconName = "info"; title = "Not available yet"; }
  else if (status === "failed" || status === "canceled" || (err.kind && err.kind !== "unanswered")) { cls += " error"; iconName = "error"; title = status === "canceled" ? "The run was canceled" : "Something went wrong"; }
  const card = el("article", { class: `card ${cls}`, attrs: { "aria-label": title, "data-status": status || "" } });
  const msg = (clar && clar.question) || err.message || done.message || "";
  card.append(el("div", { class: "notice-head" }, [
    el("span", { class: "notice-icon" }, icon(NOTICE_ICONS[iconName], 20)),
    el("div", {}, [el("p", { class: "notice-title", text: title }), msg ? el("p", { class: "notice-msg", text: msg }) : null]),
  ]));
  const reading = readingView(done);
  if (reading) card.append(reading);
  const understood = done.understood || [];
  const unknown = done.unknown || [];
  if (understood.length || unknown.length) {
    const dl = el("dl");
    if (understood.length) dl.append(el("dt", { text: "Understood" }), el("dd", {}, understood.map((u) => el("span", { class: "tag", text: u }))));
    if (unknown.length) dl.append(el("dt", { text: "Not understood" }), el("dd", {}, unknown.map((u) => el("span", { class: "tag unknown", text: u }))));
    card.append(dl);
  }
  const opts = (clar && clar.options) || [];
  if (opts.length) {
    card.append(el("div", { class: "chips", attrs: { role: "group", "aria-label": "Choose one" } }, opts.map((o) =>
      el("button", { class: "chip", text: o, attrs: { type: "button", "data-option": o }, on: { click: () => sendMessage(o) } }))));
  }
  if (done.did_you_mean) {
    const fixed = done.did_you_mean;
    card.append(el("p", { class: "did-you-mean" }, [
      "Did you mean: ",
      el("button", { class: "chip", text: fixed, attrs: { type: "button", "data-did-you-mean": fixed }, on: { click: () => sendMessage(fixed) } }),
      "?",
    ]));
  }
  const sugg = done.did_you_mean ? [] : done.suggestions || [];
  if (sugg.length) {
    card.append(el("p", { class: "muted small-text", text: "Closest known terms — click one to try it in your question:" }));
    card.append(el("div", { class: "chips", attrs: { role: "group", "aria-label": "Suggestions" } }, sugg.map((s) =>
      el("button", {
        class: "chip", text: s, attrs: { type: "button" },
        on: { click: () => { const q = substituteTerm(question, unknown, s); setComposer(q); } },
      }))));
  }
  if (done.run_id) card.append(el("p", { class: "run-id muted small-text", text: done.run_id }));
  return card;
}

// substituteTerm replaces the first not-understood word of the question
// with a suggestion, so the user can edit and send it.
function substituteTerm(question, unknown, suggestion) {
  for (const u of unknown || []) {
    const re = new RegExp(`\\b${u.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");
    if (re.test(question)) return question.replace(re, suggestion);
  }
  return `${question} ${suggestion}`.trim();
}

function questionView(text, pasted) {
  return el("div", { class: "question" }, el("div", { class: "question-bubble" }, [
    text,
    pasted ? el("span", { class: "pasted", text: `with ${pasted.split(/\r?\n/).filter(Boolean).length} pasted lines of results` }) : null,
  ]));
}

function addTurn() {
  const li = el("li", { class: "turn" });
  $("#turns").append(li);
  $("#welcome").hidden = true;
  return li;
}

function renderDone(body, done, question) {
  body.append(doneView(done, question));
}

// renderTurn shows a finished turn: from a session's history, or a
// statement run from the Run my SQL panel. Its trace, and what a turn that
// was not answered understood and offered, come from the run's events.
function renderTurn(t) {
  const li = addTurn();
  li.dataset.runId = t.run_id || "";
  li.dataset.status = t.status || "";
  const kind = t.kind || "ask";
  li.append(kind === "run" ? sqlQuestionView(t.sql || (t.answer && t.answer.sql) || "") : questionView(t.question || ""));
  const body = el("div", { class: "turn-body" });
  li.append(body);
  const done = { ...t, kind, status: t.status, answer: t.answer, interpretation: t.interpretation || t.reading };
  if (kind === "run" && t.status === "succeeded" && done.answer) done.answer = { ...done.answer, sql: "" }; // the SQL is the question
  let view = doneView(done, t.question || "");
  body.append(view);
  if (!t.run_id) return li;
  api(`/api/runs/${encodeURIComponent(t.run_id)}/events`).then((events) => {
    if (!Array.isArray(events) || !body.isConnected) return;
    const progress = new Progress(body, kind);
    for (const e of events) progress.onEvent(e.type, e);
    progress.finish(t.status);
    if (t.status !== "succeeded") {
      const richer = enrichFromEvents(done, events);
      const next = doneView(richer, t.question || "");
      view.replaceWith(next);
      view = next;
    }
  }).catch(() => { /* the turn shows without its trace */ });
  return li;
}

// enrichFromEvents adds what the log knows about a turn that was not
// answered: what was understood, what was not, the closest known terms,
// and a clarification's options.
function enrichFromEvents(done, events) {
  const out = { ...done };
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "question.parsed") {
      if (!out.understood && d.understood) out.understood = d.understood;
      if (!out.unknown && d.unknown) out.unknown = d.unknown;
      if (!out.suggestions && d.alternatives) out.suggestions = d.alternatives;
      if (!out.did_you_mean && d.did_you_mean) out.did_you_mean = d.did_you_mean;
    } else if (e.type === "question.read" && !out.interpretation) {
      out.interpretation = d;
    } else if (e.type === "query.proposed" && !out.proposed) {
      out.proposed = { sql: d.sql || "", columns: d.columns || [] };
    } else if (e.type === "clarification" && !out.clarification) {
      out.clarification = { question: d.question, options: d.options || [] };
      out.status = "clarify";
    }
  }
  return out;
}

function doneView(done, question) {
  if (done.status === "awaiting_results" && done.proposed) return proposedView(done, question);
  const ok = done.status === "succeeded" && done.answer;
  return ok ? answerView(done.answer, done.run_id, done.kind, readingView(done)) : noticeView(done, question);
}

// proposedView is manual mode's card: the query quarry proposes for the
// user to run on their database, and the way to paste its result back.
function proposedView(done, question) {
  const p = done.proposed;
  const card = el("article", { class: "card proposed", attrs: { "aria-label": "Proposed query", "data-status": "awaiting_results" } });
  card.append(el("div", { class: "notice-head" }, [
    el("span", { class: "notice-icon" }, icon(NOTICE_ICONS.info, 20)),
    el("div", {}, [
      el("p", { class: "notice-title", text: "Run this query on your database" }),
      el("p", { class: "notice-msg", text: "No connection is configured, so quarry did not run it. Copy it, run it yourself, then paste its result (CSV, TSV, a psql or mysql table, Markdown or JSON) and quarry will check and explain it." }),
    ]),
  ]));
  const reading = readingView(done);
  if (reading) card.append(reading);
  card.append(sqlSection(p.sql, "Proposed SQL"));
  if (p.columns && p.columns.length) {
    card.append(el("p", { class: "muted small-text expected-columns" }, ["It should return the columns ", ...p.columns.map((c) => el("span", { class: "tag", text: c }))]));
  }
  const btn = el("button", { class: "btn btn-primary small paste-result", text: "Paste the result", attrs: { type: "button" } });
  btn.addEventListener("click", () => awaitPaste(done.run_id, question));
  card.append(el("div", { class: "proposed-actions" }, btn));
  if (done.run_id) card.append(el("p", { class: "run-id muted small-text", text: done.run_id }));
  return card;
}

// awaitPaste opens the paste box for the run waiting for its result.
function awaitPaste(runId, question) {
  if (!runId) return;
  state.awaiting = { runId, question: question || "" };
  $("#paste-input").placeholder = "Paste the result of the proposed query here, then press Send result.";
  $("#paste-label-text").textContent = "Result of the proposed query";
  openPaste();
}

function sqlQuestionView(sql) {
  return el("div", { class: "question" }, el("div", { class: "question-bubble sql-bubble" }, [
    el("span", { class: "bubble-label", text: "Ran my SQL" }),
    highlightSQL(sql),
  ]));
}

// ---------------------------------------------------------------- chat

function setStreaming(on) {
  state.streaming = on;
  const input = $("#composer-input");
  input.disabled = on;
  $("#send").disabled = on;
  $("#composer").setAttribute("aria-busy", on ? "true" : "false");
  input.placeholder = on ? "quarry is working on your question…" : "Ask a question about your data…";
  if (!on) input.focus();
}

function scrollToBottom() {
  const c = $("#conversation");
  c.scrollTop = c.scrollHeight;
}

async function sendMessage(text, opts = {}) {
  let message = String(text || "").trim();
  const pasteBox = $("#paste-box");
  const pasted = !pasteBox.hidden ? $("#paste-input").value.trim() : "";
  const awaiting = pasted ? state.awaiting : null;
  if (awaiting && !message) message = awaiting.question;
  if ((!message && !pasted) || state.streaming) return;
  const li = addTurn();
  li.append(questionView(message || "Pasted result", pasted));
  const body = el("div", { class: "turn-body" });
  li.append(body);
  const progress = new Progress(body);
  if (!$("#conv-title").dataset.fixed) { $("#conv-title").textContent = message; $("#conv-title").dataset.fixed = "1"; }
  scrollToBottom();
  setStreaming(true);
  const ctrl = new AbortController();
  state.abort = ctrl;
  const req = { message };
  if (state.sessionId) req.session_id = state.sessionId;
  if (pasted) req.results = pasted;
  if (awaiting) req.run_id = awaiting.runId;
  if (opts.asOf) req.as_of = opts.asOf;
  let done = null;
  let runId = "";
  let lastId = "";
  try {
    const onEvent = (ev) => {
      if (ev.id) lastId = ev.id;
      if (ev.event === "session") {
        if (ev.data && ev.data.session_id) setSession(ev.data.session_id);
        if (ev.data && ev.data.run_id) li.dataset.runId = runId = ev.data.run_id;
      } else if (ev.event === "done") {
        done = ev.data || {};
      } else if (ev.event === "error") {
        done = { status: "failed", error: (ev.data && ev.data.error) || ev.data };
      } else {
        const env = ev.data && typeof ev.data === "object" ? ev.data : { type: ev.event, data: {} };
        progress.onEvent(env.type || ev.event, env);
        // approvals.js shows a statement that waits for approval.
        body.dispatchEvent(new CustomEvent("quarry-run-event", { bubbles: true, detail: { runId: li.dataset.runId, type: env.type || ev.event, data: env.data } }));
      }
      scrollToBottom();
    };
    try {
      await streamSSE("/api/chat", req, onEvent, ctrl.signal);
    } catch (e) {
      if (e.name === "AbortError" || !runId) throw e;
    }
    // The stream broke after the run was recorded: the server may have
    // stopped. Resume the run's stream where it broke; another server
    // sharing the state answers, and finishes with the same done event.
    for (let i = 0; !done && runId && i < 5; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1000 * i));
      const after = lastId ? `?after=${encodeURIComponent(lastId)}` : "";
      try {
        await streamSSE(`/api/runs/${encodeURIComponent(runId)}/stream${after}`, null, onEvent, ctrl.signal);
      } catch (e) {
        if (e.name === "AbortError") throw e;
      }
    }
    if (!done) done = { status: "failed", error: { kind: "connection", message: "The stream ended before the answer arrived. The run may still have finished: reopen this conversation from the history." } };
  } catch (e) {
    if (e.name === "AbortError") { done = { status: "canceled", error: { kind: "canceled", message: "You left this conversation before the answer arrived; it is still recorded." } }; }
    else done = { status: "failed", error: { kind: e.kind || "internal", message: e.message } };
  }
  if (pasted && done.error && done.status !== "succeeded") {
    done.error.message = `${done.error.message} Your pasted result is still in the paste box.`;
    if (["unsupported", "not_found", "input"].includes(done.error.kind)) done.info = true;
  } else if (pasted && done.status === "succeeded") {
    $("#paste-input").value = "";
    state.awaiting = null;
    closePaste();
  }
  if (done.status === "awaiting_results" && done.proposed) awaitPaste(done.run_id, message);
  if (done.session_id) setSession(done.session_id);
  if (done.run_id) li.dataset.runId = done.run_id;
  li.dataset.status = done.status || "";
  if (done.status !== "succeeded") done = enrichFromEvents(done, progress.events);
  progress.finish(done.status);
  renderDone(body, done, message);
  state.abort = null;
  if (ctrl.signal.aborted) return;
  setStreaming(false);
  scrollToBottom();
  refreshSessions();
}

// ---------------------------------------------------------------- sessions

function setSession(id) {
  state.sessionId = id;
  store(STORE_SESSION, id);
  for (const b of document.querySelectorAll(".session-item")) b.setAttribute("aria-current", b.dataset.id === id ? "true" : "false");
}

async function refreshSessions() {
  try {
    const list = await api("/api/sessions");
    state.sessions = (Array.isArray(list) ? list : (list && list.sessions) || []).slice()
      .sort((a, b) => String(b.updated_at || b.created_at || "").localeCompare(String(a.updated_at || a.created_at || "")));
    renderSessions();
  } catch { /* the status line says when the server is gone */ }
}

function renderSessions() {
  const ul = $("#session-list");
  ul.replaceChildren(...state.sessions.map((s) => {
    const b = el("button", {
      class: "session-item",
      attrs: { type: "button", "data-id": s.id, "aria-current": s.id === state.sessionId ? "true" : "false" },
      on: { click: () => openSession(s.id) },
    }, [el("span", { class: "session-title", text: s.title || "Untitled conversation" }), el("span", { class: "session-time", text: fmtRelative(s.updated_at || s.created_at) })]);
    return el("li", {}, b);
  }));
  $("#history-empty").hidden = state.sessions.length > 0;
  const cur = state.sessions.find((s) => s.id === state.sessionId);
  if (cur && cur.title) { $("#conv-title").textContent = cur.title; $("#conv-title").dataset.fixed = "1"; }
}

function clearConversation() {
  $("#turns").replaceChildren();
  $("#welcome").hidden = false;
  $("#conv-title").textContent = "New conversation";
  delete $("#conv-title").dataset.fixed;
}

function newConversation() {
  if (state.abort) state.abort.abort();
  setStreaming(false);
  state.sessionId = null;
  store(STORE_SESSION, null);
  clearConversation();
  renderSessions();
  closeSidebar();
  $("#composer-input").focus();
}

async function openSession(id, { quiet = false } = {}) {
  if (state.abort) { state.abort.abort(); setStreaming(false); }
  closeSidebar();
  let data;
  try {
    data = await api(`/api/sessions/${encodeURIComponent(id)}`);
  } catch (e) {
    if (e.status === 404 || e.status === 410) {
      if (state.sessionId === id) { state.sessionId = null; store(STORE_SESSION, null); }
      if (!quiet) toast("That conversation is no longer available.");
      return;
    }
    if (!quiet) toast(`Could not open the conversation: ${e.message}`);
    return;
  }
  clearConversation();
  setSession(id);
  const s = data.session || {};
  if (s.title) { $("#conv-title").textContent = s.title; $("#conv-title").dataset.fixed = "1"; }
  for (const t of data.turns || []) renderTurn(t);
  scrollToBottom();
}

// ---------------------------------------------------------------- panels

function openRunPanel() {
  $("#run-panel").hidden = false;
  $("#drawer-backdrop").hidden = false;
  $("#open-run").setAttribute("aria-expanded", "true");
  $("#run-sql").focus();
}
function closeRunPanel() {
  if ($("#run-panel").hidden) return false;
  $("#run-panel").hidden = true;
  $("#drawer-backdrop").hidden = true;
  $("#open-run").setAttribute("aria-expanded", "false");
  $("#open-run").focus();
  return true;
}
function openPaste() {
  $("#paste-box").hidden = false;
  $("#paste-toggle").setAttribute("aria-expanded", "true");
  $("#paste-input").focus();
}
function closePaste() {
  if ($("#paste-box").hidden) return false;
  $("#paste-box").hidden = true;
  $("#paste-toggle").setAttribute("aria-expanded", "false");
  return true;
}
function closeSidebar() {
  if (!$("#sidebar").classList.contains("open")) return false;
  $("#sidebar").classList.remove("open");
  $("#sidebar-toggle").setAttribute("aria-expanded", "false");
  return true;
}

function verdictView(v) {
  if (!v) return null;
  if (v.allowed) {
    return el("div", { class: "verdict allowed" }, [
      el("span", { class: "mark", text: "✓", attrs: { "aria-hidden": "true" } }),
      el("div", {}, [el("strong", { text: "Guard: allowed" }), el("span", { class: "muted", text: ` · a read-only ${v.statement || "query"}${v.dialect ? ` in ${v.dialect}` : ""}${v.has_limit ? "" : " · no LIMIT: the preview shows the first rows"}` })]),
    ]);
  }
  return el("div", { class: "verdict refused" }, [
    el("span", { class: "mark", text: "✗", attrs: { "aria-hidden": "true" } }),
    el("div", {}, [
      el("strong", { text: "Guard: refused — nothing was run" }),
      el("ul", {}, (v.violations || []).map((x) => el("li", {}, [el("code", { text: x.code }), ` ${x.message}`]))),
    ]),
  ]);
}

// diffView shows a unified diff, its lines marked as removed or added.
function diffView(diff) {
  const code = el("code");
  for (const line of String(diff || "").replace(/\n$/, "").split("\n")) {
    let cls = "diff-ctx";
    if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("@@")) cls = "diff-meta";
    else if (line.startsWith("+")) cls = "diff-add";
    else if (line.startsWith("-")) cls = "diff-del";
    code.append(el("span", { class: cls, text: `${line}\n` }));
  }
  return el("pre", { class: "code diff", attrs: { "aria-label": "Proposed fix as a diff" } }, code);
}

// fixView shows the fix a model proposed for a refused statement: not run
// until the user applies it.
function fixView(fix, failedRun) {
  if (!fix.proposed) {
    return el("p", { class: "muted small-text no-fix", text: `No fix proposed: ${fix.reason || "none was found."}` });
  }
  const card = el("section", { class: "fix-card", attrs: { "aria-label": "Proposed fix" } });
  card.append(el("div", { class: "section-head" }, el("h3", { class: "section-title", text: "Proposed fix (not run yet)" })));
  card.append(diffView(fix.diff));
  card.append(verdictView(fix.guard));
  const actions = el("div", { class: "fix-actions" });
  if (fix.allowed) {
    const apply = el("button", { class: "btn btn-primary small", text: "Apply fix", attrs: { type: "button", "data-fix": "apply" } });
    apply.addEventListener("click", () => { $("#run-sql").value = fix.sql; runStatement(fix.sql, failedRun); });
    actions.append(apply);
  } else if (fix.reason) {
    card.append(el("p", { class: "muted small-text", text: fix.reason }));
  }
  const dismiss = el("button", { class: "btn small", text: "Dismiss", attrs: { type: "button", "data-fix": "dismiss" } });
  dismiss.addEventListener("click", () => { card.remove(); $("#run-sql").focus(); });
  actions.append(dismiss);
  card.append(actions);
  return card;
}

async function runSQL(ev) {
  ev.preventDefault();
  return runStatement($("#run-sql").value.trim());
}

async function runStatement(sql, fixOf) {
  const out = $("#run-output");
  if (!sql) { $("#run-sql").focus(); return; }
  const btn = $("#run-submit");
  btn.disabled = true;
  btn.textContent = "Running…";
  out.replaceChildren(el("p", { class: "muted", text: "Checking and running…" }));
  try {
    const body = { sql };
    if (state.sessionId) body.session_id = state.sessionId;
    if (fixOf) body.fix_of = fixOf;
    let r;
    try {
      r = await api("/api/run", { method: "POST", body });
    } catch (e) {
      // A refused or failed statement is still a recorded run: the body
      // carries its verdict next to the error.
      if (!e.body || !e.body.run_id) throw e;
      r = e.body;
    }
    const parts = [verdictView(r.guard)];
    if (r.error) parts.push(errorCard(r.error));
    if (r.fix) parts.push(fixView(r.fix, r.run_id));
    if (r.sql && r.sql.trim() !== sql) parts.push(sqlSection(r.sql, "SQL that ran (fixed)"));
    if (Array.isArray(r.columns) && r.columns.length) parts.push(resultTable(r.columns, r.rows || [], { rowCount: r.row_count, truncated: r.truncated, resultId: r.result_id }));
    if (r.run_id) parts.push(el("p", { class: "run-id muted small-text", text: r.run_id }));
    out.replaceChildren(...parts.filter(Boolean));
    if (r.run_id && state.sessionId) {
      // The run belongs to the conversation, as its history shows it.
      renderTurn({
        run_id: r.run_id, kind: "run", sql: r.sql || sql, status: r.status, error: r.error,
        answer: r.status === "succeeded" ? { sql: r.sql || sql, columns: r.columns, rows: r.rows, row_count: r.row_count, truncated: r.truncated, result_id: r.result_id, checks: [] } : undefined,
      });
      scrollToBottom();
    }
  } catch (e) {
    out.replaceChildren(errorCard({ kind: e.kind, message: e.message }));
  } finally {
    btn.disabled = false;
    btn.textContent = "Run";
  }
}

function errorCard(err) {
  const refused = err.kind === "rejected" || err.kind === "forbidden";
  return el("div", { class: `verdict refused`, attrs: { role: "alert" } }, [
    el("span", { class: "mark", text: "✗", attrs: { "aria-hidden": "true" } }),
    el("div", {}, [el("strong", { text: refused ? "Refused" : humanize(err.kind || "error") }), el("div", { text: err.message || "" })]),
  ]);
}

function setComposer(text) {
  const input = $("#composer-input");
  input.value = text;
  autosize();
  input.focus();
  input.setSelectionRange(text.length, text.length);
}

function autosize() {
  const input = $("#composer-input");
  input.style.height = "auto";
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}

// ---------------------------------------------------------------- health

async function checkHealth() {
  const dot = $("#conn-dot");
  const label = $("#server-status");
  try {
    const h = await api("/api/health");
    dot.className = "conn-dot ok";
    label.textContent = h.version ? `Local server · ${h.version}` : "Local server";
  } catch {
    dot.className = "conn-dot bad";
    label.textContent = "Server unreachable";
  }
}

// ---------------------------------------------------------------- wiring

function init() {
  updateThemeButton();
  $("#theme-toggle").addEventListener("click", toggleTheme);
  if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", updateThemeButton);

  $("#examples").replaceChildren(...EXAMPLES.map((q) => el("button", {
    class: "chip", text: q, attrs: { type: "button", role: "listitem" }, on: { click: () => sendMessage(q) },
  })));

  const input = $("#composer-input");
  $("#composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = input.value;
    const pasting = !$("#paste-box").hidden && $("#paste-input").value.trim() && state.awaiting;
    if ((!v.trim() && !pasting) || state.streaming) return;
    input.value = "";
    autosize();
    sendMessage(v);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $("#composer").requestSubmit();
    }
  });
  input.addEventListener("input", autosize);

  $("#new-chat").addEventListener("click", newConversation);
  $("#open-run").addEventListener("click", openRunPanel);
  $("#run-close").addEventListener("click", closeRunPanel);
  $("#drawer-backdrop").addEventListener("click", closeRunPanel);
  $("#run-form").addEventListener("submit", runSQL);
  $("#run-sql").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); $("#run-form").requestSubmit(); }
  });
  $("#paste-toggle").addEventListener("click", () => ($("#paste-box").hidden ? openPaste() : (closePaste(), input.focus())));
  $("#paste-close").addEventListener("click", () => { closePaste(); input.focus(); });
  $("#paste-send").addEventListener("click", () => {
    if (state.streaming) return;
    const v = input.value;
    input.value = "";
    autosize();
    sendMessage(v);
  });
  $("#sidebar-toggle").addEventListener("click", () => {
    const open = $("#sidebar").classList.toggle("open");
    $("#sidebar-toggle").setAttribute("aria-expanded", open ? "true" : "false");
    if (open) $("#new-chat").focus();
  });

  document.addEventListener("keydown", (e) => {
    const t = e.target;
    const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
    if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey && !$("#conversation").hidden) {
      e.preventDefault();
      input.focus();
    } else if (e.key === "Escape") {
      if (closeRunPanel() || closeSidebar()) { e.preventDefault(); return; }
      if (closePaste()) { e.preventDefault(); input.focus(); }
    }
  });

  checkHealth();
  state.sessionId = load(STORE_SESSION);
  refreshSessions().then(() => {
    if (state.sessionId) openSession(state.sessionId, { quiet: true });
  });
  input.focus();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
