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
// The host's QR code carries a join code: it stands for the PIN, and leaves the address bar.
let joinCode = new URLSearchParams(location.search).get("join");
// A host link (`companion tables host`, on the companion's own machine) makes this phone the
// host when the host's phone is lost: used once, and it leaves the address bar too.
let hostCode = new URLSearchParams(location.search).get("host");
if (joinCode || hostCode) history.replaceState(null, "", location.pathname);

async function showJoin() {
  document.getElementById("tabs").hidden = true;
  document.getElementById("nav").hidden = true;
  document.getElementById("join").hidden = false;
  document.getElementById("pin-label").hidden = Boolean(joinCode);
  document.getElementById("pin-hint").textContent = joinCode
    ? "You came by the host's QR code: choose who you are." : "The PIN is on the host's screen.";
  const info = await api("GET", `${BASE}/seats`);
  const buttons = info.seats.map((name, seat) => el("button", {
    class: "big", disabled: info.taken.includes(seat), "data-seat": seat,
    onclick: () => join(seat) }, info.taken.includes(seat) ? `${name} (taken)` : `I am ${name}`));
  const lost = info.taken.length ? el("p", { class: "muted", id: "taken-hint" },
    "Your seat taken, your phone lost or flat? The host frees it (Host tab), then tap it here.") : null;
  setChildren(document.getElementById("seat-buttons"), ...buttons, lost);
}

async function join(seat) {
  const error = document.getElementById("join-error");
  error.textContent = "";
  try {
    const proof = joinCode ? { code: joinCode } : { pin: document.getElementById("pin").value.trim() };
    await api("POST", `${BASE}/join`, { ...proof, seat });
    document.getElementById("join").hidden = true;
    await start();
  } catch (err) {
    error.textContent = err.message;
    if (err.error === "wrong_code") joinCode = null;  // type the PIN instead
    if (err.error === "seat_taken" || err.error === "wrong_code") showJoin();
  }
}

// --- live updates ------------------------------------------------------------------------
let polling = null;

// The connection indicator in the header: a dot and a word, so that a player can tell at a
// glance whether what the phone shows is live. [word, what it means (tooltip, spoken)].
const LIVE = {
  connecting: ["Connecting…", "Connecting to the companion"],
  connected: ["Connected", "Connected: the table updates live"],
  reconnecting: ["Reconnecting…", "The companion cannot be reached: reconnecting by itself; the table may be out of date"],
  polling: ["Reconnecting…", "Live updates are busy: the table is checked every few seconds"],
  ended: ["Table ended", "This table has ended: nothing more will change"],
};

function setLive(name) {
  const [word, meaning] = LIVE[name];
  const node = document.getElementById("live");
  if (node.dataset.state === name) return;
  node.dataset.state = name;
  node.classList.toggle("on", name === "connected");
  node.title = meaning;
  node.setAttribute("aria-label", `Connection: ${meaning}`);
  node.querySelector(".live-word").textContent = word;
}

