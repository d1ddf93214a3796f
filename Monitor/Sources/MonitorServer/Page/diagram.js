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
  padding: 10, header: 20, initialRoom: 26, loopRoom: 24, arcRoom: 30, margin: 16, notesWidth: 420,
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
    // Parallel: several regions, or one region and no initial state (the
    // library's Mermaid marks every compound state's initial child, a
    // parallel state has none), drawn with a dashed border round its region.
    const parallel = regions.length > 1 || composite.initials.every((initial) => initial === null);
    return {
      id, label, composite: true, parallel, regions,
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

// The states an edge may pass over: its two ends and the boxes holding
// either; of those, the boxes holding just one end (the edge goes into
// them, or out of them), each with how deep it is (1: the outermost).
function edgeScope(edge, graph) {
  const chain = (id) => { const ids = []; for (let at = id; at !== null && at !== undefined; at = graph.parent[at]) ids.push(at); return ids; };
  const fromChain = chain(edge.from), toChain = chain(edge.to);
  const allowed = new Set([...fromChain, ...toChain]);
  const holdingOne = new Set([...fromChain.slice(1), ...toChain.slice(1)].filter((id) => !(fromChain.includes(id) && toChain.includes(id))));
  // The innermost box holding both ends (or an end holding the other): the
  // edge stays inside it.
  const within = fromChain.find((id) => toChain.includes(id)) ?? null;
  return { allowed, holdingOne, fromChain, toChain, within };
}

const inside = (p, r, inset = 0) => p[0] > r.x + inset && p[0] < r.x + r.w - inset && p[1] > r.y + inset && p[1] < r.y + r.h - inset;

// Whether a straight segment passes through a rectangle's interior.
function segmentHitsRect(p, q, r) {
  let t0 = 0, t1 = 1;
  const dx = q[0] - p[0], dy = q[1] - p[1];
  for (const [pk, qk] of [[-dx, p[0] - r.x], [dx, r.x + r.w - p[0]], [-dy, p[1] - r.y], [dy, r.y + r.h - p[1]]]) {
    if (pk === 0) { if (qk <= 0) return false; continue; }
    const t = qk / pk;
    if (pk < 0) { if (t > t0) t0 = t; } else if (t < t1) t1 = t;
    if (t0 >= t1) return false;
  }
  return true;
}

// Whether a transition's curve keeps off every box but its ends and the
// boxes holding them, and inside the box holding both.
function curveIsClear(curve, edge, boxes, graph) {
  const { allowed, within } = edgeScope(edge, graph);
  const point = (t) => [0, 1].map((k) =>
    (1 - t) ** 3 * curve[0][k] + 3 * (1 - t) ** 2 * t * curve[1][k] + 3 * (1 - t) * t * t * curve[2][k] + t ** 3 * curve[3][k]);
  const steps = 96;
  const points = Array.from({ length: steps + 1 }, (_, i) => point(i / steps));
  if (within !== null && within !== edge.from && within !== edge.to && !points.every((p) => inside(p, boxes.get(within), 2)))
    return false;
  for (const [id, box] of boxes) {
    if (allowed.has(id)) continue;
    const shrunk = { x: box.x + 1, y: box.y + 1, w: box.w - 2, h: box.h - 2 };
    for (let i = 0; i < steps; i++) if (segmentHitsRect(points[i], points[i + 1], shrunk)) return false;
  }
  return true;
}

// A transition routed round the boxes, as a line of straight runs with
// rounded corners: a shortest path on a grid through the gaps between the
// boxes (lines just outside each box's sides, and halfway between), from a
// side of one end to a side of the other, inside the box holding both if
// one does. Boxes that are neither an end nor
// hold one are walls; an end is a wall too unless it holds the other. Inside
// a box holding one end, each step costs more the deeper it is, so that the
// route goes round such a box and enters it close to the end (not across it);
// each bend costs a little, so that the route is plain. Null if no way is found.
function routeEdge(edge, boxes, graph, diagramBounds, index) {
  const { allowed, holdingOne, fromChain, toChain, within } = edgeScope(edge, graph);
  const holder = within === null ? null : boxes.get(within);
  const bounds = holder ? { x1: holder.x + 3, y1: holder.y + 3, x2: holder.x + holder.w - 3, y2: holder.y + holder.h - 3 } : diagramBounds;
  const gap = 5, wallInflation = 3, stub = 8, bendCost = 24, depthCost = 3;
  const walls = []; // [id, rectangle]
  for (const [id, box] of boxes) {
    const isEnd = id === edge.from || id === edge.to;
    const holdsOther = (id === edge.from && toChain.includes(id)) || (id === edge.to && fromChain.includes(id));
    if (allowed.has(id) && (!isEnd || holdsOther)) continue;
    walls.push([id, { x: box.x - wallInflation, y: box.y - wallInflation, w: box.w + 2 * wallInflation, h: box.h + 2 * wallInflation }]);
  }
  const holders = [...holdingOne].map((id) => boxes.get(id));
  const ports = (id) => {
    const b = boxes.get(id);
    const inward = (id === edge.from ? toChain : fromChain).includes(id) ? -1 : 1;
    const shift = index * 6;
    return [
      [[b.x + b.w / 2 + shift, b.y], [0, -1]], [[b.x + b.w / 2 + shift, b.y + b.h], [0, 1]],
      [[b.x, b.y + b.h / 2 + shift], [-1, 0]], [[b.x + b.w, b.y + b.h / 2 + shift], [1, 0]],
    ].map(([p, n]) => ({ border: p, out: [p[0] + n[0] * stub * inward, p[1] + n[1] * stub * inward] }))
      .filter((port) => !walls.some(([owner, wall]) => owner !== id && (segmentHitsRect(port.border, port.out, wall) || inside(port.out, wall))));
  };
  const starts = ports(edge.from), ends = ports(edge.to);
  if (!starts.length || !ends.length) return null;

  // The grid's lines: just outside each box's sides, through each port,
  // and halfway between two neighbours.
  const lines = (sides, low, high, portAxis) => {
    const values = new Set([low, high, ...[...starts, ...ends].map((port) => port.out[portAxis])]);
    for (const box of boxes.values()) for (const [side, outward] of sides(box)) values.add(side + outward * gap);
    const sorted = [...values].filter((v) => v >= low && v <= high).sort((p, q) => p - q);
    const all = [];
    sorted.forEach((v, i) => { all.push(v); if (i + 1 < sorted.length) all.push((v + sorted[i + 1]) / 2); });
    return all;
  };
  const X = lines((b) => [[b.x, -1], [b.x + b.w, 1]], bounds.x1, bounds.x2, 0);
  const Y = lines((b) => [[b.y, -1], [b.y + b.h, 1]], bounds.y1, bounds.y2, 1);
  // Which moves between neighbouring grid points are open, and what a step
  // costs there: marked wall by wall and holder by holder, once.
  const width = X.length, height = Y.length, count = width * height;
  const openRight = new Uint8Array(count).fill(1), openDown = new Uint8Array(count).fill(1);
  const weightRight = new Float64Array(count).fill(1), weightDown = new Float64Array(count).fill(1);
  const at = (i, j) => j * width + i;
  const strictlyIn = (values, low, high) => values.flatMap((v, k) => (v > low && v < high ? [k] : []));
  const mark = (rect, right, down, apply) => {
    // A run along a row inside the rectangle's height, overlapping its width; a run down a column alike.
    for (const j of strictlyIn(Y, rect.y, rect.y + rect.h))
      for (let i = 0; i + 1 < width; i++) if (X[i + 1] > rect.x && X[i] < rect.x + rect.w) apply(right, at(i, j));
    for (const i of strictlyIn(X, rect.x, rect.x + rect.w))
      for (let j = 0; j + 1 < height; j++) if (Y[j + 1] > rect.y && Y[j] < rect.y + rect.h) apply(down, at(i, j));
  };
  for (const [, wall] of walls) mark(wall, openRight, openDown, (array, k) => { array[k] = 0; });
  // A holder counts from just outside its border, so that a route runs
  // beside a box it will enter rather than on its border line.
  for (const box of holders)
    mark({ x: box.x - 2, y: box.y - 2, w: box.w + 4, h: box.h + 4 }, weightRight, weightDown, (array, k) => { array[k] += depthCost; });
  const best = new Float64Array(count * 4).fill(Infinity);
  const from = new Int32Array(count * 4).fill(-1);
  const heap = []; // [cost, state], state = point * 4 + direction
  const push = (cost, state) => {
    heap.push([cost, state]);
    for (let k = heap.length - 1; k > 0;) {
      const up = (k - 1) >> 1;
      if (heap[up][0] <= heap[k][0]) break;
      [heap[up], heap[k]] = [heap[k], heap[up]];
      k = up;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let k = 0; ;) {
        const l = 2 * k + 1, r = l + 1;
        let least = k;
        if (l < heap.length && heap[l][0] < heap[least][0]) least = l;
        if (r < heap.length && heap[r][0] < heap[least][0]) least = r;
        if (least === k) break;
        [heap[least], heap[k]] = [heap[k], heap[least]];
        k = least;
      }
    }
    return top;
  };
  const pointOf = (p) => at(X.indexOf(p[0]), Y.indexOf(p[1]));
  const goals = new Map(ends.map((port) => [pointOf(port.out), port]));
  const origins = new Map(starts.map((port) => [pointOf(port.out), port]));
  // A start has no direction yet: each of the four, at no cost.
  for (const point of origins.keys())
    for (let direction = 0; direction < 4; direction++) {
      best[point * 4 + direction] = 0;
      push(0, point * 4 + direction);
    }
  let found = -1;
  while (heap.length) {
    const [cost, state] = pop();
    if (cost > best[state]) continue;
    const point = state >> 2, direction = state & 3;
    if (goals.has(point)) { found = state; break; }
    const i = point % width, j = (point - i) / width;
    // 0: right, 1: left, 2: down, 3: up.
    const moves = [
      [i + 1 < width && openRight[point], at(i + 1, j), (X[i + 1] - X[i]) * weightRight[point]],
      [i > 0 && openRight[at(i - 1, j)], at(i - 1, j), (X[i] - X[i - 1]) * weightRight[at(i - 1, j)]],
      [j + 1 < height && openDown[point], at(i, j + 1), (Y[j + 1] - Y[j]) * weightDown[point]],
      [j > 0 && openDown[at(i, j - 1)], at(i, j - 1), (Y[j] - Y[j - 1]) * weightDown[at(i, j - 1)]],
    ];
    moves.forEach(([open, next, length], turn) => {
      if (!open) return;
      const nextCost = cost + length + (turn === direction ? 0 : bendCost);
      const nextState = next * 4 + turn;
      if (nextCost < best[nextState]) {
        best[nextState] = nextCost;
        from[nextState] = state;
        push(nextCost, nextState);
      }
    });
  }
  if (found < 0) return null;
  const grid = [];
  let state = found;
  for (; from[state] >= 0; state = from[state]) grid.push(state >> 2);
  grid.push(state >> 2);
  const points = [goals.get(found >> 2).border, ...grid.map((point) => [X[point % width], Y[Math.floor(point / width)]]),
    origins.get(state >> 2).border].reverse();
  // Straight runs only: drop the points in the middle of one.
  const runs = points.filter((p, i) => {
    if (i === 0 || i === points.length - 1) return true;
    const before = points[i - 1], after = points[i + 1];
    const same = (p[0] === before[0] && p[0] === after[0]) || (p[1] === before[1] && p[1] === after[1]);
    return !same && !(p[0] === before[0] && p[1] === before[1]);
  });
  let d = `M${runs[0]}`;
  for (let i = 1; i < runs.length - 1; i++) {
    const [p, c, n] = [runs[i - 1], runs[i], runs[i + 1]];
    const toward = (from, to, r) => {
      const length = Math.abs(to[0] - from[0]) + Math.abs(to[1] - from[1]) || 1;
      return [from[0] + ((to[0] - from[0]) / length) * r, from[1] + ((to[1] - from[1]) / length) * r];
    };
    const r = Math.min(6, (Math.abs(c[0] - p[0]) + Math.abs(c[1] - p[1])) / 2, (Math.abs(n[0] - c[0]) + Math.abs(n[1] - c[1])) / 2);
    d += ` L${toward(c, p, r)} Q${c} ${toward(c, n, r)}`;
  }
  d += ` L${runs[runs.length - 1]}`;
  // The label on the longest run.
  let longest = 0, lx = runs[0][0], ly = runs[0][1];
  for (let i = 1; i < runs.length; i++) {
    const length = Math.abs(runs[i][0] - runs[i - 1][0]) + Math.abs(runs[i][1] - runs[i - 1][1]);
    if (length > longest) { longest = length; lx = (runs[i][0] + runs[i - 1][0]) / 2; ly = (runs[i][1] + runs[i - 1][1]) / 2 - 4; }
  }
  return { d, lx, ly };
}

