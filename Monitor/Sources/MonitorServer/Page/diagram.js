// The transition diagram, read and drawn: the Mermaid `stateDiagram-v2`
// text an app sends with its hello (FeedbackLoopDeclarative's
// `StateDiagram.mermaid` for a flat machine, `StatechartDiagram.mermaid` for
// a statechart) drawn as SVG. Written here rather than with Mermaid.js: the
// page loads nothing from a network, and the library's diagrams use only
// this subset of Mermaid:
//
//   [*] --> a                 the initial state (of the chart, a composite or a region)
//   a                         a state
//   a --> b: label            a transition
//   a --> [*]                 a final state
//   state a { ... }           a composite state holding the states inside the braces
//   --                        inside a composite: the next parallel region
//   state "H" as a            a state with a label (the library's history states: H, H*)
//   %% text                   a comment: the diagram's checks, drawn as notes
//
// Composite states are drawn as boxes (an SVG group, `g.composite`, holding
// its children's groups), a parallel state's regions separated by dashed
// lines, each container's initial state marked with a dot and an arrow, and
// a transition from a composite state drawn from its box's border. A flat
// diagram is one container: columns by distance from the initial state.
"use strict";

const svgNS = "http://www.w3.org/2000/svg";

// The text read into a tree. Returns null when it holds no state it can
// read, or neither a transition nor an initial state.
//
// { states: [id…] in order of appearance, parent: {id: composite id or null},
//   composites: {id: { regions: [[child id…]…], initials: [id or null…] }},
//   root: { regions: [[id…]], initials: [id or null] }, labels: {id: text},
//   finals: [id…], edges: [{from, to, label}], notes: [text…] }
function parseDiagram(text) {
  const states = [], edges = [], notes = [], finals = [];
  const parent = {}, composites = {}, labels = {};
  const root = { regions: [[]], initials: [null] };
  const open = []; // the composite ids whose braces are open
  const container = () => (open.length ? composites[open[open.length - 1]] : root);
  const add = (id, within = open.length ? open[open.length - 1] : null, region = null) => {
    if (id in parent) return;
    parent[id] = within;
    states.push(id);
    const regions = (within === null ? root : composites[within]).regions;
    regions[region ?? regions.length - 1].push(id);
  };
  // A state named only by a transition belongs where that transition is
  // written, unless a declaration elsewhere (later, say) places it.
  const named = [];
  const name = (id) => {
    const within = open.length ? open[open.length - 1] : null;
    named.push([id, within, (within === null ? root : composites[within]).regions.length - 1]);
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("stateDiagram")) continue;
    if (line.startsWith("%%")) { notes.push(line.slice(2).trim()); continue; }
    if (line === "}") { open.pop(); continue; }
    if (line === "--") {
      const current = container();
      current.regions.push([]);
      current.initials.push(null);
      continue;
    }
    const declared = /^state\s+(?:"([^"]*)"\s+as\s+)?([^\s{"]+)\s*(\{)?$/.exec(line);
    if (declared) {
      const [, label, id, brace] = declared;
      add(id);
      if (label !== undefined) labels[id] = label;
      if (brace) {
        composites[id] ||= { regions: [[]], initials: [null] };
        open.push(id);
      }
      continue;
    }
    const arrow = /^(\S+)\s*-->\s*(\S+?)\s*(?::\s*(.*))?$/.exec(line);
    if (arrow) {
      const [, from, to, label] = arrow;
      if (from === "[*]") {
        add(to);
        const current = container();
        if (current.initials[current.initials.length - 1] === null) current.initials[current.initials.length - 1] = to;
      } else if (to === "[*]") {
        add(from);
        if (!finals.includes(from)) finals.push(from);
      } else {
        name(from);
        name(to);
        edges.push({ from, to, label: label || "" });
      }
      continue;
    }
    const plain = /^([A-Za-z0-9_]+)(?:\s*:.*)?$/.exec(line);
    if (plain) add(plain[1]);
  }
  for (const [id, within, region] of named) add(id, within, region);
  const hasInitial = root.initials[0] !== null;
  return states.length && (edges.length || hasInitial)
    ? { states, parent, composites, root, labels, finals, edges, notes }
    : null;
}

const metrics = {
  charWidth: 7, nodeHeight: 28, rowGap: 26, minColumnGap: 44, labelCharWidth: 6.6,
  padding: 10, header: 20, initialRoom: 26, loopRoom: 24, arcRoom: 30, margin: 16,
};

