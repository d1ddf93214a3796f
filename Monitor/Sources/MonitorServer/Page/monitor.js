// The monitor's page: no framework, no network but the monitor itself.
// Messages from the monitor are documented in MonitorHub.swift; each
// `activity` carries an InspectionMessage (FeedbackLoopDebugging).
"use strict";

const secret = new URLSearchParams(location.search).get("secret") || "";
const systems = new Map(); // name -> { live, diagram, moments: [], raw: [] }
let current = null;        // selected system's name
let selected = 0;          // selected moment's index
let following = true;      // whether the selection follows the newest moment
const $ = (id) => document.getElementById(id);

function system(name) {
  if (!systems.has(name)) {
    systems.set(name, { live: false, diagram: null, moments: [], raw: [] });
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    $("system").appendChild(option);
    if (current === null) current = name;
  }
  return systems.get(name);
}

function describe(value) {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    // A Cycle application's driver event names its driver and carries the
    // event's Swift type, for decoding; the row shows the driver and event.
    const driven = value.driver;
    if (keys.length === 1 && driven && typeof driven === "object" && typeof driven.driver === "string"
      && "event" in driven)
      return ".driver(" + driven.driver + ": " + describe(driven.event) + ")";
    if (keys.length === 1) {
      const inner = value[keys[0]];
      if (inner && typeof inner === "object" && Object.keys(inner).length === 0) return "." + keys[0];
      if (inner && typeof inner === "object" && "_0" in inner && Object.keys(inner).length === 1)
        return "." + keys[0] + "(" + JSON.stringify(inner._0) + ")";
      return "." + keys[0] + JSON.stringify(inner);
    }
  }
  return JSON.stringify(value);
}

// A moment's event came from outside the system's feedbacks (no source
// recorded counts as outside, as the app's playback counts it).
function isExternal(source) { return !source || !!source.external; }

function describeSource(source) {
  if (isExternal(source)) return "external";
  if (source.feedback) return "feedback " + source.feedback._0.name;
  if (source.effect) return "effect " + source.effect._0.number + " of " + source.effect._0.feedback.name;
  return JSON.stringify(source);
}

function describeEffect(effect) {
  return effect.feedback.name + " #" + effect.number + (effect.trigger ? " for " + effect.trigger : "");
}

// One page message (or, from an opened file, a moment line) into the model.
function receive(pageMessage) {
  if (pageMessage.type === "system") {
    const entry = system(pageMessage.system);
    entry.live = !!pageMessage.live;
    if (pageMessage.diagram) entry.diagram = pageMessage.diagram;
    entry.raw.push(pageMessage);
  } else if (pageMessage.type === "rejected") {
    const item = document.createElement("li");
    item.textContent = (pageMessage.system ? pageMessage.system + ": " : "") + pageMessage.reason;
    $("rejections").appendChild(item);
  } else if (pageMessage.type === "activity") {
    const entry = system(pageMessage.system);
    entry.raw.push(pageMessage);
    const message = pageMessage.message;
    const last = entry.moments[entry.moments.length - 1];
    switch (message.kind) {
      case "started":
      case "reduced":
        entry.moments.push({
          number: pageMessage.moment ?? entry.moments.length, time: message.time, event: message.event,
          source: message.source, state: message.state, effects: [], discarded: [], stopped: false,
        });
        break;
      case "eventDiscarded":
        if (last) last.discarded.push(message);
        break;
      case "stopped":
        if (last) last.stopped = true;
        break;
      default:
        if (last && message.effect) last.effects.push({ kind: message.kind, effect: message.effect, error: message.error });
    }
  }
}

function send(command) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return note("not connected to the monitor");
  socket.send(JSON.stringify(Object.assign({ system: current }, command)));
}

function note(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("rejections").appendChild(item);
}