function connect() {
  if (events) events.close();
  events = new EventSource(`${BASE}/events`);
  // A deliberate (re)connection says "Connecting…"; one after a lost connection keeps saying
  // "Reconnecting…" until it is back.
  if (!polling) setLive(document.getElementById("live").dataset.state === "reconnecting" ? "reconnecting" : "connecting");
  events.addEventListener("state", (e) => render(JSON.parse(e.data)));
  events.addEventListener("gone", () => { events.close(); showJoin(); });
  events.addEventListener("ended", () => {  // the table's last state: nothing more will come
    events.close();
    setLive("ended");
  });
  events.onopen = () => {
    setLive("connected");
    if (polling) { clearInterval(polling); polling = null; }
  };
  events.onerror = () => {
    // The browser retries by itself, unless the server said no (too many connections):
    // then ask every few seconds, and try live updates again now and then.
    if (events.readyState === EventSource.CLOSED && !polling) {
      let tries = 0;
      polling = setInterval(() => { refresh(); if (++tries % 10 === 0) connect(); }, 3000);
    }
    setLive(polling ? "polling" : "reconnecting");
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

// --- drawing: everything below comes from the table view (docs/table-view.md) ------------
function seatName(seat) {
  return state && state.seats[seat] !== undefined ? state.seats[seat] : `seat ${seat}`;
}

let myTurn = false;      // was it this phone's turn at the last update
let newest = null;      // the newest log line shown, to tell a new one
let passed = null;      // the optional answers this phone passed on (until they change)

function render(snapshot) {
  const first = state === null;
  state = snapshot;
  const view = snapshot.view;
  const ended = snapshot.ended ? " · ended" : "";
  document.getElementById("status-line").textContent =
    [view.headline, view.phase_label].filter(Boolean).join(" · ") + ended;
  renderJoinHint(snapshot);
  renderTurn(snapshot);
  announceNews(view, first);
  renderPlayers(view);
  renderFacts(document.getElementById("facts"), view.facts);
  renderBoards(view);
  renderScoreSheet(view);
  renderVotes(view);
  renderLog(document.getElementById("recent"), view.log);
  renderMe(snapshot);
  renderHost(snapshot);
  renderAnswers(snapshot);
  if (window.renderExtras) window.renderExtras(snapshot);  // last: it adds to the alert
  if (sheet && !sheet.busy) checkSheetStillLegal();
  if (!document.getElementById("tab-log").hidden) loadHistory();  // the log tab stays live
}

function renderJoinHint(snapshot) {
  // The host's first screen after creating the table: how the players join, while seats are
  // free (the PIN and QR code live on the Host tab, which a new host may not look at).
  const box = document.getElementById("join-hint");
  const free = snapshot.seats.filter((_, seat) => !snapshot.taken_seats.includes(seat));
  box.hidden = !snapshot.host || snapshot.ended || !free.length;
  if (box.hidden) return;
  setChildren(box, el("strong", {}, `Waiting for ${listNames(free)} to join`),
    el("div", {}, "Each player scans the QR code, or opens this table and types the PIN ",
      el("strong", { class: "pin-inline" }, snapshot.host.pin), "."),
    snapshot.you.seat === null ? el("div", { class: "muted" }, "Playing too? Take your seat on the Me tab.") : null,
    el("button", { class: "primary big", onclick: () => showTab("host") }, "Show the QR code"));
}

let mayAnswer = null;    // the optional answers offered at the last update (to buzz once)

function renderTurn(snapshot) {
  // What the game asks of this phone when it waits for it: the step in the game's words when
  // it is not a plain turn (a penalty, a bluff called, a captain to tell: the view's prompt),
  // else "Your turn"; "You may answer" when it may react now (a Shield, a Cancel); otherwise
  // who the game waits for, by name. At the end: the ending, and whether this seat won.
  const view = snapshot.view;
  const me = snapshot.you.seat;
  const mine = me !== null && !view.ending && view.waiting_for.includes(me);
  const answers = optionalAnswers(snapshot);
  const box = document.getElementById("turn");
  box.classList.toggle("mine", mine || answers !== null);
  const others = view.waiting_for.filter((s) => s !== me).map(seatName);
  const headline = view.ending ? view.ending.text
    : mine ? (view.prompt || (view.turn === me ? "Your turn" : "Your answer is awaited"))
    : answers !== null ? "You may answer now"
    : me !== null && others.length ? `Nothing to do now: waiting for ${listNames(others)}`
    : null;
  const won = view.ending && me !== null
    ? el("div", { class: "verdict", "data-verdict": view.ending.winners.includes(me) ? "won" : "not-won" },
      view.ending.winners.includes(me) ? "You win" : "You do not win this time") : null;
  // The moves that are not answers nor taps on a board are on the Me tab: one tap away.
  const elsewhere = mine && view.actions.some((a) => a.kind !== "reaction" && a.kind !== "input" && !a.covered
    && !a.params.some((p) => p.kind === "cell"));
  // The table's own step waits for the host (the Prologue's end): it is taken where the
  // narration is steered, one tap away.
  const steps = snapshot.host && !view.ending ? snapshot.host.actions.filter((spec) => !spec.ruling) : [];
  // The game's own words for this seat's step may already say what the status says in the
  // third person ("Ben to answer ..."): said twice, it pushed the board off the screen.
  const lead = me === null ? "" : `${seatName(me)} to `;
  const said = mine && view.prompt && lead && view.status.startsWith(lead)
    && view.prompt.toLowerCase().includes(view.status.slice(lead.length).toLowerCase());
  setChildren(box, headline ? el("strong", { class: "headline" }, headline) : null, won,
    view.ending || said ? null : el("div", { class: headline ? "muted" : "" }, view.status),
    ...standIn(snapshot),
    view.ending ? null : answersHeard(snapshot),
    elsewhere ? el("button", { class: "primary big", id: "to-my-moves", onclick: () => showTab("me") },
      "Your moves") : null,
    steps.length ? el("button", { class: "big", id: "to-host-step", onclick: () => showTab("more") },
      `As host: ${Object.keys(snapshot.narration?.phases || {}).length ? "the narrator, then " : ""}`
        + steps.map((spec) => spec.label).join(", ")) : null);
  if ((mine && !myTurn) || (answers !== null && answers !== mayAnswer)) nudge();
  myTurn = mine;
  mayAnswer = answers;
}

function answersHeard(snapshot) {
  // An answer the game does not wait for (a Shield, a bluff call): who passed and who may
  // still answer, for the player who decides when to let the action resolve.
  const passed = snapshot.passed;
  const still = snapshot.view.may_answer.filter((s) => !passed.includes(s));
  if (!passed.length && !still.length) return null;
  return el("div", { id: "answers" },
    passed.length ? el("span", { id: "passed" }, `Passed: ${listNames(passed.map(seatName))}`) : null,
    passed.length ? " · " : null,
    el("span", { id: "still-to-answer" }, still.length
      ? `May still answer: ${listNames(still.map(seatName))}` : "Nobody else may answer"));
}

let leftSeat = null;  // the seat the host's phone left to answer for another, to go back to

function standIn(snapshot) {
  // A seat the game waits for that no phone holds (its player left, and the host freed it):
  // every phone says so; the host's phone offers to take it and answer for them, then to go
  // back to the seat it left. Not before anything has happened: players are still joining.
  const view = snapshot.view;
  const me = snapshot.you.seat;
  const unheld = view.ending || snapshot.ended || !snapshot.version ? []
    : view.waiting_for.filter((s) => !snapshot.taken_seats.includes(s));
  const back = snapshot.host && !snapshot.ended && leftSeat !== null && leftSeat !== me
    && !snapshot.taken_seats.includes(leftSeat);
  const out = [];
  if (unheld.length) {
    const names = listNames(unheld.map(seatName));
    out.push(el("p", { id: "unheld" }, `No phone holds ${names}'s seat: `,
      snapshot.host ? "take it here to answer for them." : "the host can take it and answer for them."));
  }
  if (snapshot.host) {
    for (const seat of unheld) {
      out.push(el("button", { class: `primary big${sitting === seat ? " confirm" : ""}`, "data-stand-in": seat,
        onclick: () => moveHostTo(seat) },
        sitting === seat ? `Tap again: this phone becomes ${seatName(seat)}'s` : `Answer for ${seatName(seat)}`,
        me === null ? null : el("div", { class: "choice-note" }, `This phone takes ${seatName(seat)}'s seat; ${seatName(me)}'s stays free to come back to.`)));
    }
  }
  if (back) {
    out.push(el("button", { class: "big", id: "back-to-seat", onclick: () => moveHostTo(leftSeat) },
      `Back to ${seatName(leftSeat)}'s seat`));
  }
  return out;
}

let sitting = null;  // the seat whose "Answer for" or "sit here" was tapped once (for 5 s)

async function moveHostTo(seat) {
  // The host's phone takes a free seat; the seat it held (if any) is freed by the companion.
  // Two taps, but to go back: one mis-tap must not show a player's secrets on the host's phone.
  if (seat !== leftSeat && sitting !== seat) {
    sitting = seat;
    render(state);
    setTimeout(() => { if (sitting === seat) { sitting = null; render(state); } }, 5000);
    return;
  }
  sitting = null;
  try {
    const joined = await api("POST", `${BASE}/join`, { pin: state.host.pin, seat });
    leftSeat = seat === leftSeat ? null : joined.left;
    await refresh();
    connect();
  } catch (err) { banner(err.message); }
}

function optionalAnswers(snapshot) {
  // A key for the answers this phone may give now though the game does not wait for it (a
  // Shield, a Cancel), or null: none, or passed on.
  const view = snapshot.view;
  const me = snapshot.you.seat;
  if (me === null || view.ending || view.waiting_for.includes(me)) return null;
  const { answers, key } = answersOf(snapshot);
  return answers.some((a) => a.kind === "reaction") && passed !== key ? key : null;
}

function answersOf(snapshot) {
  // The answers asked of this phone (reactions in a window, private inputs), and a key that
  // changes when they do (a Pass holds until then).
  // A covered answer (Viola's choice) is not alerted: the alert is in a neighbour's sight.
  const answers = snapshot.view.actions.filter((a) => (a.kind === "reaction" || a.kind === "input")
    && !a.covered);
  return { answers, key: `${snapshot.version}:${answers.map((a) => a.name).join(",")}` };
}

function listNames(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function nudge() {
  // The phone says it is your turn: a buzz where it can, and a short tone if asked for.
  if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
  if (localStorage.getItem("turn-sound") !== "on") return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (err) { /* no sound here: the buzz and the screen say it */ }
}

let newsTimer = null;

function announceNews(view, first) {
  // The newest public line, the moment it lands (not for what was already there). Never
  // this seat's own secret move: the header is in a neighbour's sight.
  const line = view.log[0];
  const key = line ? `${state.log_length}:${line.text}` : null;
  if (!first && line && !line.private && key !== newest) showNews([line.text, ...line.notes].join(" · "));
  newest = key;
}

function showNews(text) {
  // In the header for 5 s (or until tapped), in place of the table's name and status and in
  // the lines they took: it covers neither the way back nor the connection, and the page
  // does not move.
  const news = document.getElementById("news");
  news.textContent = text;
  news.onclick = () => { clearTimeout(newsTimer); fitNews(false); };
  fitNews(true);
  clearTimeout(newsTimer);
  newsTimer = setTimeout(() => fitNews(false), 5000);
}

function fitNews(shown) {
  // The title box keeps the height of the name and status it stands for (measured again
  // when the phone turns), and the news takes as many lines as fit in it.
  const title = document.querySelector(".top .title");
  const news = document.getElementById("news");
  title.classList.remove("with-news");
  title.style.height = "";
  news.hidden = true;
  if (!shown) return;
  const height = title.getBoundingClientRect().height;
  title.style.height = `${height}px`;
  title.classList.add("with-news");
  news.hidden = false;
  const line = parseFloat(getComputedStyle(news).lineHeight) || 20;
  news.style.webkitLineClamp = String(Math.max(1, Math.floor(height / line)));
}

window.addEventListener("resize", () => {
  if (!document.getElementById("news").hidden) fitNews(true);
});

function renderAnswers(snapshot) {
  // Answers asked of this phone: reactions in a window and private inputs. An answer the game
  // is not waiting for (a Shield, a bluff call) may be passed on.
  const view = snapshot.view;
  const me = snapshot.you.seat;
  const { answers, key } = answersOf(snapshot);
  const awaited = me !== null && view.waiting_for.includes(me);
  const alert = document.getElementById("reaction-alert");
  alert.hidden = answers.length === 0 || passed === key;
  // A secret step of one's own (placing powers, telling a captain) is not an answer to anyone.
  const title = answers.length && answers.every((spec) => spec.kind === "input") ? "Needed from you"
    : awaited ? "Your answer is needed" : "You may answer";
  setChildren(alert, el("strong", {}, title), " ",
    ...answers.map((spec) => el("button", { onclick: () => openSheet(spec, me) }, spec.label)),
    awaited ? null : el("button", { class: "secondary", "data-pass": "", onclick: () => {
      passed = key;
      alert.hidden = true;
      renderTurn(state);
      // said for every phone to see (the player who waits on answers above all); a table
      // that moved on meanwhile makes it moot
      api("POST", `${BASE}/pass`, { expect: snapshot.version }).catch(() => {});
    } }, "Pass"));
}

function factLine(fact, attr) {
  return el("div", { [attr]: fact.key }, fact.value
    ? [el("span", { class: "muted" }, `${fact.label}: `), el("strong", {}, fact.value)] : fact.label,
    fact.detail ? el("div", { class: "muted detail" }, fact.detail) : null);
}

function renderFacts(box, facts) {
  box.hidden = !facts.length;
  setChildren(box, facts.map((fact) => factLine(fact, "data-fact")));
}

function renderPlayers(view) {
  const cards = view.players.map((p) => el("div", {
      class: `player${view.turn === p.seat ? " turn" : ""}${view.waiting_for.includes(p.seat) ? " waiting" : ""}${p.alive ? "" : " dead"}`,
      "data-seat": p.seat },
    el("div", { class: "name" }, p.name, state.you.seat === p.seat ? " (you)" : ""),
    p.facts.map((fact) => el("div", { class: "muted", "data-fact": fact.key },
      fact.value ? `${fact.label}: ${fact.value}` : fact.label)),
    p.alive ? null : el("div", { class: "muted" }, "dead"),
    el("div", { class: "counters" }, p.counters.map((c) =>
      [el("span", { class: "muted" }, c.label),
       el("span", { "data-counter": c.key }, c.value === null ? "?" : c.value)]))));
  setChildren(document.getElementById("players"), ...cards);
}

// --- boards: tap a piece, then one of the cells it may go to ---------------------------
let picking = null;  // {spec, values, board}: a board action being chosen cell by cell

function cellParams(spec, boardId) {
  return spec.params.filter((p) => p.kind === "cell" && p.board === boardId);
}

function allowedValues(param, values) {
  if (!param.depends_on) return param.choices || [];
  const entry = (param.choices_by || []).find(([key]) => key === values[param.depends_on]);
  return entry ? entry[1] : [];
}

function choiceNote(param, value, values) {
  // The line under a choice: by the value of the field it depends on where it depends on it
  // (a square a piece reaches only by claiming a power), or the choice's own.
  if (param.notes_by && param.depends_on) {
    const notes = param.notes_by.find(([key]) => key === values[param.depends_on]);
    const index = allowedValues(param, values).indexOf(value);
    return notes && index >= 0 ? notes[1][index] || "" : "";
  }
  return noteText(param, value);
}

function nextCellParam(spec, boardId, values) {
  return cellParams(spec, boardId).find((p) => values[p.name] === undefined);
}

function startingActions(boardId, cellId) {
  return state.view.actions.filter((spec) => {
    const first = nextCellParam(spec, boardId, {});
    return first && allowedValues(first, {}).includes(cellId);
  });
}

function tapCell(board, cell) {
  if (picking && picking.board === board.id) {
    const param = nextCellParam(picking.spec, board.id, picking.values);
    if (param && allowedValues(param, picking.values).includes(cell.id)) {
      const note = choiceNote(param, cell.id, picking.values);  // what going there takes
      picking.values[param.name] = cell.id;
      if (!nextCellParam(picking.spec, board.id, picking.values)) {
        const { spec, values } = picking;
        picking = null;
        openSheet(spec, state.you.seat, values, note);
      }
      renderBoards(state.view);
      return;
    }
  }
  const specs = startingActions(board.id, cell.id);
  picking = null;
  if (specs.length === 1) {
    picking = { spec: specs[0], values: {}, board: board.id };
    tapCell(board, cell);
  } else if (specs.length > 1) {
    chooseAction(board, cell, specs);
  } else if (cell.pieces.length) {  // nothing to do here: say what stands on it
    banner(`${cell.id}: ${cell.pieces.map((p) => p.title).reverse().join(", then ")}`, "news");
  }
  renderBoards(state.view);
}

const legendsOpen = new Set();  // the boards whose key the player opened (kept across updates)

// A piece's text on a board: on another player's board (two abreast, small) its mark,
// where the game gives one ("Cp" for a Carpenter), since even "Carpent." is cut there.
const pieceText = (piece, small) => (small && piece.mark) || piece.label;

function boardLegend(board, small) {
  // A key to the labels that are not a word of their piece's name ("DW": Ann's Dwarf
  // Warrior), folded away under the board.
  const keys = new Map();
  for (const piece of board.cells.flatMap((c) => c.pieces)) {
    const words = piece.title.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    const text = pieceText(piece, small);
    if (!words.includes(text.toLowerCase())) keys.set(text, piece.title);
  }
  if (!keys.size) return null;
  return el("details", { class: "legend", open: legendsOpen.has(board.id), ontoggle: (event) => {
      if (event.target.open) legendsOpen.add(board.id); else legendsOpen.delete(board.id);
    } }, el("summary", {}, "What the letters mean"),
    el("ul", { class: "list" }, [...keys].sort().map(([label, title]) =>
      el("li", {}, el("strong", {}, label), ` ${title}`))));
}

function chooseAction(board, cell, specs) {
  // Two actions start on this cell: the player says which, then the cells follow.
  openChooser(`${cell.id}: which action?`, specs.map((spec) => [spec.label, () => {
    picking = { spec, values: {}, board: board.id };
    tapCell(board, cell);
  }]));
}

function renderBoards(view) {
  if (picking) {  // the table moved on under a half-made choice: start it again
    const offered = view.actions.find((a) => a.name === picking.spec.name);
    if (!offered || JSON.stringify(offered.params) !== JSON.stringify(picking.spec.params)) picking = null;
  }
  const box = document.getElementById("boards");
  box.hidden = !view.boards.length;
  // The table's boards, then this phone's own, then the others': a player finds their own
  // board in one place, at one size, whoever is playing.
  const rank = (board) => (board.owner === null ? 0 : board.owner === view.seat ? 1 : 2);
  const boards = [...view.boards].sort((a, b) => rank(a) - rank(b));
  setChildren(box, boards.map((board) => {
    const other = board.owner !== null && board.owner !== view.seat;  // drawn small
    const param = picking && picking.board === board.id
      ? nextCellParam(picking.spec, board.id, picking.values) : null;
    const targets = param ? allowedValues(param, picking.values) : [];
    const noteAt = (cellId) => (targets.includes(cellId) ? choiceNote(param, cellId, picking.values) : "");
    const noted = targets.some(noteAt);
    const chosen = picking && picking.board === board.id ? Object.values(picking.values) : [];
    const grid = el("div", { class: "board-grid", role: "grid", "aria-label": board.title,
      style: { gridTemplateColumns: `repeat(${board.cols}, 1fr)` } });
    const turned = board.turned_for.includes(view.seat);  // the player across the board
    for (const cell of board.cells) {
      const starts = !picking && startingActions(board.id, cell.id).length > 0;
      const top = cell.pieces[cell.pieces.length - 1];
      const row = turned ? board.rows - cell.row : cell.row + 1;
      const col = turned ? board.cols - cell.col : cell.col + 1;
      grid.append(el("button", {
        class: `cell ${cell.terrain ? `terrain-${cell.terrain}` : ""}${targets.includes(cell.id) ? " target" : ""}${noteAt(cell.id) ? " noted" : ""}${chosen.includes(cell.id) ? " chosen" : ""}${starts ? " can" : ""}`,
        style: { gridRow: String(row), gridColumn: String(col) },
        "data-cell": cell.id, "data-note": noteAt(cell.id) || null,
        "aria-label": [cell.id, ...cell.pieces.map((p) => p.title), noteAt(cell.id)].filter(Boolean).join(", "),
        onclick: () => tapCell(board, cell) },
        top ? el("span", { class: `piece${top.owner === null ? "" : ` owner-${top.owner}`}`,
                           "data-piece": top.id, title: top.title }, pieceText(top, other),
                  cell.pieces.length > 1 ? el("sup", {}, cell.pieces.length) : null)
          // an empty cell says its name when it has no label of its own: the rules' hints
          // ("a1 +1") and the log name cells
          : el("span", { class: cell.label ? "cell-label" : "cell-label cell-id" }, cell.label || cell.id)));
    }
    const hint = param ? `${picking.spec.label}${chosen.length ? ` (${chosen.join(" to ")})` : ""}:`
      + ` ${param.label.toLowerCase()}${noted ? " (dashed: more than a plain move, said when tapped)" : ""}` : "";
    // One line above the board: its title, or while a move is picked what to tap next (and
    // Cancel). It keeps its height either way, so the board does not move under the finger
    // between its first tap and its second, and no empty strip is kept for a hint.
    const head = hint
      ? el("p", { class: "muted board-hint", role: "status" }, hint, el("button", {
        class: "secondary", onclick: () => { picking = null; renderBoards(state.view); } }, "Cancel"))
      : el("h3", {}, board.title, board.owner === null ? "" : ` (${seatName(board.owner)})`);
    return el("div", { class: `board${other ? " other" : ""}`, "data-board": board.id },
      el("div", { class: "board-head" }, head), grid, boardLegend(board, other));
  }));
}

function renderScoreSheet(view) {
  const box = document.getElementById("score-sheet");
  const sheetData = view.score_sheet;
  box.hidden = !sheetData;
  if (!sheetData) return;
  setChildren(box, el("h3", {}, sheetData.title), scoreTable(sheetData, seatName));
}

function scoreTable(sheetData, columnName) {
  // A score sheet: a row per rule, a column per player (named by columnName(seat)), totals.
  const head = el("tr", {}, el("th", {}, ""), sheetData.columns.map((c) => el("th", {}, columnName(c.seat))));
  const rows = sheetData.rules.map((rule, i) => el("tr", {}, el("th", {}, rule),
    sheetData.columns.map((c) => el("td", {}, c.scores[i] === null ? "–" : c.scores[i]))));
  const total = el("tr", { class: "total" }, el("th", {}, "Total"),
    sheetData.columns.map((c) => el("td", { "data-total": c.seat }, c.total)));
  return el("table", { class: "scores" }, head, rows, total);
}

let votesSeen = false;
// This phone's own vote, on the Table tab that a neighbour glances at: "You have voted", the
// name only on a tap, for a few seconds.
const VOTE_SHOWN_MS = 5000;
let voteShownUntil = 0;

function yourVote(view) {
  if (view.your_vote === null) return null;
  if (Date.now() < voteShownUntil) return el("div", { class: "muted" }, `Your vote: ${seatName(view.your_vote)}`);
  return el("button", { class: "secondary reveal-vote", onclick: () => {
    voteShownUntil = Date.now() + VOTE_SHOWN_MS;
    renderVotes(state.view);
    setTimeout(() => renderVotes(state.view), VOTE_SHOWN_MS + 50);
  } }, "You have voted · tap to see whom");
}

function renderVotes(view) {
  // Votes are secret until all are in; then everyone sees them together, after a countdown.
  const box = document.getElementById("votes");
  const votes = view.votes;
  if (!votes) { box.hidden = true; votesSeen = false; return; }
  box.hidden = false;
  if (votes.shown && !votesSeen) {
    votesSeen = true;
    let count = 3;
    setChildren(box, el("strong", { class: "pin" }, "The votes in 3"));
    const tick = setInterval(() => {
      count -= 1;
      if (count > 0) { box.firstChild.textContent = `The votes in ${count}`; return; }
      clearInterval(tick);
      showVotes();
    }, 1000);
  } else if (votes.shown && !box.querySelector(".pin")) {
    showVotes();
  } else if (!votes.shown) {
    votesSeen = false;
    setChildren(box, el("strong", {}, votes.title), " ",
      `Voted: ${votes.voted.map(seatName).join(", ") || "nobody yet"}`, yourVote(view));
  }
}

function showVotes() {
  const box = document.getElementById("votes");
  const votes = state.view.votes;
  if (!votes || !votes.shown) return;
  setChildren(box, el("strong", {}, votes.title),
    el("ul", { class: "list" }, votes.shown.map((v) =>
      el("li", { "data-vote": v.voter }, `${seatName(v.voter)} → ${v.choice === null ? "nobody" : seatName(v.choice)}`))),
    votes.result ? el("p", {}, votes.result) : null);
}

// This seat's own secret moves (powers placed, a Prologue mark) read in the log only on a
// tap, for a while: a neighbour glances at the Table tab's recent lines too.
const PRIVATE_SHOWN_MS = 10000;
let privateShown = null;  // the text of the one private line uncovered now
let privateTimer = null;

function renderLog(list, lines) {
  setChildren(list, ...lines.map((r) => r.private && privateShown !== r.text
    ? el("li", { class: "private" }, el("button", { class: "secondary", "data-private": "",
      onclick: () => showPrivate(r.text) }, "Your secret move: tap to read"))
    : el("li", { class: r.undo ? "undo" : "" }, r.text,
      r.notes.length ? el("div", { class: "note" }, r.notes.join(" · ")) : null)));
}

function showPrivate(text) {
  privateShown = text;
  clearTimeout(privateTimer);
  privateTimer = setTimeout(() => { privateShown = null; rerenderLogs(); }, PRIVATE_SHOWN_MS);
  rerenderLogs();
}

function rerenderLogs() {
  if (state) renderLog(document.getElementById("recent"), state.view.log);
  if (!document.getElementById("tab-log").hidden) loadHistory();
}

// A seat's secrets stay covered until its player asks (a neighbour sees the screen while
// its player picks a move); uncovered, they cover themselves again after a while. What is
// new since they were last uncovered is marked under the cover only: a count on the button
// would tell a neighbour how many secrets a seat has, or that a mark just came its way.
const SECRETS_SHOWN_MS = 20000;
let secretsShown = false;
let secretsTimer = null;
let secretsSeen = new Set();  // the secrets as they read when last uncovered
let secretsNew = new Set();   // those among them that were not there the time before

function showSecrets(shown) {
  if (shown && !secretsShown) secretsNew = new Set();  // new since this uncovering's last
  secretsShown = shown;
  clearTimeout(secretsTimer);
  if (shown) secretsTimer = setTimeout(() => showSecrets(false), SECRETS_SHOWN_MS);
  if (state) renderMe(state);
}

function renderMe(snapshot) {
  const view = snapshot.view;
  const secrets = document.getElementById("secrets");
  secrets.hidden = view.seat === null;
  if (view.seat !== null) {
    const line = (fact) => `${fact.key}=${fact.value}:${fact.label}`;
    if (secretsShown) {
      if (secretsSeen.size) {  // the first look marks nothing: all of it is new then
        for (const fact of view.secrets) if (!secretsSeen.has(line(fact))) secretsNew.add(line(fact));
      }
      secretsSeen = new Set(view.secrets.map(line));
    }
    // An action whose mere offer is a secret sits with the secrets, covered as they are.
    const covered = view.actions.filter((spec) => spec.covered).map(actionButton);
    const facts = el("div", { id: "secret-facts" }, view.secrets.map((fact) => {
      const shown = factLine(fact, "data-secret");
      if (secretsNew.has(line(fact))) shown.prepend(el("span", { class: "badge" }, "new"));
      return shown;
    }), covered.length ? el("div", { class: "actions", id: "covered-actions" }, covered) : null);
    facts.hidden = !secretsShown;
    // A game with nothing hidden has no secrets to cover (every seat alike: it tells nothing).
    const open = snapshot.seat_secrets === false && !covered.length;
    const you = el("div", { class: "muted" },
      `You are ${seatName(view.seat)}.${open ? "" : " Only this phone sees this."}`);
    if (open) setChildren(secrets, you);
    else setChildren(secrets, you,
      el("button", { class: "big secondary", id: "show-secrets",
        "aria-expanded": String(secretsShown), onclick: () => showSecrets(!secretsShown) },
      secretsShown ? "Hide my secrets" : "Show my secrets"),
      facts);
  }
  setChildren(document.getElementById("take-seat"), ...takeSeat(snapshot));
  const actions = view.actions.filter((spec) => !spec.covered).map(actionButton);
  setChildren(document.getElementById("my-actions"), ...(actions.length ? actions
    : [el("p", { class: "muted" }, snapshot.you.seat === null ? "You are watching."
      : view.ending ? "The game is over."
      : view.players.some((p) => p.seat === view.seat && p.alive === false)
        ? "You are out: nothing to do now." : "Nothing to do right now.")]));
  const sound = document.getElementById("turn-sound");
  sound.hidden = view.seat === null;
  sound.querySelector("input").checked = localStorage.getItem("turn-sound") === "on";
}

function actionButton(spec) {
  // Its name and cost at a glance; what it does in two lines (the whole text is in its sheet).
  return el("button", { class: spec.kind, "data-action": spec.name, onclick: () => openSheet(spec, state.you.seat) },
    el("span", { class: "action-name" }, spec.label),
    spec.cost ? el("span", { class: "cost" }, `Costs ${spec.cost}`) : null,
    spec.note ? el("div", { class: "muted action-note" }, spec.note) : null);
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
  link.href = link.textContent = `${app.dataset.joinUrl}?join=${host.join_code}`;
  // The game's own steps, then the rulings with which the table overrides the rules.
  const button = (spec) =>
    el("button", { "data-action": spec.name, onclick: () => openSheet(spec, null) }, spec.label);
  for (const [id, ruling] of [["host-actions", false], ["host-rulings", true]]) {
    const specs = host.actions.filter((spec) => Boolean(spec.ruling) === ruling);
    setChildren(document.getElementById(id), ...specs.map(button));
    document.getElementById(`${id}-box`).hidden = !specs.length;
  }
  setChildren(document.getElementById("host-seats"), ...snapshot.seats.map((name, seat) =>
    el("li", { class: "row" }, el("span", {}, name),
      snapshot.taken_seats.includes(seat)
        ? el("button", { class: `secondary${releasing === seat ? " confirm" : ""}`, "data-release": seat,
          onclick: () => release(seat) },
          releasing === seat ? `Tap again to free ${seatName(seat)}` : "Free this seat")
        : snapshot.ended ? el("span", { class: "muted" }, "free")
        : el("button", { class: `secondary${sitting === seat ? " confirm" : ""}`, "data-sit": seat,
          onclick: () => moveHostTo(seat) },
          sitting === seat ? `Tap again: this phone becomes ${seatName(seat)}'s`
            : snapshot.you.seat === null ? "Free: sit here" : `Free: sit here (leave ${seatName(snapshot.you.seat)}'s)`))));
  // The last step stays in sight; one that showed something hidden asks why before an undo
  // (a wrong input is always corrected: a table is never stuck with it).
  document.getElementById("undo-box").hidden = snapshot.ended || !host.last;
  document.getElementById("undo").hidden = !host.can_undo;
  document.getElementById("undo-reason-box").hidden = !host.undo_needs_reason;
  document.getElementById("last-action").textContent = host.last || "";
  document.getElementById("end-table").disabled = snapshot.ended;
}

// --- the action sheet: fields from the engine's spec, a preview, then the action --------
function openSheet(spec, seat, values, note = "") {
  // note: what the chosen squares take (a board's note), said with the action's own note
  // A field not asked (a tile's sticker number) is the camera's to give, never a player's.
  const hidden = spec.params.filter((p) => p.asked === false);
  spec = { ...spec, params: spec.params.filter((p) => p.asked !== false) };
  sheet = { spec, seat, hidden, values: { ...(values || {}) }, typed: new Set(), previewed: false, busy: false };
  for (const p of spec.params) {
    if (sheet.values[p.name] === undefined && p.default !== undefined) sheet.values[p.name] = structuredClone(p.default);
  }
  for (const p of spec.params) if (!values || values[p.name] === undefined) startAt(p);
  document.getElementById("sheet-title").textContent = spec.label;
  document.getElementById("sheet-note").textContent = [spec.cost ? `Costs ${spec.cost}.` : "", spec.note,
    note ? `${note}.` : ""].filter(Boolean).join(" ");
  drawFields();
  document.getElementById("sheet-preview").textContent = "";
  document.getElementById("sheet-error").textContent = "";
  document.getElementById("sheet-go").textContent = "Preview";
  document.getElementById("sheet").hidden = false;
}

function drawFields() {
  setChildren(document.getElementById("sheet-form"), ...sheet.spec.params.map(fieldFor));
}

function openChooser(title, options) {
  // A short list of buttons in the sheet: choose one, and the sheet closes.
  sheet = { spec: { name: "", params: [] }, seat: null, values: {}, previewed: false, busy: true };
  document.getElementById("sheet-title").textContent = title;
  document.getElementById("sheet-note").textContent = "";
  setChildren(document.getElementById("sheet-form"), el("div", { class: "choice-group" },
    options.map(([label, choose]) => el("button", { type: "button", onclick: () => { closeSheet(); choose(); } }, label))));
  document.getElementById("sheet-preview").textContent = "";
  document.getElementById("sheet-error").textContent = "";
  document.getElementById("sheet-go").hidden = true;
  document.getElementById("sheet").hidden = false;
}

function closeSheet() {
  sheet = null;
  document.getElementById("sheet").hidden = true;
  document.getElementById("sheet-go").hidden = false;
}

function changed(param) {
  sheet.previewed = false;
  document.getElementById("sheet-go").textContent = "Preview";
  document.getElementById("sheet-preview").textContent = "";
  // A field not asked that goes with this one (the number the camera read with a tile's
  // side) is the camera's reading no more once the player changes what it read.
  for (const p of sheet.hidden || []) if (p.depends_on === param.name) delete sheet.values[p.name];
  // Fields whose choices depend on this one: drop a value that no longer fits, draw again.
  const dependents = sheet.spec.params.filter((p) => p.depends_on === param.name);
  for (const p of dependents) {
    if (!allowedValues(p, sheet.values).includes(sheet.values[p.name])) delete sheet.values[p.name];
  }
  // Numbers that start at what they are now (a counter's value) for this choice: set again.
  const restarted = sheet.spec.params.filter((p) => (p.starts_on || []).includes(param.name) && startAt(p));
  if (dependents.length || restarted.length) drawFields();
}

function startAt(param) {
  // A number that starts at what it is now, once the parameters it depends on are chosen;
  // a number the player typed is theirs, and stays.
  if (!param.starts_on || sheet.typed.has(param.name)) return false;
  const key = param.starts_on.map((name) => sheet.values[name]);
  const entry = (param.starts_by || []).find(([on]) => on.every((v, i) => v === key[i]));
  if (!entry) return false;
  sheet.values[param.name] = entry[1];
  return true;
}

function choiceLabel(param, value) {
  return param.kind === "seat" ? seatName(value) : labelOf(param, value);
}

function fieldFor(param) {
  const box = el("div", { class: "field", "data-param": param.name }, el("label", {}, param.label));
  if (param.kind === "seat" || param.kind === "choice" || param.kind === "cell") {
    const values = allowedValues(param, sheet.values);
    const short = (value) => String(choiceLabel(param, value)).length <= 4;
    // A dozen or more short choices (squares) fit six to a row, not two: less to scroll.
    const compact = values.length >= 12 && values.filter(short).length >= values.length - 2;
    // Squares named like chess ("b6") stand in their file's column, as on the board, a
    // board's missing corners left empty.
    const fileOf = (value) => {
      const square = /^([a-z])\d+$/.exec(String(choiceLabel(param, value)));
      return square ? square[1].charCodeAt(0) - 96 : 0;
    };
    const files = compact ? Math.max(0, ...values.map(fileOf)) : 0;
    const group = el("div", { class: compact ? "choice-group compact" : "choice-group",
      style: files >= 6 ? { gridTemplateColumns: `repeat(${files}, 1fr)` } : null });
    for (const value of values) {
      group.append(el("button", { type: "button", "aria-pressed": String(sheet.values[param.name] === value),
        class: compact && !short(value) ? "wide" : "",
        style: files >= 6 && fileOf(value) ? { gridColumn: String(fileOf(value)) } : null,
        "data-value": value, onclick: (e) => {
          sheet.values[param.name] = value;
          for (const b of group.children) b.setAttribute("aria-pressed", String(b === e.currentTarget));
          changed(param);
        } }, choiceLabel(param, value), noteLine(choiceNote(param, value, sheet.values))));
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
          changed(param);
        } }, labelOf(param, value), noteOf(param, value)));
    });
    box.append(group);
  } else if (param.kind === "number") {
    const input = el("input", { type: "number", inputmode: "numeric", min: param.min, max: param.max,
      value: sheet.values[param.name] ?? param.min ?? 0,
      oninput: (e) => {
        sheet.values[param.name] = Number(e.target.value);
        sheet.typed.add(param.name);
        changed(param);
      } });
    sheet.values[param.name] = Number(input.value);
    box.append(input);
  } else if (param.kind === "flag") {
    box.append(el("input", { type: "checkbox", checked: sheet.values[param.name] === true,
      onchange: (e) => { sheet.values[param.name] = e.target.checked; changed(param); } }));
  } else {
    box.append(el("input", { maxlength: param.max, value: sheet.values[param.name] || "",
      oninput: (e) => { sheet.values[param.name] = e.target.value; changed(param); } }));
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
      const shown = document.getElementById("sheet-preview");
      shown.textContent = preview.text;
      // What will be logged must be read before Confirm: in a long sheet it sat under the
      // buttons, cut off.
      shown.scrollIntoView({ block: "nearest" });
      document.getElementById("sheet-go").textContent = "Confirm";
      sheet.previewed = true;
    } else {
      await api("POST", `${BASE}/actions`, request());
      closeSheet();
    }
  } catch (err) {
    // The reason in players' words; the engine's own sentence one tap away.
    setChildren(error, err.message, err.detail ? el("details", {}, el("summary", {}, "Why?"),
      el("div", { class: "muted" }, err.detail)) : null);
    if (err.error === "stale") refresh();
  } finally {
    if (sheet) sheet.busy = false;
  }
}