// The boxes, measured from the leaves up: an atomic state's box fits its
// name; a composite's holds its regions stacked, each region's states in
// columns by distance from the region's initial state (a transition between
// two states deeper in the region counts between the region's states that
// hold them). Coordinates are relative to the parent until `place`.
function layoutDiagram(graph) {
  const labelOf = (id) => graph.labels[id] ?? id;
  const width = (text) => Math.max(44, text.length * metrics.charWidth + 20);
  const ancestorIn = (id, members) => {
    for (let at = id; at !== null && at !== undefined; at = graph.parent[at]) if (members.has(at)) return at;
    return null;
  };

  function layoutRegion(ids, initial) {
    const members = new Set(ids);
    const lifted = [];
    for (const edge of graph.edges) {
      const from = ancestorIn(edge.from, members), to = ancestorIn(edge.to, members);
      if (from !== null && to !== null) lifted.push({ from, to, label: edge.label });
    }
    const first = initial ?? ids[0];
    const rank = new Map([[first, 0]]);
    const queue = [first];
    while (queue.length) {
      const id = queue.shift();
      for (const edge of lifted)
        if (edge.from === id && !rank.has(edge.to)) { rank.set(edge.to, rank.get(id) + 1); queue.push(edge.to); }
    }
    // What the initial state does not lead to goes in the first column.
    for (const id of ids) if (!rank.has(id)) rank.set(id, 0);
    const columns = [];
    for (const id of ids) (columns[rank.get(id)] ||= []).push(box(id));
    const crossing = lifted.filter((edge) => edge.from !== edge.to).map((edge) => edge.label.length);
    const columnGap = Math.max(metrics.minColumnGap, ...crossing.map((length) => length * metrics.labelCharWidth + 20));
    // A state's own loops are drawn above it, their labels above them: room
    // above the region, and a column as wide as the longest such label.
    const loopLabel = new Map();
    for (const edge of graph.edges)
      if (edge.from === edge.to && members.has(edge.from))
        loopLabel.set(edge.from, Math.max(loopLabel.get(edge.from) ?? 0, edge.label.length * metrics.labelCharWidth + 10));
    const top = loopLabel.size ? metrics.loopRoom + 14 : 6;
    const spread = (b) => Math.max(b.w, loopLabel.get(b.id) ?? 0);
    const backwards = lifted.some((edge) => (rank.get(edge.to) ?? 0) <= (rank.get(edge.from) ?? 0) && edge.from !== edge.to);
    const items = [];
    let x = initial ? metrics.initialRoom : 0;
    let height = 0;
    for (const column of columns) {
      if (!column) continue;
      const columnWidth = Math.max(...column.map(spread));
      let y = top;
      for (const b of column) {
        items.push({ box: b, x: x + (columnWidth - b.w) / 2, y });
        y += b.h + metrics.rowGap;
      }
      height = Math.max(height, y - metrics.rowGap);
      x += columnWidth + columnGap;
    }
    return { items, initial, w: x - columnGap, h: height + (backwards ? metrics.arcRoom : 6) };
  }

  function box(id) {
    const composite = graph.composites[id];
    if (!composite) {
      const label = labelOf(id);
      return { id, label, composite: false, w: graph.labels[id] !== undefined ? Math.max(34, width(label) - 16) : width(label), h: metrics.nodeHeight };
    }
    const regions = composite.regions.map((ids, index) => layoutRegion(ids, composite.initials[index]));
    const label = labelOf(id);
    const inner = Math.max(label.length * metrics.charWidth + 8, ...regions.map((region) => region.w));
    let y = metrics.header;
    for (const region of regions) {
      region.y = y;
      y += region.h + metrics.padding;
    }
    return {
      id, label, composite: true, parallel: regions.length > 1, regions,
      w: inner + 2 * metrics.padding, h: y,
    };
  }

  const top = layoutRegion(graph.root.regions[0], graph.root.initials[0]);
  return { id: null, composite: true, parallel: false, regions: [{ ...top, y: 0 }], w: top.w, h: top.h };
}

// Absolute coordinates, from the root down.
function place(b, x, y, into) {
  b.x = x;
  b.y = y;
  if (b.id !== null) into.set(b.id, b);
  if (!b.composite) return;
  const inset = b.id === null ? 0 : metrics.padding;
  b.regions.forEach((region) => {
    region.x = x + inset;
    region.y = y + region.y;
    region.w = b.w - 2 * inset;
    for (const item of region.items) place(item.box, region.x + item.x, region.y + item.y, into);
  });
}

