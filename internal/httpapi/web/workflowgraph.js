// The workflow editor's drawing: where each node goes (layout, by its
// depth from the first node) and the SVG helpers. It knows nothing of the
// rules; the server checks every graph.

const SVG = "http://www.w3.org/2000/svg";

// LINKS are the fields that lead from a node to the next.
export const LINKS = ["next", "then", "else"];

export const BOX_W = 184;
export const BOX_H = 58;
export const GAP_X = 40;
export const GAP_Y = 58;
export const PAD = 44;

export function svgEl(tag, attrs = {}, children = []) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) n.setAttribute(k, String(v));
  for (const c of [].concat(children)) if (c != null) n.append(c);
  return n;
}

export function clip(s, n) {
  s = String(s || "");
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

// layout places each node by its depth from the first node (the longest
// way there), one row per depth; nodes no way reaches go in a last row.
export function layout(nodes) {
  const index = new Map();
  nodes.forEach((n, i) => { if (n.id && !index.has(n.id)) index.set(n.id, i); });
  const succ = nodes.map((n) => LINKS.map((f) => index.get(n[f])).filter((j) => j !== undefined));
  const depth = nodes.map(() => -1);
  if (nodes.length) depth[0] = 0;
  for (let round = 0; round < nodes.length; round++) {
    let changed = false;
    nodes.forEach((_, i) => {
      if (depth[i] < 0) return;
      for (const j of succ[i]) {
        if (j !== 0 && depth[j] < depth[i] + 1 && depth[i] + 1 < nodes.length) { depth[j] = depth[i] + 1; changed = true; }
      }
    });
    if (!changed) break;
  }
  const reached = Math.max(-1, ...depth) + 1;
  const rows = [];
  nodes.forEach((_, i) => {
    const d = depth[i] >= 0 ? depth[i] : reached;
    (rows[d] = rows[d] || []).push(i);
  });
  const dense = rows.filter(Boolean);
  // Each row in the order of the nodes before it, then on the left of else,
  // so that few arrows cross.
  const slot = [];
  dense.forEach((r, d) => {
    if (d > 0) {
      const key = new Map(r.map((i) => [i, []]));
      nodes.forEach((n, p) => LINKS.forEach((f) => {
        const j = index.get(n[f]);
        if (key.has(j) && slot[p] !== undefined) key.get(j).push(slot[p] + (f === "then" ? -0.3 : f === "else" ? 0.3 : 0));
      }));
      const mean = (i) => { const k = key.get(i); return k.length ? k.reduce((x, y) => x + y, 0) / k.length : Infinity; };
      r.sort((x, y) => mean(x) - mean(y) || x - y);
    }
    const w = r.length;
    r.forEach((i, k) => { slot[i] = k - (w - 1) / 2; });
  });
  const widest = Math.max(1, ...dense.map((r) => r.length));
  const inner = widest * BOX_W + (widest - 1) * GAP_X;
  const pos = [];
  const row = [];
  dense.forEach((r, d) => {
    const w = r.length * BOX_W + (r.length - 1) * GAP_X;
    r.forEach((i, k) => {
      pos[i] = { x: PAD + (inner - w) / 2 + k * (BOX_W + GAP_X), y: PAD + d * (BOX_H + GAP_Y) };
      row[i] = d;
    });
  });
  return { index, pos, row, width: inner + 2 * PAD + 80, height: dense.length * (BOX_H + GAP_Y) - GAP_Y + 2 * PAD };
}