function checkSheetStillLegal() {
  const list = sheet.seat === null ? (state.host ? state.host.actions : []) : state.view.actions;
  if (!list.some((a) => a.name === sheet.spec.name)) {
    closeSheet();
    banner("That action is no longer open: the table moved on.");
  }
}

let bannerTimer = null;

function banner(text, kind = "") {
  const node = document.getElementById("banner");
  node.textContent = text;
  node.className = `banner ${kind}`;
  node.hidden = false;
  node.onclick = () => { node.hidden = true; };  // a tap clears it off the header at once
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { node.hidden = true; }, 5000);
}

// --- host tools and the log --------------------------------------------------------------
let releasing = null;  // the seat whose "Free this seat" was tapped once (for 5 s)

async function release(seat) {
  // Two taps: one mis-tap must not drop a player from a game in progress.
  if (releasing !== seat) {
    releasing = seat;
    renderHost(state);
    setTimeout(() => { if (releasing === seat) { releasing = null; renderHost(state); } }, 5000);
    return;
  }
  releasing = null;
  try { await api("POST", `${BASE}/seats/${seat}/release`, {}); } catch (err) { banner(err.message); }
}

async function loadHistory() {
  try {
    const lines = await api("GET", `${BASE}/history`);
    renderLog(document.getElementById("history"), lines.reverse());  // the newest first
  } catch (err) { banner(err.message); }
}