// The width a note takes on one line, estimated as the layout estimates
// labels (the page has no font metrics before it draws).
function longestNote(notes) {
  return Math.max(0, ...notes.map((note) => note.length * metrics.labelCharWidth));
}

// The width of the longest word of the notes: no line can be narrower,
// since a note is cut between words only (a type's full name is one word).
function longestNoteWord(notes) {
  return longestNote(notes.flatMap((note) => note.split(/\s+/)));
}

// A note cut into lines of at most `width`, between words (a word longer
// than a line stands on a line of its own).
function wrapNote(note, width) {
  const perLine = Math.max(12, Math.floor(width / metrics.labelCharWidth));
  const lines = [];
  let line = "";
  for (const word of note.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > perLine) { lines.push(line); line = word; }
    else line = line ? line + " " + word : word;
  }
  if (line) lines.push(line);
  return lines;
}

function drawDiagram(text) {
  const graph = parseDiagram(text);
  if (!graph) return null;
  const tree = layoutDiagram(graph);
  const boxes = new Map();
  place(tree, metrics.margin, metrics.margin, boxes);
  // The notes go under the drawing, wrapped to its width (widened up to
  // notesWidth for a narrow drawing, such as a Cycle application's few
  // drivers, and to its notes' longest word), so that no note runs past the
  // SVG's edge.
  const notesWidth = Math.max(
    tree.w, Math.min(metrics.notesWidth, longestNote(graph.notes)), longestNoteWord(graph.notes));
  const noteLines = graph.notes.flatMap((note) => wrapNote(note, notesWidth));
  const notesHeight = noteLines.length * 14 + (noteLines.length ? 8 : 0);
  const width = notesWidth + 2 * metrics.margin, height = tree.h + 2 * metrics.margin + notesHeight;
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
    } else if (owner.parallel && owner.regions.length === 1) {
      const inset = metrics.padding / 2;
      element("rect", {
        x: owner.x + inset, y: region.y - inset, width: owner.w - 2 * inset, height: region.h + 2 * inset, rx: 6,
        class: "region-border",
      }, group);
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
  // same two states are fanned out. One between states of different
  // containers, or whose curve would pass over a box it has no business in,
  // is routed round the boxes instead (`routeEdge`).
  const edgesLayer = element("g", { class: "edges" });
  const seen = new Map();
  const bounds = { x1: metrics.margin / 2, y1: metrics.margin / 2, x2: width - metrics.margin / 2, y2: tree.h + metrics.margin * 1.5 };
  for (const edge of graph.edges) {
    const key = [edge.from, edge.to].sort().join("\u0000");
    const index = seen.get(key) || 0;
    seen.set(key, index + 1);
    const a = boxes.get(edge.from), b = boxes.get(edge.to);
    const group = element("g", { class: "edge" + (a.composite ? " from-composite" : "") }, edgesLayer);
    group.dataset.from = edge.from;
    group.dataset.to = edge.to;
    const midA = a.y + a.h / 2, midB = b.y + b.h / 2;
    let d, lx, ly, curve;
    if (a === b) {
      const cx = a.x + a.w / 2, top = a.y, lift = 22 + index * 14;
      d = `M${cx - 10},${top} C${cx - 30},${top - lift} ${cx + 30},${top - lift} ${cx + 10},${top}`;
      lx = cx; ly = top - lift * 0.75 - 4;
    } else if (b.x >= a.x + a.w - 1) {
      // Forwards: right border to left border.
      const x1 = a.x + a.w, x2 = b.x, bend = index * 20;
      curve = [[x1, midA], [x1 + 36, midA - bend], [x2 - 36, midB - bend], [x2, midB]];
      lx = (x1 + x2) / 2; ly = (midA + midB) / 2 - bend * 0.75 - 4;
    } else if (a.x >= b.x + b.w - 1) {
      // Backwards: an arc below the two states, bottom to bottom.
      const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y + b.h;
      const drop = 24 + index * 14;
      const low = Math.max(y1, y2) + drop;
      curve = [[x1, y1], [x1, low], [x2, low], [x2, y2]];
      lx = (x1 + x2) / 2; ly = low - drop * 0.25 + 4;
    } else if (b.y >= a.y + a.h - 1 || a.y >= b.y + b.h - 1) {
      // In one column: bottom to top (or top to bottom), bowed to the right.
      const down = b.y >= a.y + a.h - 1;
      const x1 = a.x + a.w / 2, y1 = down ? a.y + a.h : a.y, x2 = b.x + b.w / 2, y2 = down ? b.y : b.y + b.h;
      const bow = 26 + index * 14;
      curve = [[x1, y1], [x1 + bow, (y1 + y2) / 2], [x2 + bow, (y1 + y2) / 2], [x2, y2]];
      lx = (x1 + x2) / 2 + bow * 0.75; ly = (y1 + y2) / 2 + 4;
    } else {
      // One holds the other: right border to right border, bowed out.
      const x1 = a.x + a.w, x2 = b.x + b.w, bow = 30 + index * 14;
      const out = Math.max(x1, x2) + bow;
      curve = [[x1, midA], [out, midA], [out, midB], [x2, midB]];
      lx = out - bow * 0.25; ly = (midA + midB) / 2 + 4;
    }
    if (curve) d = `M${curve[0]} C${curve[1]} ${curve[2]} ${curve[3]}`;
    if (a !== b && (graph.parent[edge.from] !== graph.parent[edge.to] || !curveIsClear(curve, edge, boxes, graph))) {
      const routed = routeEdge(edge, boxes, graph, bounds, index);
      if (routed) ({ d, lx, ly } = routed);
    }
    element("path", { d, class: "edge-line", "marker-end": "url(#arrow)" }, group);
    label(edge.label, lx, ly, group);
  }
  placeLabels();
  noteLines.forEach((line, index) => {
    const t = element("text", { x: metrics.margin, y: height - metrics.margin + 4 - (noteLines.length - 1 - index) * 14, class: "note" });
    t.textContent = line;
  });
  return svg;
}

