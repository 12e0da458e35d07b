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
  const lines = n.lines ? ` · line ${Math.min(n.lines_done + 1, n.lines)} of ${n.lines}` : "";
  const states = { idle: "Not playing", playing: "Playing", paused: "Paused", stopping: "Stopping",
                   finished: "Finished", on_phone: "Playing on the host's phone" };
  setChildren(document.getElementById("narration"), 
    el("strong", {}, states[n.state] || n.state), lines,
    n.line ? el("p", { class: "preview" }, n.line) : null,
    n.error ? el("p", { class: "error" }, n.error) : null);
  const buttons = [];
  if (snapshot.host && !["playing", "paused"].includes(n.state)) {
    for (const [phase, title] of Object.entries(n.phases || {})) {
      buttons.push(el("button", { class: "primary big", "data-phase": phase,
        onclick: () => narrate({ start: phase }) }, `Start ${title}`));
    }
  }
  if (["playing", "paused"].includes(n.state) && (snapshot.host || snapshot.you.seat !== null)) {
    const toggle = n.state === "paused" ? "resume" : "pause";
    for (const command of [toggle, "repeat", "skip", "stop"]) {
      buttons.push(el("button", { class: "big", "data-command": command,
        onclick: () => narrate({ command }) }, CONTROL_LABELS[command]));
    }
  }
  if (n.state === "on_phone" && n.wav) buttons.push(...phoneControls(n));
  setChildren(document.getElementById("narration-buttons"), ...buttons);
  const audio = document.getElementById("narration-audio");
  audio.hidden = !(n.state === "on_phone" && n.wav);
  if (n.wav && !audio.src.endsWith(n.wav)) audio.src = n.wav;
}

function phoneControls(n) {
  // The host's phone plays the mixed file: repeat and skip move along the narrator's cues.
  const audio = document.getElementById("narration-audio");
  const starts = n.cues.map((c) => c.start);
  const spoken = n.cues.filter((c) => c.spoken).map((c) => c.start);
  return [
    el("button", { class: "big", onclick: () => (audio.paused ? audio.play() : audio.pause()) }, "Play / pause"),
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

function renderCamera(snapshot) {
  const camera = snapshot.camera;
  if (!camera) return;
  const status = !camera.configured ? "No camera is set up on this companion."
    : `${camera.ok ? "Camera ready" : "Camera not available"}: ${camera.message}`;
  const parts = [el("p", {}, status)];
  if (snapshot.host && camera.configured && !camera.attached) {
    parts.push(el("button", { class: "big", id: "use-camera", onclick: async () => {
      try { await api("POST", `${BASE}/camera`, {}); } catch (err) { banner(err.message); }
    } }, "Use the camera at this table"));
  }
  parts.push(...suggestionButtons(camera));
  setChildren(document.getElementById("camera"), ...parts);
  setChildren(document.getElementById("readings"), el("h3", {}, "Last readings"),
    el("ol", { class: "log" }, (camera.readings || []).map((r) => el("li", {},
      r.type === "card" ? (r.card || `unknown code ${r.payload}`)
        : `dice: ${r.dice.map((d) => d.value).join(", ")}`))));
  // On the table tab too, where the player is looking when the card goes under the camera.
  const alert = document.getElementById("reaction-alert");
  const buttons = suggestionButtons(camera);
  if (buttons.length) { alert.hidden = false; alert.append(...buttons); }
  const img = document.getElementById("snapshot");
  img.hidden = !(camera.attached && camera.ok);
}

function refreshSnapshot() {
  const img = document.getElementById("snapshot");
  const visible = !document.getElementById("tab-camera").hidden && !img.hidden;
  if (visible) img.src = `${BASE}/camera.jpg?t=${Date.now()}`;
}

window.renderExtras = (snapshot) => {
  renderNarration(snapshot);
  renderCamera(snapshot);
  if (!snapshotTimer) snapshotTimer = setInterval(refreshSnapshot, 2000);
};