function drawDiagram(text) {
  const graph = parseDiagram(text);
  if (!graph) return null;
  const tree = layoutDiagram(graph);
  const boxes = new Map();
  place(tree, metrics.margin, metrics.margin, boxes);
  const notesHeight = graph.notes.length * 14 + (graph.notes.length ? 8 : 0);
  const width = tree.w + 2 * metrics.margin, height = tree.h + 2 * metrics.margin + notesHeight;
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.style.maxWidth = width + "px";
  svg.setAttribute("role", "img");
  const element = (name, attributes, parent) => {
    const node = document.createElementNS(svgNS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    (parent || svg).appendChild(node);
    return node;
  };
  const defs = element("defs", {});
  const marker = element("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
  element("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, marker);
  const initials = new Set();

  // A region: its dashed separator (a parallel state's second region on),
  // its initial state's marker, and its states.
  const drawRegion = (region, index, owner, parent) => {
    const group = element("g", { class: "region" }, parent);
    group.dataset.region = index;
    if (index > 0) {
      const y = region.y - metrics.padding / 2;
      element("line", { x1: owner.x + 4, y1: y, x2: owner.x + owner.w - 4, y2: y, class: "region-separator" }, group);
    }
    if (region.initial) {
      const target = boxes.get(region.initial);
      initials.add(region.initial);
      group.dataset.initial = region.initial;
      const cy = target.y + metrics.nodeHeight / 2;
      element("circle", { cx: target.x - 20, cy, r: 5, class: "initial" }, group);
      element("path", { d: `M${target.x - 15},${cy} L${target.x},${cy}`, class: "edge-line", "marker-end": "url(#arrow)" }, group);
    }
    for (const item of region.items) drawBox(item.box, group);
  };
  const drawBox = (b, parent) => {
    const group = element("g", { class: b.composite ? "composite" : "node" }, parent);
    group.dataset.state = b.id;
    if (b.composite) {
      group.dataset.kind = b.parallel ? "parallel" : "compound";
      element("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 10, class: "composite-box" }, group);
      const t = element("text", { x: b.x + metrics.padding, y: b.y + 14, class: "composite-label" }, group);
      t.textContent = b.label;
      b.regions.forEach((region, index) => drawRegion(region, index, b, group));
    } else {
      element("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 8 }, group);
      if (graph.finals.includes(b.id)) {
        group.classList.add("final");
        element("rect", { x: b.x + 3, y: b.y + 3, width: b.w - 6, height: b.h - 6, rx: 6, class: "final-ring" }, group);
      }
      if (graph.labels[b.id] !== undefined) group.classList.add("pseudo");
      const t = element("text", { x: b.x + b.w / 2, y: b.y + b.h / 2 + 4, "text-anchor": "middle" }, group);
      t.textContent = b.label;
    }
  };
  const statesLayer = element("g", { class: "states" });
  drawRegion(tree.regions[0], 0, tree, statesLayer);
  for (const state of initials) statesLayer.querySelector(`[data-state="${CSS.escape(state)}"]`)?.classList.add("initial-state");

  // Labels go down last, each moved up or down by a line until it covers
  // none placed before it.
  const pending = [];
  const label = (text, lx, ly, parent) => { if (text) pending.push({ text, lx, ly, parent }); };
  const placed = [];
  const placeLabels = () => {
    for (const { text, lx, ly, parent } of pending) {
      const w = text.length * metrics.labelCharWidth + 6, h = 14;
      const free = (y) => placed.every((r) => lx - w / 2 >= r.x + r.w || r.x >= lx + w / 2 || y - 9 >= r.y + r.h || r.y >= y - 9 + h);
      const y = [0, 14, -14, 28, -28, 42, -42].map((shift) => ly + shift).find(free) ?? ly;
      placed.push({ x: lx - w / 2, y: y - 9, w, h });
      const group = element("g", { class: "label" }, parent);
      element("rect", { x: lx - w / 2, y: y - 9, width: w, height: h, rx: 3 }, group);
      const t = element("text", { x: lx, y: y + 2, "text-anchor": "middle" }, group);
      t.textContent = text;
    }
  };
  // Transitions, over the boxes, from border to border; those between the
  // same two states are fanned out.
  const edgesLayer = element("g", { class: "edges" });
  const seen = new Map();
  for (const edge of graph.edges) {
    const key = [edge.from, edge.to].sort().join("\u0000");
    const index = seen.get(key) || 0;
    seen.set(key, index + 1);
    const a = boxes.get(edge.from), b = boxes.get(edge.to);
    const group = element("g", { class: "edge" + (a.composite ? " from-composite" : "") }, edgesLayer);
    group.dataset.from = edge.from;
    group.dataset.to = edge.to;
    const midA = a.y + a.h / 2, midB = b.y + b.h / 2;
    let d, lx, ly;
    if (a === b) {
      const cx = a.x + a.w / 2, top = a.y, lift = 22 + index * 14;
      d = `M${cx - 10},${top} C${cx - 30},${top - lift} ${cx + 30},${top - lift} ${cx + 10},${top}`;
      lx = cx; ly = top - lift * 0.75 - 4;
    } else if (b.x >= a.x + a.w - 1) {
      // Forwards: right border to left border.
      const x1 = a.x + a.w, x2 = b.x, bend = index * 20;
      d = `M${x1},${midA} C${x1 + 36},${midA - bend} ${x2 - 36},${midB - bend} ${x2},${midB}`;
      lx = (x1 + x2) / 2; ly = (midA + midB) / 2 - bend * 0.75 - 4;
    } else if (a.x >= b.x + b.w - 1) {
      // Backwards: an arc below the two states, bottom to bottom.
      const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y + b.h;
      const drop = 24 + index * 14;
      const low = Math.max(y1, y2) + drop;
      d = `M${x1},${y1} C${x1},${low} ${x2},${low} ${x2},${y2}`;
      lx = (x1 + x2) / 2; ly = low - drop * 0.25 + 4;
    } else if (b.y >= a.y + a.h - 1 || a.y >= b.y + b.h - 1) {
      // In one column: bottom to top (or top to bottom), bowed to the right.
      const down = b.y >= a.y + a.h - 1;
      const x1 = a.x + a.w / 2, y1 = down ? a.y + a.h : a.y, x2 = b.x + b.w / 2, y2 = down ? b.y : b.y + b.h;
      const bow = 26 + index * 14;
      d = `M${x1},${y1} C${x1 + bow},${(y1 + y2) / 2} ${x2 + bow},${(y1 + y2) / 2} ${x2},${y2}`;
      lx = (x1 + x2) / 2 + bow * 0.75; ly = (y1 + y2) / 2 + 4;
    } else {
      // One holds the other: right border to right border, bowed out.
      const x1 = a.x + a.w, x2 = b.x + b.w, bow = 30 + index * 14;
      const out = Math.max(x1, x2) + bow;
      d = `M${x1},${midA} C${out},${midA} ${out},${midB} ${x2},${midB}`;
      lx = out - bow * 0.25; ly = (midA + midB) / 2 + 4;
    }
    element("path", { d, class: "edge-line", "marker-end": "url(#arrow)" }, group);
    label(edge.label, lx, ly, group);
  }
  placeLabels();
  graph.notes.forEach((note, index) => {
    const t = element("text", { x: metrics.margin, y: height - metrics.margin + 4 - (graph.notes.length - 1 - index) * 14, class: "note" });
    t.textContent = note;
  });
  return svg;
}

// What the drawn diagram shows, read back from the SVG (the self-test's
// report): every state box, every composite with the states drawn inside
// each of its regions, and every transition with where it starts.
function diagramReport(svg) {
  const text = (node) => (node ? node.textContent : null);
  const rect = (node) => ["x", "y", "width", "height"].map((name) => Number(node.getAttribute(name)));
  const ownStates = (region) =>
    [...region.querySelectorAll(":scope > g.node, :scope > g.composite")].map((node) => node.dataset.state);
  return {
    nodes: [...svg.querySelectorAll("g.node text")].map(text),
    edges: svg.querySelectorAll("g.edge").length,
    labels: [...svg.querySelectorAll("g.edge text")].map(text),
    initialStates: [...svg.querySelectorAll(".initial-state")].map((node) => node.dataset.state),
    finals: [...svg.querySelectorAll("g.node.final")].map((node) => node.dataset.state),
    boxes: Object.fromEntries(
      [...svg.querySelectorAll("g.node, g.composite")].map((node) => [node.dataset.state, rect(node.querySelector(":scope > rect"))])),
    composites: [...svg.querySelectorAll("g.composite")].map((node) => ({
      state: node.dataset.state, kind: node.dataset.kind, label: text(node.querySelector(":scope > text")),
      regions: [...node.querySelectorAll(":scope > g.region")].map(ownStates),
      initials: [...node.querySelectorAll(":scope > g.region")].map((region) => region.dataset.initial ?? null),
      separators: node.querySelectorAll(":scope > g.region > line.region-separator").length,
      descendants: [...node.querySelectorAll("g.node, g.composite")].map((inner) => inner.dataset.state),
    })),
    transitions: [...svg.querySelectorAll("g.edge")].map((node) => {
      const d = node.querySelector("path").getAttribute("d");
      const start = /^M([-\d.]+),([-\d.]+)/.exec(d), end = /([-\d.]+),([-\d.]+)$/.exec(d);
      return {
        from: node.dataset.from, to: node.dataset.to, label: text(node.querySelector("text")) ?? "",
        start: [Number(start[1]), Number(start[2])], end: [Number(end[1]), Number(end[2])],
      };
    }),
  };
}