async function loadRules() {
  const box = document.getElementById("rules-text");
  if (box.textContent) return;  // a table's rules do not change while it is open
  try {
    const rules = await api("GET", `${BASE}/rules`);
    setChildren(document.getElementById("rules-house-list"), ...rules.house.map((line) => el("li", {}, line)));
    document.getElementById("rules-house").hidden = !rules.house.length;
    box.textContent = rules.text;
  } catch (err) { banner(err.message); }
}

// A plain undo, or (a step that showed something hidden) one with a reason every log shows.
async function undo(withReason) {
  const field = document.getElementById("undo-reason");
  const reason = withReason ? field.value.trim() : "";
  if (withReason && !reason) { banner("Say why it is undone: every phone's log shows it."); field.focus(); return; }
  const asked = withReason ? "Everyone has seen what it showed; the log says why." : "Everyone sees that it was undone.";
  if (!confirm(`Undo "${state.host.last}"? ${asked}`)) return;
  try {
    await api("POST", `${BASE}/undo`, { expect: state.version, ...(withReason ? { reason } : {}) });
    field.value = "";
    loadHistory();
  } catch (err) { banner(err.message); }
}

async function endTable() {
  if (!confirm("End this table? It stays readable, but nobody can act any more.")) return;
  try { await api("POST", `${BASE}/end`, {}); } catch (err) { banner(err.message); }
}

