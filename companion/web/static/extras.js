// The narrator and the camera on a phone: drawn from the snapshot's "narration" and "camera".
"use strict";

const CONTROL_LABELS = { pause: "Pause", resume: "Resume", repeat: "Repeat the line",
                         skip: "Skip", stop: "Stop" };
let snapshotTimer = null;

async function narrate(body) {
  try { await api("POST", `${BASE}/narration`, body); } catch (err) { banner(err.message); }
}

function renderNarration(snapshot) {
  const n = snapshot.narration;
  if (!n) return;
  renderEyesClosed(snapshot);
  const audio = document.getElementById("narration-audio");
  const onThisPhone = n.state === "on_phone" && snapshot.host && n.wav;
  const lines = n.lines ? ` · line ${Math.min(n.lines_done + 1, n.lines)} of ${n.lines}` : "";
  const none = n.state === "idle" && !Object.keys(n.phases || {}).length;
  const states = { idle: none ? "Nothing to narrate: this game has no eyes-closed phase" : "Not started", playing: "Playing on the companion's speaker",
                   paused: "Paused", stopping: "Stopping", finished: "Finished",
                   on_phone: onThisPhone ? phoneState(audio) : "Playing on the host's phone" };
  setChildren(document.getElementById("narration"),
    el("strong", { "data-state": n.state }, states[n.state] || n.state), lines,
    n.line ? el("p", { class: "preview" }, n.line) : null,
    n.error ? el("p", { class: "error" }, n.error) : null);
  const buttons = [];
  const busy = ["playing", "paused"].includes(n.state) || (onThisPhone && !audio.ended && audio.currentTime > 0);
  if (snapshot.host && !busy) {
    for (const [phase, title] of Object.entries(n.phases || {})) {
      buttons.push(el("button", { class: "primary big", "data-phase": phase,
        onclick: () => narrate({ start: phase }) }, `Start ${title}`));
    }
  }
  if (["playing", "paused"].includes(n.state) && snapshot.host) {
    const toggle = n.state === "paused" ? "resume" : "pause";
    for (const command of [toggle, "repeat", "skip", "stop"]) {
      buttons.push(el("button", { class: "big", "data-command": command,
        onclick: () => narrate({ command }) }, CONTROL_LABELS[command]));
    }
  }
  if (onThisPhone) buttons.push(...phoneControls(n));
  // The table's own step that ends the phase ("Everyone opens their eyes"), where the host
  // steers the narration.
  const steps = snapshot.host ? snapshot.host.actions.filter((spec) => !spec.ruling) : [];
  buttons.push(...steps.map((spec) => el("button", { class: "big", "data-action": spec.name,
    onclick: () => openSheet(spec, null) }, spec.label)));
  setChildren(document.getElementById("narration-buttons"), ...buttons);
  audio.hidden = !onThisPhone;
  if (n.wav && !audio.src.endsWith(n.wav)) audio.src = n.wav;
}

function phoneState(audio) {
  // The truth of the host's phone, from its player: not "playing" before Play is tapped.
  if (!audio.src || (audio.paused && audio.currentTime === 0)) return "Ready on this phone: tap Play";
  if (audio.ended) return "Finished";
  return audio.paused ? "Paused on this phone" : "Playing on this phone";
}

function renderEyesClosed(snapshot) {
  // Every phone says what to do while the game is in an eyes-closed phase.
  const box = document.getElementById("eyes-closed");
  const phase = (snapshot.narration.eyes_closed || []).find((p) => p.phase === snapshot.view.phase);
  box.hidden = !phase;
  if (phase) setChildren(box, el("strong", {}, `Now: ${phase.title}`), el("p", {}, phase.instructions));
}

function phoneControls(n) {
  // The host's phone plays the mixed file: repeat and skip move along the narrator's cues.
  const audio = document.getElementById("narration-audio");
  const starts = n.cues.map((c) => c.start);
  const spoken = n.cues.filter((c) => c.spoken).map((c) => c.start);
  return [
    el("button", { class: "primary big", "data-command": "play", onclick: () => (audio.paused ? audio.play() : audio.pause()) },
      audio.paused ? "Play" : "Pause"),
    el("button", { class: "big", onclick: () => {
      const last = spoken.filter((s) => s <= audio.currentTime + 0.05).pop();
      audio.currentTime = last ?? 0; audio.play();
    } }, "Repeat the line"),
    el("button", { class: "big", onclick: () => {
      const next = starts.find((s) => s > audio.currentTime + 0.05);
      if (next !== undefined) audio.currentTime = next;
    } }, "Skip"),
  ];
}

