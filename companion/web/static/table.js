// One table on a phone: join, then live tabs drawn from the API's snapshot for this phone.
// Nothing here decides a rule: the actions and their fields come from the engine.
"use strict";

const app = document.getElementById("app");
const TABLE = app.dataset.table;
const BASE = `/api/tables/${TABLE}`;
let state = null;       // the latest snapshot
let events = null;      // the EventSource
let sheet = null;       // the action being prepared: {spec, seat, values, previewed}
let wakeLock = null;

// --- joining -----------------------------------------------------------------------------
async function showJoin() {
  document.getElementById("tabs").hidden = true;
  document.getElementById("nav").hidden = true;
  document.getElementById("join").hidden = false;
  const info = await api("GET", `${BASE}/seats`);
  const buttons = info.seats.map((name, seat) => el("button", {
    class: "big", disabled: info.taken.includes(seat), "data-seat": seat,
    onclick: () => join(seat) }, info.taken.includes(seat) ? `${name} (taken)` : `I am ${name}`));
  setChildren(document.getElementById("seat-buttons"), ...buttons);
}

async function join(seat) {
  const error = document.getElementById("join-error");
  error.textContent = "";
  try {
    await api("POST", `${BASE}/join`, { pin: document.getElementById("pin").value.trim(), seat });
    document.getElementById("join").hidden = true;
    await start();
  } catch (err) {
    error.textContent = err.message;
    if (err.error === "seat_taken") showJoin();
  }
}

// --- live updates ------------------------------------------------------------------------
let polling = null;

function connect() {
  if (events) events.close();
  events = new EventSource(`${BASE}/events`);
  events.addEventListener("state", (e) => render(JSON.parse(e.data)));
  events.addEventListener("gone", () => { events.close(); showJoin(); });
  events.onopen = () => {
    document.getElementById("live").classList.add("on");
    if (polling) { clearInterval(polling); polling = null; }
  };
  events.onerror = () => {
    document.getElementById("live").classList.remove("on");
    // The browser retries by itself, unless the server said no (too many connections):
    // then ask every few seconds, and try live updates again now and then.
    if (events.readyState === EventSource.CLOSED && !polling) {
      let tries = 0;
      polling = setInterval(() => { refresh(); if (++tries % 10 === 0) connect(); }, 3000);
    }
  };
}

async function refresh() {
  try {
    render(await api("GET", BASE));
  } catch (err) {
    if (err.error === "not_joined") showJoin();
  }
}

async function keepAwake() {
  // Only where the browser allows it (a secure page): otherwise the phone's own timeout holds.
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try { wakeLock = await navigator.wakeLock.request("screen"); } catch (err) { wakeLock = null; }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && state) {
    refresh();  // catch up at once after the phone slept
    if (!events || events.readyState === EventSource.CLOSED) connect();
    keepAwake();
  }
});

// --- drawing -----------------------------------------------------------------------------
function seatName(seat) {
  return state && state.seats[seat] !== undefined ? state.seats[seat] : `seat ${seat}`;
}

function render(snapshot) {
  state = snapshot;
  const view = snapshot.view;
  const ended = snapshot.ended ? " · ended" : "";
  document.getElementById("status-line").textContent =
    `${view.round !== undefined ? `Round ${view.round} of ${view.rounds} · ` : ""}${words(view.phase || "")}${ended}`;
  document.getElementById("turn").textContent = view.status || "";
  renderPlayers(view);
  renderLog(document.getElementById("recent"), snapshot.recent);
  renderMe(snapshot);
  renderHost(snapshot);
  const reactions = snapshot.actions.filter((a) => a.kind === "reaction" || a.kind === "input");
  const alert = document.getElementById("reaction-alert");
  alert.hidden = reactions.length === 0;
  setChildren(alert, el("strong", {}, "Your answer is needed"), " ",
    ...reactions.map((spec) => el("button", { onclick: () => openSheet(spec, snapshot.you.seat) }, spec.label)));
  if (window.renderExtras) window.renderExtras(snapshot);  // last: it adds to the alert
  if (sheet && !sheet.busy) checkSheetStillLegal();
}

function counterEntries(player) {
  return Object.entries(player).filter(([key, value]) =>
    !["seat", "name", "alive", "revealed", "captain"].includes(key) && typeof value === "number");
}

function playerFacts(p) {
  // Public facts other than counters: a role card, a reserved die, a quarantine, revealed cards.
  const facts = [];
  for (const [key, value] of Object.entries(p)) {
    if (["seat", "name", "alive", "revealed", "role", "permits"].includes(key)) continue;
    if (value === true) facts.push(words(key));
    else if (typeof value === "string") facts.push(key === "role_label" ? value : `${words(key)}: ${words(value)}`);
  }
  return facts;
}