// A diff by structure: objects key by key, arrays element by element
// (matched by a longest common subsequence of their JSON, so an element
// inserted or appended shows as one added line, not as its neighbours
// rewritten), scalars by value. Each line names the path it is at.
function diff(before, after) {
  const out = [];
  const show = (value) => (value === undefined ? "(absent)" : JSON.stringify(value));
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  const walk = (path, a, b) => {
    if (a === undefined && b === undefined) return;
    if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(b)) walk(path ? path + "." + key : key, a[key], b[key]);
      for (const key of Object.keys(a)) if (!(key in b)) walk(path ? path + "." + key : key, a[key], undefined);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) return walkArray(path, a, b);
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const at = path || "(state)";
    if (a !== undefined) out.push(["removed", "− " + at + ": " + show(a)]);
    if (b !== undefined) out.push(["added", "+ " + at + ": " + show(b)]);
  };
  const walkArray = (path, a, b) => {
    const ka = a.map((v) => JSON.stringify(v)), kb = b.map((v) => JSON.stringify(v));
    const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        table[i][j] = ka[i] === kb[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    let i = 0, j = 0;
    const removed = [], added = [];
    // A run of removed and added elements between two matches: pairs of
    // containers are diffed inside (an element whose one field changed),
    // the rest are whole elements removed or added.
    const flush = () => {
      while (removed.length && added.length && typeof a[removed[0]] === "object" && a[removed[0]] !== null
        && typeof b[added[0]] === "object" && b[added[0]] !== null) {
        const x = removed.shift(), y = added.shift();
        walk(path + "[" + y + "]", a[x], b[y]);
      }
      for (const x of removed) out.push(["removed", "− " + path + "[" + x + "]: " + ka[x]]);
      for (const y of added) out.push(["added", "+ " + path + "[" + y + "]: " + kb[y]]);
      removed.length = 0;
      added.length = 0;
    };
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && ka[i] === kb[j]) { flush(); i++; j++; continue; }
      if (i < a.length && (j === b.length || table[i + 1][j] >= table[i][j + 1])) removed.push(i++);
      else added.push(j++);
    }
    flush();
  };
  // The first moment: each of its fields, added.
  walk("", before === undefined && isObject(after) ? {} : before, after);
  return out;
}

// The transition diagram: read and drawn by diagram.js.
let drawnDiagram = null;
function renderDiagram(text) {
  if (text === drawnDiagram) return;
  drawnDiagram = text;
  const box = $("diagram");
  box.textContent = "";
  const svg = text ? drawDiagram(text) : null;
  if (svg) box.appendChild(svg);
  else {
    const pre = document.createElement("pre");
    pre.textContent = text || "(none: the system is not declared with the DSL, or did not send one)";
    box.appendChild(pre);
  }
  $("diagram-text").textContent = text || "";
}

// The characters of an event a timeline row shows (about three lines).
const timelineEventLength = 120;

function render() {
  const entry = current === null ? null : systems.get(current);
  const moments = entry ? entry.moments : [];
  $("status").textContent = entry
    ? current + (entry.live ? " · live" : " · not connected") + " · " + moments.length + " moments"
    : "waiting for an application";
  // The newest moment, until the user picks an older one (picking the newest follows again).
  if (following || selected >= moments.length || selected < 0) selected = Math.max(0, moments.length - 1);
  const scrub = $("scrub");
  scrub.max = Math.max(0, moments.length - 1);
  scrub.value = selected;

  const list = $("timeline");
  list.textContent = "";
  moments.forEach((moment, index) => {
    const item = document.createElement("li");
    item.className = "moment" + (index === selected ? " selected" : "")
      + (moment.event && moment.event.travel ? " travel" : "");
    item.dataset.moment = moment.number;
    item.dataset.index = index;
    const tick = document.createElement("input");
    tick.type = "checkbox";
    tick.className = "pick";
    tick.checked = !!moment.picked;
    tick.addEventListener("click", (click) => { click.stopPropagation(); moment.picked = tick.checked; });
    const number = document.createElement("span");
    number.textContent = "#" + moment.number;
    const time = document.createElement("span");
    time.textContent = moment.time === undefined ? "" : moment.time.toFixed(2) + "s";
    const event = document.createElement("span");
    event.className = "event";
    // A long event (a travel carries a whole state) is cut to a few lines
    // in the timeline; the row's tooltip and the state panel show it whole.
    const eventText = moment.event === undefined ? "start" : describe(moment.event);
    event.textContent = eventText.length > timelineEventLength
      ? eventText.slice(0, timelineEventLength - 1) + "…" : eventText;
    if (eventText.length > timelineEventLength) event.title = eventText;
    const source = document.createElement("span");
    source.className = "source";
    source.textContent = moment.event === undefined ? "" : "from " + describeSource(moment.source)
      + (moment.stopped ? " · stopped" : "");
    item.append(tick, number, time, event, source);
    item.addEventListener("click", () => choose(index));
    list.appendChild(item);
  });

  const moment = moments[selected];
  $("moment-title").textContent = moment ? "#" + moment.number : "—";
  $("state").textContent = moment ? JSON.stringify(moment.state, null, 2) : "";
  const diffBox = $("diff");
  diffBox.textContent = "";
  if (moment) {
    const previous = moments[selected - 1];
    const lines = diff(previous ? previous.state : undefined, moment.state);
    if (lines.length === 0) diffBox.textContent = "(no change)";
    for (const [kind, text] of lines) {
      const line = document.createElement("span");
      line.className = kind;
      line.textContent = text;
      diffBox.appendChild(line);
    }
  }
  // Effects in flight after this moment: started up to here and not ended.
  const inFlight = new Map();
  moments.slice(0, selected + 1).forEach((m) => m.effects.forEach((change) => {
    const key = change.effect.feedback.index + "/" + change.effect.number;
    if (change.kind === "effectStarted" || change.kind === "effectQueued") inFlight.set(key, change);
    else inFlight.delete(key);
  }));
  fill($("effects"), [...inFlight.values()].map((c) => describeEffect(c.effect) + (c.kind === "effectQueued" ? " (queued)" : "")), "none");
  fill($("moment-effects"), moment ? moment.effects.map((c) => c.kind.replace("effect", "").toLowerCase() + " " + describeEffect(c.effect) + (c.error ? ": " + c.error : "")) : [], "none");
  // What the event box suggests: the app's own last event, or no app's in particular.
  const lastEvent = [...moments].reverse().find((m) => m.event !== undefined && !(m.event && m.event.travel));
  $("event-editor").placeholder = lastEvent
    ? "an event as JSON, like the last one: " + JSON.stringify(lastEvent.event)
    : "an event as JSON, as the app's Event type encodes it";
  if (moment && document.activeElement !== $("state-editor") && !$("state-editor").dataset.edited)
    $("state-editor").value = JSON.stringify(moment.state, null, 2);
  renderDiagram(entry && entry.diagram ? entry.diagram : null);
}

