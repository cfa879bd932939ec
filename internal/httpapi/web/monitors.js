// quarry's Monitors page. Plain ES module, no build step, no remote requests.
//
// The page draws what the server judged: every value, baseline, band and
// anomaly comes from GET /api/monitors and /api/monitors/NAME/series (the
// same read and the same detector as `quarry watch test`); the alerts and
// their investigations from /api/monitors/NAME/alerts (the alerts file).
// Nothing here judges anything. Server text goes in as text, never markup.

import { el, api, toast, currentView, showChatParts } from "./app.js";

const $ = (sel, root = document) => root.querySelector(sel);
const SVG = "http://www.w3.org/2000/svg";
const STORE_ASOF = "quarry.monitors.asOf";

const STATUS = {
  ok: "OK",
  alerting: "Alerting",
  muted: "Muted",
  not_run: "Not yet run",
  failing: "Failing",
  no_data: "No data",
};

const mon = {
  list: null, // the last GET /api/monitors answer
  open: "", // the monitor shown in the detail view, or ""
  seq: 0, // bumped by every load: an older answer no longer shows
  detailSeq: 0,
};

// ---------------------------------------------------------------- view

function nameInHash() {
  const h = location.hash;
  if (!h.startsWith("#monitors/")) return "";
  try { return decodeURIComponent(h.slice("#monitors/".length)); } catch { return ""; }
}

function showView() {
  const on = currentView() === "monitors";
  showChatParts();
  $("#monitors").hidden = !on;
  $("#mon-title").hidden = !on;
  if (!on) return;
  if (!mon.list) load();
  const name = nameInHash();
  if (name !== mon.open) openDetail(name);
}

// asOf is the day typed in the toolbar, "" for today.
function asOf() {
  return $("#mon-asof").value || "";
}

function query(extra = {}) {
  const p = new URLSearchParams();
  if (asOf()) p.set("as_of", asOf());
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : "";
}

function setStatus(text, kind = "") {
  const s = $("#mon-status");
  s.textContent = text;
  s.className = `wf-check${kind ? ` ${kind}` : ""}`;
}

// ---------------------------------------------------------------- numbers