function renderPlayers(view) {
  const waiting = view.waiting_for || [];
  const cards = (view.players || []).map((p) => el("div", {
      class: `player${view.turn === p.seat ? " turn" : ""}${waiting.includes(p.seat) ? " waiting" : ""}${p.alive === false ? " dead" : ""}`,
      "data-seat": p.seat },
    el("div", { class: "name" }, p.name, state.you.seat === p.seat ? " (you)" : ""),
    playerFacts(p).map((fact) => el("div", { class: "muted" }, fact)),
    p.alive === false ? el("div", { class: "muted" }, "dead") : null,
    el("div", { class: "counters" }, counterEntries(p).map(([key, value]) =>
      [el("span", { class: "muted" }, words(key)), el("span", { "data-counter": key }, value)]))));
  setChildren(document.getElementById("players"), ...cards);
  renderVotes(view);
}

let votesSeen = false;

function renderVotes(view) {
  // Votes are secret until all are in; then everyone sees them together, after a countdown.
  const box = document.getElementById("votes");
  if (view.votes && !votesSeen) {
    votesSeen = true;
    let count = 3;
    box.hidden = false;
    setChildren(box, el("strong", { class: "pin" }, "The votes in 3"));
    const tick = setInterval(() => {
      count -= 1;
      if (count > 0) { box.firstChild.textContent = `The votes in ${count}`; return; }
      clearInterval(tick);
      showVotes(view);
    }, 1000);
  } else if (view.votes && !box.querySelector(".pin")) {
    showVotes(view);
  } else if (view.voted) {
    box.hidden = false;
    setChildren(box, `Voted: ${view.voted.map(seatName).join(", ") || "nobody yet"}`);
  } else if (!view.votes) {
    box.hidden = true;
    votesSeen = false;
  }
}

function showVotes(view) {
  const box = document.getElementById("votes");
  const latest = state ? state.view : view;
  setChildren(box, el("strong", {}, "The votes"),
    el("ul", { class: "list" }, Object.entries(latest.votes || {}).map(([voter, target]) =>
      el("li", { "data-vote": voter }, `${seatName(Number(voter))} → ${seatName(target)}`))),
    latest.ejected !== null && latest.ejected !== undefined
      ? el("p", {}, `${seatName(latest.ejected)} is ejected.`) : null);
}

function renderLog(list, records) {
  setChildren(list, ...records.map((r) => el("li", {}, r.text,
    r.notes.length ? el("div", { class: "note" }, r.notes.join(" · ")) : null)));
}

function describeLook(look) {
  const card = look.card === "id" ? "ID card" : "parasite card";
  const result = look.result === null ? "look at the real card" : words(look.result);
  return el("li", { "data-look": look.seat }, `${look.name}'s ${card}: ${result}`,
    look.stale ? el("span", { class: "muted" }, " (before the cards were dealt again)") : null);
}

function describeSecret(key, value) {
  if (value === null || value === false || (Array.isArray(value) && !value.length)) return null;
  if (key === "looks") {
    return el("div", {}, el("span", { class: "muted" }, "What you have seen:"),
      el("ul", { class: "list" }, value.map(describeLook)));
  }
  const shown = Array.isArray(value) ? value.map(words).join(", ")
    : key.endsWith("mark") || ["plays_as", "vote"].includes(key) ? seatName(value) : words(value);
  return el("div", {}, el("span", { class: "muted" }, `${words(key)}: `), el("strong", {}, shown));
}

function renderMe(snapshot) {
  const you = snapshot.view.you;
  const secrets = document.getElementById("secrets");
  secrets.hidden = !you;
  if (you) {
    setChildren(secrets, el("div", { class: "muted" }, `You are ${seatName(you.seat)}. Only this phone sees this.`),
      ...Object.entries(you).filter(([k]) => k !== "seat").map(([k, v]) => describeSecret(k, v)));
  }
  setChildren(document.getElementById("take-seat"), ...takeSeat(snapshot));
  const actions = snapshot.actions.map((spec) => el("button", {
    class: spec.kind, "data-action": spec.name, onclick: () => openSheet(spec, snapshot.you.seat) },
    spec.label, spec.cost ? el("div", { class: "muted" }, `${spec.cost} energy`) : null));
  setChildren(document.getElementById("my-actions"), ...(actions.length ? actions
    : [el("p", { class: "muted" }, snapshot.you.seat === null ? "You are watching." : "Nothing to do right now.")]));
}