function fill(list, texts, empty) {
  list.textContent = "";
  for (const text of texts.length ? texts : [empty]) {
    const item = document.createElement("li");
    item.textContent = text;
    list.appendChild(item);
  }
}

function download(name, text, type) {
  // The self-test reads what would be saved instead of saving it.
  if (selftest) return selftest.downloaded(name, text);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
}

// Selects the moment at `index` of the current system's timeline.
function choose(index) {
  const entry = systems.get(current);
  selected = index;
  following = !entry || index >= entry.moments.length - 1;
  render();
}

$("scrub").addEventListener("input", () => choose(Number($("scrub").value)));
$("system").addEventListener("change", () => { current = $("system").value; following = true; render(); });
$("state-editor").addEventListener("input", () => { $("state-editor").dataset.edited = "yes"; });
$("jump").addEventListener("click", () => {
  const moment = systems.get(current)?.moments[selected];
  if (moment) send({ type: "jump", state: moment.state });
});
$("play-events").addEventListener("click", () => {
  const moment = systems.get(current)?.moments[selected];
  if (moment) send({ type: "playEvents", from: moment.number });
});
$("play-states").addEventListener("click", () => {
  const moment = systems.get(current)?.moments[selected];
  if (moment) send({ type: "playStates", from: moment.number });
});
$("apply-state").addEventListener("click", () => {
  try {
    send({ type: "jump", state: JSON.parse($("state-editor").value) });
    delete $("state-editor").dataset.edited;
  } catch (error) { note("the state is not JSON: " + error.message); }
});
$("send-event").addEventListener("click", () => {
  try { send({ type: "send", event: JSON.parse($("event-editor").value) }); }
  catch (error) { note("the event is not JSON: " + error.message); }
});
$("save").addEventListener("click", () => {
  const entry = systems.get(current);
  if (entry) download(current + ".session.jsonl", entry.raw.map((m) => JSON.stringify(m)).join("\n") + "\n", "application/x-ndjson");
});
$("open").addEventListener("change", () => { opening = openSession(); });
let opening = null;
async function openSession() {
  const file = $("open").files[0];
  if (!file) return;
  const name = file.name;
  let number = 0;
  (await file.text()).split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    let value;
    try { value = JSON.parse(line); } catch { return note(name + " line " + (index + 1) + ": not JSON"); }
    if (value.type) return receive(Object.assign({}, value, { system: name }));
    if ("state" in value && "sequence" in value && !("kind" in value)) {
      // A moment, as a recorder's file holds it.
      const message = { kind: value.event === undefined ? "started" : "reduced", event: value.event, source: value.source, state: value.state, time: value.time };
      receive({ type: "activity", system: name, moment: value.sequence ?? number++, message });
      for (const change of value.effects || [])
        receive({ type: "activity", system: name, message: { kind: "effect" + change.kind[0].toUpperCase() + change.kind.slice(1), effect: change.effect, error: change.error } });
      return;
    }
    note(name + " line " + (index + 1) + ": neither a message nor a moment");
  });
  // A saved session says its app was live then; opened from a file it is not.
  if (systems.has(name)) systems.get(name).live = false;
  current = name;
  $("system").value = name;
  following = true;
  render();
}
$("export-fixtures").addEventListener("click", () => { exporting = exportFixtures(); });
// A statechart's nested boxes are small in the column: the diagram can take the whole page.
// A click on the enlarged diagram puts it back.
$("enlarge-diagram").addEventListener("click", () => $("diagram").classList.add("enlarged"));
$("diagram").addEventListener("click", () => $("diagram").classList.remove("enlarged"));
let exporting = null;
async function exportFixtures() {
  const moments = systems.get(current)?.moments || [];
  const fixtures = [];
  moments.forEach((moment, index) => {
    const previous = moments[index - 1];
    if (moment.picked && previous && moment.event !== undefined)
      fixtures.push({ sequence: moment.number, given: previous.state, when: moment.event, then: moment.state });
  });
  if (fixtures.length === 0) return note("tick the moments to export first (not the start)");
  const body = {
    suite: "Recorded" + current.replace(/[^A-Za-z0-9]/g, "") + "Tests", module: $("fixture-module").value,
    stateType: $("fixture-state").value, eventType: $("fixture-event").value, reducer: $("fixture-reducer").value,
    inPlace: $("fixture-in-place").checked, fixtures,
  };
  const response = await fetch("/api/fixtures?secret=" + encodeURIComponent(secret), { method: "POST", body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) return note("fixtures: " + text);
  $("fixture-output").textContent = text;
  download(body.suite + ".swift", text, "text/x-swift");
}

let socket = null;
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/live?secret=" + encodeURIComponent(secret));
  socket.onopen = () => { if (selftest) console.log("selftest: socket open"); render(); };
  socket.onmessage = (message) => {
    try { receive(JSON.parse(message.data)); } catch (error) { note("unreadable message: " + error.message); }
    scheduleRender();
  };
  socket.onclose = () => { $("status").textContent = "disconnected from the monitor (wrong secret?)"; };
}