function useSuggestion(suggestion) {
  const action = suggestion.action;
  const list = action.seat === null ? (state.host ? state.host.actions : []) : state.view.actions;
  const spec = list.find((a) => a.name === action.action);
  if (!spec) { banner("That is no longer open."); return; }
  const values = Object.fromEntries(Object.entries(action).filter(([key]) => key !== "action" && key !== "seat"));
  openSheet(spec, action.seat, values);
  document.getElementById("sheet-note").textContent = `The camera saw ${suggestion.card}.`;
}

function suggestionButtons(camera) {
  return (camera.suggestions || []).map((s) => el("button", { class: "primary big",
    "data-suggestion": s.action.action, onclick: () => useSuggestion(s) },
    `Camera saw ${s.card}: ${s.text}`));
}

let teaching = null;  // the die of a roll the host is telling the reader about: {reading, index}
const taught = new Map();  // "reading:index" -> what the host said it was, shown on its button

function redrawTeaching() {
  const box = document.getElementById("dice-adapt");
  if (box && state.camera) box.replaceWith(adaptParts(state.camera));
}

function adaptParts(camera) {
  // The host teaches the pip reader this table's dice: the ones the players confirmed, and
  // any die of a recent roll the host says it read wrong (or that is no die at all).
  const teach = (rollback) => async () => {
    try {
      const done = await api("POST", `${BASE}/camera/dice-adapt`, { rollback });
      banner(done.message, "news");
    } catch (err) { banner(err.message); }
  };
  const tell = (value) => async () => {
    try {
      const done = await api("POST", `${BASE}/camera/dice-example`, { ...teaching, value });
      taught.set(`${teaching.reading}:${teaching.index}`, value ? String(value) : "no die");
      banner(done.message, "news");
    } catch (err) { banner(err.message); }
    teaching = null;
    redrawTeaching();
  };
  const rolls = (camera.readings || []).filter((r) => r.type === "roll"
    && r.dice.some((d) => d.kind === "d6" || d.kind === "unsure")).slice(0, 3);
  const chosen = (r, i) => teaching && teaching.reading === r.id && teaching.index === i;
  const dieButton = (r, d, i) => el("button", { class: `big die${chosen(r, i) ? " chosen" : ""}`,
    "data-die": `${r.id}:${i}`, onclick: () => { teaching = { reading: r.id, index: i }; redrawTeaching(); } },
    taught.has(`${r.id}:${i}`) ? `${d.value ?? "?"} → ${taught.get(`${r.id}:${i}`)} ✓` : d.value ?? "?");
  const rows = rolls.map((r) => el("div", { class: "roll-dice" }, el("span", {}, "Roll:"),
    r.dice.map((d, i) => (d.kind === "d6" || d.kind === "unsure" ? dieButton(r, d, i) : null))));
  const asking = teaching && rolls.some((r) => r.id === teaching.reading);
  const box = el("details", { id: "dice-adapt" }, el("summary", {}, "Dice reading at this table"),
    el("p", { class: "muted" }, "Every die you confirm is kept on the companion. Teach the reader"
      + " from them: it is switched on only if it reads your dice better."),
    rows.length ? el("p", {}, "Read a die wrong, or saw one that is not there? Tap it (left to right as in the camera's picture):") : null,
    rows,
    asking ? el("div", { class: "die-values", id: "die-values" }, el("span", {}, "It really shows:"),
      [1, 2, 3, 4, 5, 6].map((v) => el("button", { class: "big", "data-value": v, onclick: tell(v) }, v)),
      el("button", { class: "big", "data-value": 0, onclick: tell(0) }, "Not a die")) : null,
    el("button", { class: "big", id: "adapt-dice", onclick: teach(false) }, "Learn our dice"),
    el("button", { class: "big", id: "rollback-dice", onclick: teach(true) }, "Undo the last learning"));
  // Kept open across the table's updates: the host is in the middle of something.
  box.open = Boolean(document.getElementById("dice-adapt")?.open);
  return box;
}