function takeSeat(snapshot) {
  // A watcher (or the host, who created the table) may sit down at a free seat.
  if (snapshot.you.seat !== null || snapshot.ended) return [];
  const free = snapshot.seats.map((name, seat) => [name, seat])
    .filter(([, seat]) => !snapshot.taken_seats.includes(seat));
  if (!free.length) return [];
  const pin = snapshot.host ? null : el("input", { id: "seat-pin", inputmode: "numeric",
    maxlength: 6, placeholder: "Table PIN", autocomplete: "off" });
  return [el("h3", {}, "Take a seat"), pin, el("div", { class: "grid" }, free.map(([name, seat]) =>
    el("button", { class: "big", "data-seat": seat, onclick: async () => {
      const code = snapshot.host ? snapshot.host.pin : document.getElementById("seat-pin").value.trim();
      try { await api("POST", `${BASE}/join`, { pin: code, seat }); await refresh(); connect(); }
      catch (err) { banner(err.message); }
    } }, `I am ${name}`)))];
}

function renderHost(snapshot) {
  const host = snapshot.host;
  document.querySelector("#nav [data-tab=host]").hidden = !host;
  if (!host) return;
  document.getElementById("host-pin").textContent = host.pin;
  const qr = document.getElementById("join-qr");
  if (!qr.getAttribute("src")) qr.src = `/t/${TABLE}/join.svg`;
  const link = document.getElementById("join-link");
  link.href = link.textContent = app.dataset.joinUrl;
  // The game's own steps, then the rulings with which the table overrides the rules.
  const button = (spec) =>
    el("button", { "data-action": spec.name, onclick: () => openSheet(spec, null) }, spec.label);
  for (const [id, ruling] of [["host-actions", false], ["host-rulings", true]]) {
    const specs = host.actions.filter((spec) => Boolean(spec.ruling) === ruling);
    setChildren(document.getElementById(id), ...specs.map(button));
    document.getElementById(`${id}-box`).hidden = !specs.length;
  }
  setChildren(document.getElementById("host-seats"), ...snapshot.seats.map((name, seat) =>
    el("li", { class: "row" }, el("span", {}, `${seat}: ${name}`),
      snapshot.taken_seats.includes(seat)
        ? el("button", { class: "secondary", onclick: () => release(seat) }, "Free this seat")
        : el("span", { class: "muted" }, "free"))));
  const undoBox = document.getElementById("undo-box");
  undoBox.hidden = !host.can_undo;
  document.getElementById("last-action").textContent = host.last || "";
  document.getElementById("end-table").disabled = snapshot.ended;
}

// --- the action sheet: fields from the engine's spec, a preview, then the action --------
function openSheet(spec, seat) {
  sheet = { spec, seat, values: {}, previewed: false, busy: false };
  for (const p of spec.params) if (p.default !== undefined) sheet.values[p.name] = structuredClone(p.default);
  document.getElementById("sheet-title").textContent = spec.label;
  document.getElementById("sheet-note").textContent = spec.note || (spec.cost ? `${spec.cost} energy` : "");
  setChildren(document.getElementById("sheet-form"), ...spec.params.map(fieldFor));
  document.getElementById("sheet-preview").textContent = "";
  document.getElementById("sheet-error").textContent = "";
  document.getElementById("sheet-go").textContent = "Preview";
  document.getElementById("sheet").hidden = false;
}

function closeSheet() {
  sheet = null;
  document.getElementById("sheet").hidden = true;
}

function changed() {
  sheet.previewed = false;
  document.getElementById("sheet-go").textContent = "Preview";
  document.getElementById("sheet-preview").textContent = "";
}

function choiceLabel(param, value) {
  return param.kind === "seat" ? seatName(value) : words(value);
}

