// The monitor's page: no framework, no network but the monitor itself.
// Messages from the monitor are documented in MonitorHub.swift; each
// `activity` carries an InspectionMessage (FeedbackLoopDebugging).
"use strict";

const secret = new URLSearchParams(location.search).get("secret") || "";
const systems = new Map(); // name -> { live, diagram, moments: [], raw: [] }
let current = null;        // selected system's name
let selected = 0;          // selected moment's index
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

function describeSource(source) {
  if (!source || source.external) return "external";
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

// A line diff of two pretty-printed JSON values (longest common subsequence).
function diff(before, after) {
  const a = before === undefined ? [] : JSON.stringify(before, null, 2).split("\n");
  const b = JSON.stringify(after, null, 2).split("\n");
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { i++; j++; continue; }
    // Removed lines before added ones, as a unified diff reads.
    if (i < a.length && (j === b.length || table[i + 1][j] >= table[i][j + 1])) out.push(["removed", "− " + a[i++]]);
    else out.push(["added", "+ " + b[j++]]);
  }
  return out;
}

function render() {
  const entry = current === null ? null : systems.get(current);
  const moments = entry ? entry.moments : [];
  $("status").textContent = entry
    ? current + (entry.live ? " · live" : " · not connected") + " · " + moments.length + " moments"
    : "waiting for an application";
  if (selected >= moments.length) selected = Math.max(0, moments.length - 1);
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
    event.textContent = moment.event === undefined ? "start" : describe(moment.event);
    const source = document.createElement("span");
    source.className = "source";
    source.textContent = moment.event === undefined ? "" : "from " + describeSource(moment.source)
      + (moment.stopped ? " · stopped" : "");
    item.append(tick, number, time, event, source);
    item.addEventListener("click", () => { selected = index; render(); });
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
  if (moment && document.activeElement !== $("state-editor") && !$("state-editor").dataset.edited)
    $("state-editor").value = JSON.stringify(moment.state, null, 2);
  $("diagram").textContent = entry && entry.diagram ? entry.diagram : $("diagram").textContent;
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
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
}

$("scrub").addEventListener("input", () => { selected = Number($("scrub").value); render(); });
$("system").addEventListener("change", () => { current = $("system").value; selected = 0; render(); });
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
$("open").addEventListener("change", async () => {
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
  current = name;
  $("system").value = name;
  render();
});
$("export-fixtures").addEventListener("click", async () => {
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
});

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
    const entry = systems.get(current);
    // Follow the newest moment unless the user scrubbed back.
    if (entry && selected >= entry.moments.length - 2) selected = entry.moments.length - 1;
    render();
  });
}

// The self-test (`?selftest=1&moments=N&diff=D&jump=J&hold=URL`), for
// headless Chromium run as a plain subprocess (`--dump-dom`,
// `--screenshot`, `--virtual-time-budget`) by the monitor's tests: once N
// moments are in, it selects moment D (its diff), then moment J (its effects
// in flight), jumps the app there from the page's own button, waits for the
// jump to come back on the timeline, and writes what it saw into
// `#selftest` as JSON. `hold` is a URL that never answers: while that fetch
// is pending Chromium's virtual time stands still, so the dump waits for the
// live messages; the fetch is aborted when the self-test is done.
const selftest = (() => {
  const query = new URLSearchParams(location.search);
  if (!query.get("selftest")) return null;
  const want = Number(query.get("moments") || 2);
  const diffAt = Number(query.get("diff") || 1);
  const jumpTo = Number(query.get("jump") || 0);
  console.log("selftest: the page's script runs");
  const hold = new AbortController();
  if (query.get("hold")) fetch(query.get("hold"), { mode: "no-cors", signal: hold.signal }).catch(() => {});
  const texts = (selector) => [...document.querySelectorAll(selector)].map((node) => node.textContent);
  const select = (number) => {
    selected = systems.get(current).moments.findIndex((moment) => moment.number === number);
    render();
  };
  const report = { phase: "waiting" };
  const write = () => { $("selftest").textContent = JSON.stringify(report); };
  return {
    step() {
      const entry = systems.get(current);
      const moments = entry ? entry.moments : [];
      console.log("selftest", report.phase, moments.length, JSON.stringify(moments.map((m) => m.effects.length)));
      if (report.phase === "waiting" && moments.length >= want) {
        select(diffAt);
        report.timeline = texts("#timeline li.moment .event");
        report.sources = texts("#timeline li.moment .source");
        report.diffAt = { moment: $("moment-title").textContent, added: texts("#diff .added"), removed: texts("#diff .removed") };
        select(jumpTo);
        report.effectsAtJump = texts("#effects li");
        report.phase = "jumped";
        $("jump").click();
      } else if (report.phase === "jumped" && moments.some((moment) => moment.event && moment.event.travel && moment.effects.length > 0)) {
        // The travel moment and the effect it started (a later message): the
        // test jumps to a moment whose state needs an effect.
        selected = moments.findIndex((moment) => moment.event && moment.event.travel);
        render();
        report.travel = {
          moment: $("moment-title").textContent, rows: document.querySelectorAll("#timeline li.moment.travel").length,
          state: moments[selected].state, diff: texts("#diff .added, #diff .removed"), effects: texts("#effects li"),
        };
        report.phase = "done";
        write();
        hold.abort();
        return;
      } else {
        render();
      }
      write();
    },
  };
})();

connect();
render();