function renderCamera(snapshot) {
  const camera = snapshot.camera;
  if (!camera) return;
  // Said for the people at the table; the fix, for whoever set up the companion, a tap away.
  const status = !camera.configured ? "No camera: tap cards and dice in on the phones."
    : camera.ok ? "The camera is watching the table."
      : "The camera is not working: tap cards and dice in on the phones meanwhile.";
  const parts = [el("p", {}, status)];
  if (camera.configured && camera.message) {
    parts.push(el("details", {}, el("summary", {}, "For whoever set up the companion"),
      el("p", { class: "muted" }, camera.message)));
  }
  if (snapshot.host && camera.configured && !camera.attached) {
    parts.push(el("button", { class: "big", id: "use-camera", onclick: async () => {
      try { await api("POST", `${BASE}/camera`, {}); } catch (err) { banner(err.message); }
    } }, "Use the camera at this table"));
  }
  parts.push(...suggestionButtons(camera));
  if (camera.boards) parts.push(...boardParts(camera.boards));
  if (camera.can_adapt) parts.push(adaptParts(camera));
  setChildren(document.getElementById("camera"), ...parts);
  setChildren(document.getElementById("readings"), el("h3", {}, "Last readings"),
    el("ol", { class: "log" }, (camera.readings || []).map((r) => el("li", {},
      (r.type === "card" ? (r.card || `unknown code ${r.payload}`)
        : `dice: ${r.dice.map((d) => d.value ?? "?").join(", ")}`)
      + (r.note ? ` (${r.note})` : "")))));
  // On the table tab too, where the player is looking when the card goes under the camera.
  const alert = document.getElementById("reaction-alert");
  const buttons = suggestionButtons(camera);
  // What is wrong on a board (an illegal move and its rule), on every phone.
  const wrong = ((camera.boards || {}).checks || []).filter((c) => ["illegal", "problem"].includes(c.verdict));
  const notes = wrong.map((c) => el("p", { class: "board-check", "data-verdict": c.verdict }, `Camera: ${c.text}`));
  if (buttons.length || notes.length) {
    if (alert.hidden) setChildren(alert);  // no answers of its own: only the camera's
    alert.hidden = false;
    alert.append(...buttons, ...notes);
  }
  const img = document.getElementById("snapshot");
  img.hidden = !(camera.attached && camera.ok);
}

const VERDICTS = { same: "matches", move: "a move", illegal: "not allowed", differs: "differs", problem: "cannot be read" };

function boardParts(boards) {
  // The boards the camera reads: what keeps one from being read, each board against the
  // table's position, its grid as seen (the cells that differ marked), and any score.
  const parts = [];
  if (!boards.in_view.length && !boards.checks.length) parts.push(el("p", { class: "muted" }, "No board in view."));
  parts.push(...boards.problems.map((p) => el("p", { class: "board-check", "data-verdict": "problem" }, p)));
  const checks = Object.fromEntries(boards.checks.map((c) => [c.title, c]));
  for (const grid of boards.grids || []) {
    const check = checks[grid.title];
    const marked = new Set(check ? check.cells : []);
    parts.push(el("h4", {}, grid.title, check ? ` · ${VERDICTS[check.verdict] || check.verdict}` : ""));
    if (check && check.verdict !== "same") parts.push(el("p", { class: "board-check", "data-verdict": check.verdict }, check.text));
    parts.push(cameraGrid(grid, marked));
    if (grid.unread.length) parts.push(el("p", { class: "muted" }, `Not scored: cannot read ${grid.unread.join(", ")}`));
  }
  if (boards.sheet) {
    const titles = Object.fromEntries((boards.grids || []).map((g) => [g.seat, g.title]));
    parts.push(el("h4", {}, boards.sheet.title), scoreTable(boards.sheet, (seat) => titles[seat] || seatName(seat)));
  }
  return parts;
}

function cameraGrid(grid, marked) {
  // A board as the camera reads it: each cell's mark ("?" not read, "·" empty), holes blank.
  const box = el("div", { class: "board-grid camera-grid", "data-board": grid.board,
    style: { gridTemplateColumns: `repeat(${grid.cols}, 1fr)` } });
  const at = Object.fromEntries(grid.cells.map((c) => [`${c.row}:${c.col}`, c]));
  for (let row = 0; row < grid.rows; row++) {
    for (let col = 0; col < grid.cols; col++) {
      const cell = at[`${row}:${col}`];
      const shown = !cell ? "" : cell.mark === null ? "?" : cell.mark ? words(cell.mark) : "·";
      box.append(el("div", { class: `cell${cell ? "" : " hole"}${cell && marked.has(cell.id) ? " differs" : ""}`,
        title: cell ? cell.id : "" }, shown));
    }
  }
  return box;
}

function refreshSnapshot() {
  const img = document.getElementById("snapshot");
  const visible = !document.getElementById("tab-more").hidden && !img.hidden;
  if (visible) img.src = `${BASE}/camera.jpg?t=${Date.now()}`;
}

for (const event of ["play", "pause", "ended"]) {  // the host's player changes what it shows
  document.getElementById("narration-audio").addEventListener(event, () => { if (state) renderNarration(state); });
}

window.renderExtras = (snapshot) => {
  renderNarration(snapshot);
  renderCamera(snapshot);
  if (!snapshotTimer) snapshotTimer = setInterval(refreshSnapshot, 2000);
};