function fieldFor(param) {
  const box = el("div", { class: "field", "data-param": param.name }, el("label", {}, param.label));
  if (param.kind === "seat" || param.kind === "choice") {
    const group = el("div", { class: "choice-group" });
    for (const value of param.choices) {
      group.append(el("button", { type: "button", "aria-pressed": String(sheet.values[param.name] === value),
        "data-value": value, onclick: (e) => {
          sheet.values[param.name] = value;
          for (const b of group.children) b.setAttribute("aria-pressed", String(b === e.currentTarget));
          changed();
        } }, choiceLabel(param, value)));
    }
    box.append(group);
  } else if (param.kind === "choices") {
    const group = el("div", { class: "choice-group" });
    sheet.values[param.name] = sheet.values[param.name] || [];
    param.choices.forEach((value) => {
      group.append(el("button", { type: "button", "aria-pressed": "false", "data-value": value,
        onclick: (e) => {
          const button = e.currentTarget;
          const on = button.getAttribute("aria-pressed") !== "true";
          button.setAttribute("aria-pressed", String(on));
          sheet.values[param.name] = [...group.children]
            .filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.dataset.value);
          changed();
        } }, words(value)));
    });
    box.append(group);
  } else if (param.kind === "number") {
    const input = el("input", { type: "number", inputmode: "numeric", min: param.min, max: param.max,
      value: sheet.values[param.name] ?? param.min ?? 0,
      oninput: (e) => { sheet.values[param.name] = Number(e.target.value); changed(); } });
    sheet.values[param.name] = Number(input.value);
    box.append(input);
  } else if (param.kind === "flag") {
    box.append(el("input", { type: "checkbox", checked: sheet.values[param.name] === true,
      onchange: (e) => { sheet.values[param.name] = e.target.checked; changed(); } }));
  } else {
    box.append(el("input", { maxlength: param.max, value: sheet.values[param.name] || "",
      oninput: (e) => { sheet.values[param.name] = e.target.value; changed(); } }));
  }
  return box;
}

function request() {
  return { name: sheet.spec.name, seat: sheet.seat, params: sheet.values, expect: state.version };
}

async function sheetGo() {
  const error = document.getElementById("sheet-error");
  error.textContent = "";
  const missing = sheet.spec.params.filter((p) => sheet.values[p.name] === undefined);
  if (missing.length) { error.textContent = `Choose ${missing[0].label.toLowerCase()}`; return; }
  sheet.busy = true;
  try {
    if (!sheet.previewed) {
      const preview = await api("POST", `${BASE}/preview`, request());
      document.getElementById("sheet-preview").textContent = preview.text;
      document.getElementById("sheet-go").textContent = "Confirm";
      sheet.previewed = true;
    } else {
      await api("POST", `${BASE}/actions`, request());
      closeSheet();
    }
  } catch (err) {
    error.textContent = err.message;
    if (err.error === "stale") refresh();
  } finally {
    if (sheet) sheet.busy = false;
  }
}

function checkSheetStillLegal() {
  const list = sheet.seat === null ? (state.host ? state.host.actions : []) : state.actions;
  if (!list.some((a) => a.name === sheet.spec.name)) {
    closeSheet();
    banner("That action is no longer open: the table moved on.");
  }
}

function banner(text) {
  const node = document.getElementById("banner");
  node.textContent = text;
  node.hidden = false;
  setTimeout(() => { node.hidden = true; }, 5000);
}

// --- host tools and the log --------------------------------------------------------------
async function release(seat) {
  try { await api("POST", `${BASE}/seats/${seat}/release`, {}); } catch (err) { banner(err.message); }
}

async function loadHistory() {
  try { renderLog(document.getElementById("history"), await api("GET", `${BASE}/history`)); }
  catch (err) { banner(err.message); }
}

async function undo() {
  if (!confirm(`Undo "${state.host.last}"? Everyone sees that it was undone.`)) return;
  try { await api("POST", `${BASE}/undo`, { expect: state.version }); loadHistory(); }
  catch (err) { banner(err.message); }
}

async function endTable() {
  if (!confirm("End this table? It stays readable, but nobody can act any more.")) return;
  try { await api("POST", `${BASE}/end`, {}); } catch (err) { banner(err.message); }
}

async function exportLog() {
  try {
    const data = await api("GET", `${BASE}/export`);
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `table-${TABLE}.json` });
    link.click();
  } catch (err) { banner(err.message); }
}

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${name}`;
  for (const b of document.querySelectorAll("#nav button")) b.classList.toggle("on", b.dataset.tab === name);
  if (name === "log") loadHistory();
}

// --- start -------------------------------------------------------------------------------
async function start() {
  await refresh();
  if (!state) return;
  document.getElementById("tabs").hidden = false;
  document.getElementById("nav").hidden = false;
  connect();
  keepAwake();
}

document.getElementById("nav").addEventListener("click", (e) => {
  if (e.target.dataset.tab) showTab(e.target.dataset.tab);
});
document.getElementById("sheet-cancel").addEventListener("click", closeSheet);
document.getElementById("sheet-go").addEventListener("click", sheetGo);
document.getElementById("undo").addEventListener("click", undo);
document.getElementById("end-table").addEventListener("click", endTable);
document.getElementById("export").addEventListener("click", exportLog);
document.getElementById("watch").addEventListener("click", () => join(null));

document.addEventListener("DOMContentLoaded", start);  // after extras.js has loaded