// What the drawn diagram shows, read back from the SVG (the self-test's
// report): every state box, every composite with the states drawn inside
// each of its regions, and every transition with where it starts and ends,
// and the boxes its drawn line passes over: read point by point along the
// path as the browser draws it, how long it runs inside each box (more than
// a pixel from its border) and how often it crosses into or out of it.
function diagramReport(svg) {
  const text = (node) => (node ? node.textContent : null);
  const rect = (node) => ["x", "y", "width", "height"].map((name) => Number(node.getAttribute(name)));
  const stateBoxes = [...svg.querySelectorAll("g.node, g.composite")].map((node) => {
    const [x, y, w, h] = rect(node.querySelector(":scope > rect"));
    return { id: node.dataset.state, x, y, w, h };
  });
  const passes = (path) => {
    const length = path.getTotalLength();
    const over = {}, crossings = {};
    let previous = null;
    for (let at = 0; at <= length; at += 1) {
      const point = path.getPointAtLength(Math.min(at, length));
      const now = new Set(stateBoxes.filter((box) => inside([point.x, point.y], box, 1.5)).map((box) => box.id));
      for (const id of now) over[id] = (over[id] ?? 0) + 1;
      if (previous)
        for (const box of stateBoxes)
          if (previous.has(box.id) !== now.has(box.id)) crossings[box.id] = (crossings[box.id] ?? 0) + 1;
      previous = now;
    }
    return { over, crossings };
  };
  const ownStates = (region) =>
    [...region.querySelectorAll(":scope > g.node, :scope > g.composite")].map((node) => node.dataset.state);
  return {
    width: Number(svg.getAttribute("viewBox").split(" ")[2]),
    notes: [...svg.querySelectorAll("text.note")].map((node) => {
      const box = node.getBBox();
      return { text: node.textContent, left: box.x, right: box.x + box.width };
    }),
    nodes: [...svg.querySelectorAll("g.node text")].map(text),
    edges: svg.querySelectorAll("g.edge").length,
    labels: [...svg.querySelectorAll("g.edge text")].map(text),
    initialStates: [...svg.querySelectorAll(".initial-state")].map((node) => node.dataset.state),
    finals: [...svg.querySelectorAll("g.node.final")].map((node) => node.dataset.state),
    boxes: Object.fromEntries(
      [...svg.querySelectorAll("g.node, g.composite")].map((node) => [node.dataset.state, rect(node.querySelector(":scope > rect"))])),
    composites: [...svg.querySelectorAll("g.composite")].map((node) => ({
      state: node.dataset.state, kind: node.dataset.kind, label: text(node.querySelector(":scope > text")),
      regionBorders: node.querySelectorAll(":scope > g.region > rect.region-border").length,
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
        ...passes(node.querySelector("path")),
      };
    }),
  };
}