function fmt(v) {
  if (v == null || !Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  if (a >= 100) return v.toLocaleString(undefined, { maximumFractionDigits: 1 });
  if (a >= 1) return v.toLocaleString(undefined, { maximumFractionDigits: 2 });
  return v.toLocaleString(undefined, { maximumSignificantDigits: 3 });
}

function pct(change) {
  if (change == null || !Number.isFinite(change)) return "";
  const s = `${Math.abs(change * 100).toFixed(Math.abs(change) < 0.1 ? 1 : 0)}%`;
  return change < 0 ? `−${s}` : `+${s}`;
}

function period(p) {
  return p.period_start === p.period_end ? p.period_start : `${p.period_start} – ${p.period_end}`;
}

function when(iso) {
  const t = Date.parse(iso || "");
  if (!t) return "";
  return new Date(t).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

// judgement says in words how a period was judged.
function judgement(p) {
  if (!p) return "no complete period yet";
  if (!p.judged) return "not judged (too little history or volume)";
  const against = p.baseline != null ? ` against ${fmt(p.baseline)} (${pct(p.change)})` : "";
  return `${p.anomalous ? "anomalous" : "normal"}${against}`;
}

// ---------------------------------------------------------------- sparkline

function svgEl(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text != null) n.textContent = String(text);
  return n;
}

// describe is the words a chart stands for, for a screen reader.
function describe(seg, name) {
  const pts = seg.points || [];
  if (!pts.length) return `${name}: no complete period yet`;
  const last = pts[pts.length - 1];
  const bad = pts.filter((p) => p.anomalous).map((p) => p.period_start);
  let s = `${name}${seg.segment ? ` (${seg.segment})` : ""}, ${pts.length} periods to ${last.period_end}: latest ${fmt(last.value)}`;
  if (last.baseline != null) s += ` against a baseline of ${fmt(last.baseline)}`;
  s += bad.length ? `; anomalous: ${bad.join(", ")}` : "; no anomalous period";
  return s;
}

// chart draws a segment's periods: the band the detector allows shaded,
// the baseline dashed, the values as a line, anomalous periods marked.
// A band side the monitor does not watch (null) runs to the chart's edge.
function chart(seg, label, o) {
  const pts = seg.points || [];
  const w = o.width, h = o.height, pad = o.pad;
  const s = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: `mon-chart ${o.class || ""}`, role: "img", "aria-label": describe(seg, label) });
  s.append(svgEl("title", {}, describe(seg, label)));
  if (!pts.length) return s;
  const ys = [];
  for (const p of pts) {
    ys.push(p.value);
    if (p.baseline != null) ys.push(p.baseline);
    if (p.low != null) ys.push(p.low);
    if (p.high != null) ys.push(p.high);
  }
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (lo === hi) { lo -= 1; hi += 1; }
  const x = (i) => pad + (pts.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (pts.length - 1));
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  const top = pad, bottom = h - pad;

  // The band: one polygon for each run of judged periods.
  let run = [];
  const flush = () => {
    if (!run.length) return;
    const upper = run.map((i) => `${x(i)},${pts[i].high != null ? y(pts[i].high) : top}`);
    const lower = run.slice().reverse().map((i) => `${x(i)},${pts[i].low != null ? y(pts[i].low) : bottom}`);
    if (run.length === 1) {
      const i = run[0], dx = 2;
      s.append(svgEl("rect", { class: "mon-band", x: x(i) - dx, y: pts[i].high != null ? y(pts[i].high) : top, width: 2 * dx, height: Math.max(1, (pts[i].low != null ? y(pts[i].low) : bottom) - (pts[i].high != null ? y(pts[i].high) : top)) }));
    } else {
      s.append(svgEl("polygon", { class: "mon-band", points: upper.concat(lower).join(" ") }));
    }
    run = [];
  };
  pts.forEach((p, i) => { if (p.judged) run.push(i); else flush(); });
  flush();

  const line = (key, cls) => {
    let d = "";
    let pen = false;
    pts.forEach((p, i) => {
      if (p[key] == null) { pen = false; return; }
      d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(p[key]).toFixed(1)}`;
      pen = true;
    });
    if (d) s.append(svgEl("path", { class: cls, d }));
  };
  line("baseline", "mon-baseline");
  line("value", "mon-value");
  pts.forEach((p, i) => {
    if (!p.anomalous) return;
    const c = svgEl("circle", { class: "mon-anomaly", cx: x(i), cy: y(p.value), r: o.mark });
    c.append(svgEl("title", {}, `${period(p)}: ${fmt(p.value)}, ${judgement(p)}`));
    s.append(c);
  });
  if (o.axes) {
    s.append(svgEl("text", { class: "mon-axis", x: pad, y: h - 2 }, pts[0].period_start));
    s.append(svgEl("text", { class: "mon-axis", x: w - pad, y: h - 2, "text-anchor": "end" }, pts[pts.length - 1].period_start));
    s.append(svgEl("text", { class: "mon-axis", x: 2, y: pad + 4 }, fmt(hi)));
    s.append(svgEl("text", { class: "mon-axis", x: 2, y: h - pad }, fmt(lo)));
  }
  return s;
}

const SPARK = { width: 168, height: 40, pad: 4, mark: 2.8, class: "mon-spark" };
const BIG = { width: 720, height: 180, pad: 18, mark: 4, axes: true, class: "mon-big" };

// ---------------------------------------------------------------- list

function badge(status) {
  return el("span", { class: `mon-badge ${status}`, text: STATUS[status] || status });
}

function row(m) {
  const link = el("a", { class: "mon-name", text: m.name, attrs: { href: `#monitors/${encodeURIComponent(m.name)}` } });
  const nameCell = el("th", { attrs: { scope: "row" } }, [link, el("span", { class: "mon-watches muted small-text", text: m.watches })]);
  const latest = m.latest;
  const judge = el("span", { class: "mon-problem-text", text: m.problem || "" });
  const spark = m.spark
    ? [chart(m.spark, m.name, SPARK), m.spark.segment ? el("span", { class: "muted small-text mon-period", text: m.spark.segment }) : null]
    : el("span", { class: "muted", text: "–" });
  const due = Date.parse(m.next_run || "") <= Date.now();
  const next = m.muted_until ? `muted until ${m.muted_until}` : m.next_run ? (due ? `due since ${when(m.next_run)}` : `next ${when(m.next_run)}`) : "";
  const sched = el("td", { class: "mon-sched" }, [
    el("span", { text: m.schedule }), " ", el("code", { class: "muted small-text", text: m.cron }),
    el("span", { class: "muted small-text mon-next", text: next }),
  ]);
  const tr = el("tr", { attrs: { "data-monitor": m.name, "data-status": m.status } }, [
    nameCell,
    el("td", {}, badge(m.status)),
    sched,
    el("td", { class: "mon-judgement" }, [
      latest ? el("span", { class: "mon-latest" }, [el("strong", { text: fmt(latest.value) }), " ", judgement(latest)]) : null,
      m.status === "failing" || m.status === "no_data" ? judge : el("span", { class: "muted small-text mon-period", text: latest ? period(latest) : "no complete period yet" }),
    ]),
    el("td", { class: "mon-spark-cell" }, spark),
  ]);
  return tr;
}

async function load() {
  const seq = ++mon.seq;
  setStatus("Reading the monitors…");
  let list;
  try {
    list = await api(`/api/monitors${query()}`);
  } catch (e) {
    if (seq !== mon.seq) return;
    setStatus(`Could not read the monitors: ${e.message}`, "bad");
    return;
  }
  if (seq !== mon.seq) return;
  mon.list = list;
  const rows = $("#mon-rows");
  rows.replaceChildren(...list.monitors.map(row));
  $("#mon-empty").hidden = list.monitors.length > 0;
  $("#mon-table").hidden = list.monitors.length === 0;
  $("#mon-legend").hidden = list.monitors.length === 0;
  const alerting = list.monitors.filter((m) => m.status === "alerting").length;
  const failing = list.monitors.filter((m) => m.status === "failing").length;
  const noData = list.monitors.filter((m) => m.status === "no_data").length;
  const bits = [`${list.monitors.length} monitor${list.monitors.length === 1 ? "" : "s"} as of ${list.as_of}`];
  if (alerting) bits.push(`${alerting} alerting`);
  if (failing) bits.push(`${failing} failing`);
  if (noData) bits.push(`${noData} without data`);
  setStatus(bits.join(" · "), failing || noData ? "bad" : "");
}

// ---------------------------------------------------------------- detail

function runLinks(id) {
  const base = `/api/runs/${encodeURIComponent(id)}`;
  return el("span", { class: "mon-run" }, [
    el("code", { text: id }), " ",
    el("a", { text: "JSON", attrs: { href: `${base}/export?format=json`, download: "", "aria-label": `provenance of run ${id}, JSON` } }), " · ",
    el("a", { text: "Markdown", attrs: { href: `${base}/export?format=md`, download: "", "aria-label": `provenance of run ${id}, Markdown` } }),
  ]);
}

function investigation(inv) {
  const box = el("div", { class: "mon-investigation" });
  box.append(el("p", { class: "small-text muted", text: `Where the change came from, against ${inv.baseline_start} – ${inv.baseline_end} (per period):` }));
  const cs = inv.contributors || [];
  if (cs.length) {
    const table = el("table", { class: "data-table mon-contrib" }, [
      el("caption", { class: "visually-hidden", text: "The segments that moved most" }),
      el("thead", {}, el("tr", {}, ["Segment", "Value", "Baseline", "Change", "Share of the change"].map((h, i) => el("th", { text: h, class: i ? "num" : "", attrs: { scope: "col" } })))),
      el("tbody", {}, cs.map((c) => el("tr", {}, [
        el("td", { text: `${c.dimension}=${c.value}` }),
        el("td", { class: "num", text: fmt(c.current) }),
        el("td", { class: "num", text: fmt(c.baseline) }),
        el("td", { class: "num", text: `${c.delta > 0 ? "+" : ""}${fmt(c.delta)}` }),
        el("td", { class: "num", text: c.share ? `${Math.round(c.share * 100)}%` : "" }),
      ]))),
    ]);
    box.append(table);
  }
  for (const s of inv.skipped || []) box.append(el("p", { class: "small-text muted", text: s }));
  const runs = inv.runs || [];
  if (runs.length) {
    const d = el("details", { class: "mon-inv-runs small-text" }, [el("summary", { text: `The breakdowns' ${runs.length} runs` })]);
    d.append(el("ul", {}, runs.map((id) => el("li", {}, runLinks(id)))));
    box.append(d);
  }
  return box;
}

function alertItem(a) {
  const li = el("li", { class: `mon-alert ${a.kind}`, attrs: { "data-period": a.period_start } });
  li.append(el("div", { class: "mon-alert-head" }, [
    el("span", { class: `mon-badge ${a.kind === "alert" ? "alerting" : "ok"}`, text: a.kind === "alert" ? "Alert" : "Recovered" }),
    el("span", { class: "mon-alert-period", text: `${a.period_start} – ${a.period_end}` }),
    a.segment ? el("span", { class: "muted", text: a.segment }) : null,
    el("span", { class: "muted small-text", text: `kept ${when(a.at)}${a.to && a.to.length ? ` for ${a.to.join(", ")}` : ""}` }),
  ]));
  if (a.withheld) {
    li.append(el("p", { class: "mon-problem-text", text: `Figures ${a.withheld}.` }));
  } else {
    li.append(el("p", { class: "mon-alert-message", text: a.message }));
  }
  if (a.run) li.append(el("p", { class: "small-text muted" }, ["Series read by run ", runLinks(a.run)]));
  if (a.investigation) li.append(investigation(a.investigation));
  return li;
}

function showMuted(m) {
  const muted = !!(m && m.muted);
  $("#mon-unmute").hidden = !muted;
  $("#mon-mute").hidden = muted;
  $("#mon-mute-days").hidden = muted;
}

function about(m) {
  const bits = [m.watches, `${m.schedule} (${m.cron})`, `${m.detector}, ${m.sensitivity} sensitivity, threshold ${m.threshold}, ${m.direction}`];
  bits.push(m.last_run ? `last run ${when(m.last_run)}` : "never run by quarry watch run");
  if (m.muted_until) bits.push(`muted up to and including ${m.muted_until}`);
  return bits.join(" · ");
}

async function openDetail(name) {
  mon.open = name;
  const box = $("#mon-detail");
  const seq = ++mon.detailSeq;
  if (!name) { box.hidden = true; return; }
  box.hidden = false;
  box.focus();
  $("#mon-detail-title").textContent = name;
  $("#mon-detail-about").textContent = "Reading its series…";
  $("#mon-detail-problem").hidden = true;
  $("#mon-test-out").replaceChildren();
  $("#mon-charts").replaceChildren();
  $("#mon-alerts").replaceChildren();
  const listed = mon.list && mon.list.monitors.find((m) => m.name === name);
  showMuted(listed);
  const [series, alerts] = await Promise.allSettled([
    api(`/api/monitors/${encodeURIComponent(name)}/series${query()}`),
    api(`/api/monitors/${encodeURIComponent(name)}/alerts`),
  ]);
  if (seq !== mon.detailSeq) return;
  if (series.status === "fulfilled") {
    const m = series.value.monitor;
    $("#mon-detail-about").textContent = about(m);
    showMuted(m);
    const big = { ...BIG, width: Math.max(480, Math.floor($("#mon-charts").clientWidth) - 4) };
    $("#mon-charts").replaceChildren(...series.value.segments.map((seg) => el("figure", { class: "mon-figure" }, [
      chart(seg, name, big),
      el("figcaption", { class: "small-text muted", text: `${seg.segment || "all"}: ${seg.points.length} periods; shaded: the band the detector allows around the baseline (dashed); red: anomalous periods${seg.notices.length ? `; notices: ${seg.notices.map((n) => `${n.kind} ${n.period_start}`).join(", ")}` : ""}` }),
    ])));
  } else {
    $("#mon-detail-about").textContent = listed ? about(listed) : "";
    const p = $("#mon-detail-problem");
    p.textContent = `This monitor's series cannot be read: ${series.reason.message}`;
    p.hidden = false;
  }
  if (alerts.status === "fulfilled") {
    const as = alerts.value.alerts;
    if (as.length) $("#mon-alerts").replaceChildren(...as.map(alertItem));
    else $("#mon-alerts").replaceChildren(el("li", { class: "muted small-text", text: "No alert kept yet (quarry watch run keeps them in alerts.jsonl)." }));
  } else {
    $("#mon-alerts").replaceChildren(el("li", { class: "mon-problem-text", text: `Could not read the alerts: ${alerts.reason.message}` }));
  }
}

// ---------------------------------------------------------------- actions

async function mute(body, what) {
  const name = mon.open;
  if (!name) return;
  try {
    const m = await api(`/api/monitors/${encodeURIComponent(name)}/mute`, { method: "POST", body });
    showMuted(m);
    toast(m.muted ? `${name} is muted up to and including ${m.muted_until}` : `${name} is no longer muted`);
    $("#mon-detail-about").textContent = about(m);
    const tr = $(`#mon-rows tr[data-monitor="${CSS.escape(name)}"]`);
    if (tr) await load();
    (m.muted ? $("#mon-unmute") : $("#mon-mute")).focus();
  } catch (e) {
    toast(`Could not ${what}: ${e.message}`);
  }
}

async function testNow() {
  const name = mon.open;
  if (!name) return;
  const out = $("#mon-test-out");
  const btn = $("#mon-test");
  btn.disabled = true;
  out.replaceChildren(el("p", { class: "muted small-text", text: "Testing…" }));
  try {
    const t = await api(`/api/monitors/${encodeURIComponent(name)}/test`, { method: "POST", body: asOf() ? { as_of: asOf() } : {} });
    const items = t.segments.map((p) => el("li", { class: p.anomalous ? "mon-test-bad" : "" }, [
      el("strong", { text: `${p.segment || "all"}: ` }),
      `${period(p)}: ${fmt(p.value)}, ${judgement(p)}`,
      p.low != null || p.high != null ? el("span", { class: "muted", text: ` (allowed ${fmt(p.low)} to ${fmt(p.high)})` }) : null,
    ]));
    out.replaceChildren(
      el("p", { class: "small-text" }, [`Tested as of ${t.as_of}, told no one; read by run `, ...t.runs.flatMap((id) => [runLinks(id), " "])]),
      items.length ? el("ul", { class: "mon-test-list" }, items) : el("p", { class: "muted small-text", text: "No complete period yet." }),
    );
  } catch (e) {
    out.replaceChildren(el("p", { class: "mon-problem-text", attrs: { role: "alert" }, text: `Test failed: ${e.message}` }));
  } finally {
    btn.disabled = false;
  }
}

// ---------------------------------------------------------------- wiring

function init() {
  try { $("#mon-asof").value = localStorage.getItem(STORE_ASOF) || ""; } catch { /* storage unavailable */ }
  window.addEventListener("hashchange", showView);
  window.addEventListener("popstate", showView);
  const reload = () => {
    try { localStorage.setItem(STORE_ASOF, asOf()); } catch { /* storage unavailable */ }
    load();
    if (mon.open) openDetail(mon.open);
  };
  $("#mon-asof").addEventListener("change", reload);
  $("#mon-refresh").addEventListener("click", reload);
  $("#mon-test").addEventListener("click", testNow);
  $("#mon-mute").addEventListener("click", () => mute({ days: Number($("#mon-mute-days").value) }, "mute it"));
  $("#mon-unmute").addEventListener("click", () => mute({ off: true }, "unmute it"));
  showView();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
