// Shared by the pages: JSON calls to the API, with its error shape.
"use strict";

async function api(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw { status: 0, error: "offline", message: "the companion cannot be reached" };
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw { status: response.status, error: data.error || "error",
            message: data.message || response.statusText, detail: data.detail || "" };
  }
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "style") Object.assign(node.style, value);  // the page's CSP forbids style attributes
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

function words(name) {
  return String(name).replace(/_/g, " ");
}

function labelOf(param, value) {
  // What a player reads for one of a parameter's choices: the game's label, else the value.
  const index = (param.choices || []).indexOf(value);
  return param.labels && index >= 0 ? param.labels[index] : words(value);
}

function noteText(param, value) {
  // The line under one of a parameter's choices (what a power does), or "".
  const index = (param.choices || []).indexOf(value);
  return (param.notes && index >= 0 && param.notes[index]) || "";
}

function noteLine(text) {
  return text ? el("div", { class: "muted choice-note" }, text) : null;
}

function noteOf(param, value) {
  return noteLine(noteText(param, value));
}

function setChildren(node, ...children) {
  // Like replaceChildren, but leaves out null, undefined and false (an optional part).
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}