async function exportLog() {
  try {
    const data = await api("GET", `${BASE}/export`);
    // An ended table's whole log is a transcript (JSON Lines) that `companion replay` plays;
    // a phone's own view of the log is kept as it came.
    const transcript = Array.isArray(data.actions);
    const text = transcript ? [data.setup, ...data.actions].map((line) => JSON.stringify(line)).join("\n") + "\n"
      : JSON.stringify(data, null, 1);
    const blob = new Blob([text], { type: transcript ? "application/jsonl" : "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob),
      download: `table-${TABLE}.${transcript ? "jsonl" : "json"}` });
    link.click();
  } catch (err) { banner(err.message); }
}

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${name}`;
  for (const b of document.querySelectorAll("#nav button")) b.classList.toggle("on", b.dataset.tab === name);
  if (name === "log") loadHistory();
  if (name !== "me" && secretsShown) showSecrets(false);
}

// --- start -------------------------------------------------------------------------------
async function start() {
  if (hostCode) {
    const code = hostCode;
    hostCode = null;
    try {
      await api("POST", `${BASE}/host`, { code });
      banner("This phone is the host now: the Host tab has the table's tools.");
    } catch (err) { banner(err.message); }
  }
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
document.getElementById("undo").addEventListener("click", () => undo(false));
document.getElementById("undo-anyway").addEventListener("click", () => undo(true));
document.getElementById("rules-box").addEventListener("toggle", (e) => {
  if (e.target.open) loadRules();
});
document.getElementById("end-table").addEventListener("click", endTable);
document.getElementById("export").addEventListener("click", exportLog);
document.getElementById("watch").addEventListener("click", () => join(null));
document.querySelector("#turn-sound input").addEventListener("change", (e) => {
  localStorage.setItem("turn-sound", e.target.checked ? "on" : "off");
});

document.addEventListener("DOMContentLoaded", start);  // after extras.js has loaded
