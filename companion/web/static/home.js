// Home: the open tables, and the form that creates one (its creator becomes the host).
"use strict";

let games = [];

async function loadTables() {
  const list = document.getElementById("tables");
  try {
    const tables = await api("GET", "/api/tables");
    setChildren(list, ...(tables.length ? tables.map((t) =>
      el("li", {}, el("a", { href: `/t/${t.id}` }, t.name, " ",
        el("span", { class: "muted" }, `${t.title}, ${t.seats.length} players`))))
      : [el("li", { class: "muted" }, "No table yet: create one below.")]));
  } catch (err) {
    setChildren(list, el("li", { class: "error" }, err.message));
  }
}

function seatInputs() {
  return [...document.querySelectorAll("#seat-names input")];
}

function setSeats(count) {
  const box = document.getElementById("seat-names");
  const names = seatInputs().map((i) => i.value);
  setChildren(box, el("legend", {}, "Players, in seating order (clockwise)"));
  for (let i = 0; i < count; i++) {
    box.append(el("label", {}, `Player ${i + 1}`,
      el("input", { name: `seat${i}`, maxlength: 24, required: true, value: names[i] || "",
                    placeholder: "Name", oninput: namesChanged })));
  }
  namesChanged();
}

function namesChanged() {
  // A "who" option offers the names as typed.
  const names = seatInputs().map((input, i) => input.value.trim() || `Player ${i + 1}`);
  for (const select of document.querySelectorAll("#options select[data-kind=seat]")) {
    const chosen = select.value || select.dataset.default;
    setChildren(select, el("option", { value: "random" }, "Random"),
      names.map((name, i) => el("option", { value: i, selected: String(i) === String(chosen) }, name)));
  }
}

function optionControl(option) {
  if (option.kind === "flag") {
    return el("label", { class: "row" }, option.label,
      el("input", { type: "checkbox", name: option.name, "data-kind": "flag",
                    checked: option.default === true }));
  }
  if (option.kind === "choices") {
    return el("fieldset", { "data-kind": "choices", "data-name": option.name },
      el("legend", {}, option.label),
      option.choices.map((c) => el("label", { class: "row" }, labelOf(option, c),
        el("input", { type: "checkbox", value: c }))));
  }
  if (option.kind === "seat") {
    // A player, by the names typed above, or chosen at random now.
    return el("label", {}, option.label, el("select", { name: option.name, "data-kind": "seat",
      "data-default": option.default ?? "" }));
  }
  if (option.kind === "choice") {
    return el("label", {}, option.label, el("select", { name: option.name, "data-kind": "choice" },
      option.choices.map((c) => el("option", { value: c, selected: c === option.default }, labelOf(option, c)))));
  }
  if (option.kind === "number") {
    return el("label", {}, option.label, el("input", { type: "number", name: option.name,
      "data-kind": "number", min: option.min, max: option.max, value: option.default ?? "" }));
  }
  return el("label", {}, option.label, el("input", { name: option.name, "data-kind": "text",
    maxlength: option.max, value: option.default ?? "" }));
}

function chooseGame() {
  const game = games.find((g) => g.slug === document.getElementById("game").value);
  document.getElementById("table-setup").hidden = !game;
  document.getElementById("game-summary").textContent = game
    ? `${game.min_players === game.max_players ? game.min_players
      : `${game.min_players} to ${game.max_players}`} players. ${game.summary}` : "";
  if (!game) return;
  setChildren(document.getElementById("options"), el("legend", {}, "Options"),
    ...game.options.map(optionControl));
  document.getElementById("options").hidden = !game.options.length;
  setChildren(document.getElementById("reading-controls"), ...game.house_readings.map(optionControl));
  document.getElementById("readings").hidden = !game.house_readings.length;
  const dealt = document.getElementById("dealt-by-hand");
  dealt.hidden = !game.deals_by_hand;
  if (dealt.hidden) dealt.querySelector("input").checked = false;
  setSeats(Math.max(game.min_players, Math.min(seatInputs().length || game.min_players, game.max_players)));
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-kind]:is(input, select)")) {
    if (input.dataset.kind === "flag") options[input.name] = input.checked;
    else if (input.dataset.kind === "number" && input.value !== "") options[input.name] = Number(input.value);
    else if (input.value) options[input.name] = input.value;
  }
  for (const set of document.querySelectorAll("#options fieldset[data-kind=choices]")) {
    options[set.dataset.name] = [...set.querySelectorAll("input:checked")].map((i) => i.value);
  }
  for (const select of document.querySelectorAll("#options select[data-kind=seat]")) {
    options[select.name] = select.value === "random"
      ? Math.floor(Math.random() * seatInputs().length) : Number(select.value);
  }
  return options;
}

// The house readings changed from the companion's, nested by their data keys as the option
// "house" takes them ("moves.sidewinder" -> {moves: {sidewinder: ...}}); null if none.
function readHouse() {
  const game = games.find((g) => g.slug === document.getElementById("game").value);
  let house = null;
  for (const reading of game ? game.house_readings : []) {
    const input = document.querySelector(`#reading-controls [name="${reading.name}"]`);
    const value = reading.kind === "flag" ? input.checked
      : reading.kind === "text" ? input.value.trim() : input.value;
    if (value === reading.default || value === "") continue;  // a name left blank keeps its own
    house = house || {};
    const parts = reading.name.split(".");
    let at = house;
    for (const part of parts.slice(0, -1)) at = at[part] = at[part] || {};
    at[parts[parts.length - 1]] = value;
  }
  return house;
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const error = document.getElementById("new-error");
  error.textContent = "";
  try {
    const house = readHouse();
    const table = await api("POST", "/api/tables", {
      game: form.game.value, name: form.name.value,
      seats: seatInputs().map((i) => i.value.trim()),
      options: house ? { ...readOptions(), house } : readOptions(),
      dealt_by_hand: form.dealt_by_hand.checked });
    location.href = `/t/${table.id}`;
  } catch (err) {
    error.textContent = err.message;
  }
}

async function start() {
  games = await api("GET", "/api/games");
  const select = document.getElementById("game");
  setChildren(select, el("option", { value: "" }, "Choose a game…"),
    ...games.map((g) => el("option", { value: g.slug }, g.title)));
  select.addEventListener("change", chooseGame);
  chooseGame();
  document.getElementById("add-seat").addEventListener("click", () => {
    const game = games.find((g) => g.slug === select.value);
    setSeats(Math.min(seatInputs().length + 1, game.max_players));
  });
  document.getElementById("remove-seat").addEventListener("click", () => {
    const game = games.find((g) => g.slug === select.value);
    setSeats(Math.max(seatInputs().length - 1, game.min_players));
  });
  document.getElementById("new-table").addEventListener("submit", create);
  loadTables();
}

start();