let pending = false;
function scheduleRender() {
  if (selftest) return selftest.step();
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    render();
  });
}

// The self-test (`?selftest=1&…`), for headless Chromium run as a plain
// subprocess (`--dump-dom`, `--screenshot`) by the
// monitor's tests. It drives every action from the page's own controls and
// waits, after each, for the application's answer to come back on the
// timeline:
//
// 0. once `moments` moments are in, it reads what the page shows before
//    anything is clicked (the moment selected, the event box's hint), and
//    stops there with `only=opening`;
// 1. it reads moment `diff`'s diff and the
//    drawn diagram (diagram.js's `diagramReport`, and the tree it read),
//    (and reads the Mermaid text `parse`, if given),
//    and stops there with `only=diagram` (enlarging the diagram first with
//    `enlarge=1`, for the screenshot); otherwise it selects moment
//    `jump`, reads its effects in flight and clicks "Jump here";
// 2. sends the event `event` (JSON) from the event editor;
// 3. edits the state in the editor (the fields of `edit` replace the shown
//    state's) and applies it;
// 4. plays the recorded events from moment `playEvents` (the app sends
//    those from outside again), then the recorded states from moment
//    `playStates`;
// 5. ticks the moments `pick` (comma-separated) and exports them as
//    fixtures, named as `names` (JSON) says;
// 6. saves the session and opens the saved file again;
// 7. selects moment `show` of the live system (for the screenshot)
//
// and writes what it saw into `#selftest` as JSON after each step.
//
// `effects=0` is for an app whose moments start no effect (a statechart
// with no delay, a Cycle application between animations): the steps then
// wait for the moment alone, not for the effects it starts.
//
// `hold` is a URL that never answers: an image loading from it holds the
// page's load event, and Chromium's `--dump-dom` and `--screenshot` wait for
// that event, so they wait for the self-test; the image is removed when the
// self-test is done, or after `limit` milliseconds (60 000) of real time,
// when the report says in which step it stopped. (Not Chromium's virtual
// time, which an earlier version paused with a pending fetch: now and then
// the renderer then stopped reading the WebSocket, and the launch hung.)
const selftest = (() => {
  const query = new URLSearchParams(location.search);
  if (!query.get("selftest")) return null;
  const number = (name, fallback) => Number(query.get(name) ?? fallback);
  const want = number("moments", 2);
  const awaitsEffects = query.get("effects") !== "0";
  console.log("selftest: the page's script runs");
  let holding = null;
  if (query.get("hold")) {
    holding = document.createElement("img");
    holding.hidden = true;
    holding.alt = "";
    holding.src = query.get("hold");
    document.body.appendChild(holding);
  }
  const release = () => {
    if (!holding) return;
    holding.remove();
    holding.removeAttribute("src");
    holding = null;
  };
  setTimeout(() => {
    if (report.phase === "done") return;
    report.stoppedIn = report.phase;
    report.phase = "timed out";
    write();
    release();
  }, number("limit", 60000));
  const texts = (selector) => [...document.querySelectorAll(selector)].map((node) => node.textContent);
  const live = () => systems.get(current).moments;
  const select = (momentNumber) => choose(live().findIndex((moment) => moment.number === momentNumber));
  const selectIndex = (index) => choose(index);
  const seen = (moment) => ({
    moment: "#" + moment.number, event: moment.event ?? null, state: moment.state,
    effects: moment.effects.map((change) => change.kind),
  });
  const report = { phase: "waiting" };
  const write = () => { $("selftest").textContent = JSON.stringify(report); };
  let liveSystem = null;
  let base = 0;      // moments before the action under way
  let expected = 0;  // moments that action adds
  let saved = null;
  const after = () => live().slice(base);
  const edited = () => $("state-editor").dataset.edited;
  const steps = {
    waiting(moments) {
      if (moments.length < want) return false;
      liveSystem = current;
      // What the page shows when it opens, before anything is clicked.
      render();
      report.atOpening = {
        moment: $("moment-title").textContent,
        selectedRows: texts("#timeline li.moment.selected span:nth-of-type(1)"),
        eventPlaceholder: $("event-editor").placeholder,
      };
      if (query.get("only") === "opening") {
        report.phase = "done";
        write();
        release();
        return "done";
      }
      select(number("diff", 1));
      report.timeline = texts("#timeline li.moment .event");
      report.sources = texts("#timeline li.moment .source");
      report.diffAt = { moment: $("moment-title").textContent, added: texts("#diff .added"), removed: texts("#diff .removed") };
      // And the diff of two values with nested elements, in this browser.
      report.diffNested = diff(
        { items: [{ id: 1, name: "x" }, { id: 2, name: "y" }], tags: ["a", "b"] },
        { items: [{ id: 1, name: "x" }, { id: 2, name: "z" }, { id: 3, name: "w" }], tags: ["a", "b", "c"], extra: true },
      ).map(([, text]) => text);
      const drawn = document.querySelector("#diagram svg");
      report.diagram = drawn ? diagramReport(drawn) : null;
      const sent = systems.get(current).diagram;
      if (sent) report.parsedDiagram = parseDiagram(sent);
      // And a text given in the URL, read in this browser (`parse=`).
      if (query.get("parse")) report.parsedGiven = parseDiagram(query.get("parse"));
      if (query.get("only") === "diagram") {
        if (query.get("enlarge")) $("enlarge-diagram").click();
        report.enlarged = $("diagram").classList.contains("enlarged");
        report.phase = "done";
        write();
        release();
        return "done";
      }
      select(number("jump", 0));
      report.effectsAtJump = texts("#effects li");
      base = moments.length;
      $("jump").click();
      return "jumped";
    },
    jumped(moments) {
      // The travel moment and the effect it started (a later message).
      const travel = after().find((moment) => moment.event && moment.event.travel && (!awaitsEffects || moment.effects.length > 0));
      if (!travel) return false;
      selectIndex(moments.indexOf(travel));
      report.travel = {
        moment: $("moment-title").textContent, rows: document.querySelectorAll("#timeline li.moment.travel").length,
        row: document.querySelector("#timeline li.moment.selected .event").textContent,
        state: travel.state, diff: texts("#diff .added, #diff .removed"), effects: texts("#effects li"),
      };
      base = moments.length;
      $("event-editor").value = query.get("event");
      $("send-event").click();
      return "sent";
    },
    sent() {
      const moment = after().find((m) => m.event && !m.event.travel && (!awaitsEffects || m.effects.some((c) => c.kind === "effectStarted")));
      if (!moment) return false;
      report.sent = seen(moment);
      selectIndex(live().indexOf(moment));
      // Edit the state the editor shows, as a user would: its text.
      const state = JSON.parse($("state-editor").value);
      const edits = JSON.parse(query.get("edit") || "{}");
      for (const [key, value] of Object.entries(edits)) {
        if (value === null) delete state[key];
        else state[key] = value;
      }
      $("state-editor").value = JSON.stringify(state, null, 2);
      $("state-editor").dispatchEvent(new Event("input"));
      report.editedFrom = { edited: !!edited() };
      base = live().length;
      $("apply-state").click();
      return "applied";
    },
    applied() {
      const moment = after().find((m) => m.event && m.event.travel && (!awaitsEffects || m.effects.length > 0));
      if (!moment) return false;
      report.applied = seen(moment);
      report.applied.editorStillEdited = !!edited();
      const from = number("playEvents", 1);
      select(from);
      base = live().length;
      // The app sends again only the events from outside (effects derived
      // again answer themselves, on the app's clock): a jump, then those.
      expected = 1 + live().filter((m) => m.number > from && m.event && !m.event.travel && isExternal(m.source)).length;
      $("play-events").click();
      return "playingEvents";
    },
    playingEvents() {
      if (after().length < expected) return false;
      report.playedEvents = after().map(seen);
      const from = number("playStates", 0);
      select(from);
      base = live().length;
      expected = live().filter((m) => m.number >= from).length;
      $("play-states").click();
      return "playingStates";
    },
    playingStates() {
      if (after().length < expected) return false;
      report.playedStates = after().map(seen);
      // Bad input typed into the page: text that is not JSON stays in the
      // page; an event and a state the app cannot decode come back rejected.
      base = live().length;
      $("event-editor").value = "not json";
      $("send-event").click();
      $("event-editor").value = '{"noSuchEvent":{}}';
      $("send-event").click();
      $("state-editor").value = '{"query":3}';
      $("state-editor").dispatchEvent(new Event("input"));
      $("apply-state").click();
      return "rejecting";
    },
    rejecting() {
      const messages = texts("#rejections li");
      if (!messages.some((m) => m.includes("event does not decode")) || !messages.some((m) => m.includes("state does not decode")))
        return false;
      report.rejected = { messages, moments: live().length - base };
      for (const pick of (query.get("pick") || "").split(",").filter(Boolean))
        document.querySelector('#timeline li[data-moment="' + pick + '"] .pick').click();
      const names = JSON.parse(query.get("names") || "{}");
      for (const [field, value] of Object.entries(names)) $("fixture-" + field).value = value;
      $("export-fixtures").click();
      exporting.then(() => {
        report.fixtures = $("fixture-output").textContent;
        report.fixtureDownload = saved && saved.name;
        saved = null;
        $("save").click();
        if (!saved) { report.phase = "no session saved"; return write(); }
        report.saved = saved;
        // Open the saved file again, through the page's own file input.
        const files = new DataTransfer();
        files.items.add(new File([saved.text], saved.name, { type: "application/x-ndjson" }));
        $("open").files = files.files;
        $("open").dispatchEvent(new Event("change"));
        return opening;
      }).then(() => {
        if (report.phase !== "exporting") return;
        report.opened = {
          system: current, status: $("status").textContent, systems: [...systems.keys()],
          moments: live().map(seen), messages: texts("#rejections li"),
        };
        current = liveSystem;
        $("system").value = liveSystem;
        select(number("show", 0));
        report.phase = "done";
        write();
        release();
      }).catch((error) => { report.phase = "failed: " + error.message; write(); release(); });
      return "exporting";
    },
    exporting() { return false; },
    done() { return false; },
  };
  return {
    step() {
      const entry = systems.get(liveSystem ?? current);
      const moments = entry ? entry.moments : [];
      console.log("selftest", report.phase, moments.length);
      if (!entry) return render();
      const next = steps[report.phase](moments);
      if (next) report.phase = next;
      else render();
      write();
    },
    downloaded(name, text) { saved = { name, text }; },
  };
})();

connect();
render();
