// The lobby: the games and their options, the seats of a new match, the latest matches.
// Every text from the server is inserted as text (textContent), never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];
let bots = [];

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function current() {
  return games.find((g) => g.name === $("game").value);
}

function playerCount(g) {
  if (!g.players_option) return g.players[0];
  const input = document.querySelector(`[data-option="${CSS.escape(g.players_option)}"]`);
  return input ? Number(input.value) : g.players[0];
}

function showOptions() {
  const g = current();
  const box = $("options");
  box.replaceChildren(el("legend", "Options"));
  const counts = g.players.length === 1 ? `${g.players[0]} players` : `${g.players[0]}-${g.players[g.players.length - 1]} players`;
  $("about").textContent = `${g.title}: ${counts}${g.source === "workspace" ? " (this workspace)" : ""}`;
  if (!g.options.length) box.append(el("p", "none", { class: "none" }));
  for (const o of g.options) {
    const label = el("label", o.name + " ");
    let input;
    if (o.type === "bool") {
      input = el("input", null, { type: "checkbox" });
      input.checked = Boolean(o.default);
    } else if (o.choices && o.choices.length) {
      input = el("select");
      for (const c of o.choices) input.append(el("option", c, { value: String(c) }));
      input.value = String(o.default);
    } else {
      input = el("input", null, { type: "number", step: "1" });
      input.value = String(o.default);
    }
    input.dataset.option = o.name;
    input.dataset.kind = o.type;
    input.addEventListener("change", showSeats);
    label.append(input);
    if (o.doc) label.append(el("small", " " + o.doc));
    box.append(label);
  }
  showSeats();
}

function showSeats() {
  const g = current();
  const n = playerCount(g);
  const names = g.names[String(n)] || Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
  const box = $("seats");
  box.replaceChildren(el("legend", "Seats"));
  names.forEach((name, i) => {
    const label = el("label", name + " ");
    const select = el("select", null, { "data-seat": String(i) });
    select.append(el("option", "me, in this browser", { value: "here" }));
    select.append(el("option", "a friend, invited by a link", { value: "link" }));
    for (const b of bots) select.append(el("option", `bot: ${b}`, { value: b }));
    select.value = i === 0 ? "here" : bots[0] || "link";
    label.append(select);
    box.append(label);
  });
}

function options() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") out[input.dataset.option] = input.checked;
    else if (kind === "int") out[input.dataset.option] = Number(input.value);
    else out[input.dataset.option] = input.value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  $("error").textContent = "";
  const g = current();
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  const response = await fetch("/api/matches", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: g.name, options: options(), seats }),
  });
  if (!response.ok) {
    $("error").textContent = await response.text();
    return;
  }
  const made = await response.json();
  $("open").href = made.here;
  $("open").textContent = made.here.includes("#t=") ? "Open the match (your seats)" : "Watch the match";
  const invites = $("invites");
  invites.replaceChildren();
  for (const s of made.seats) {
    if (s.kind !== "link") continue;
    const row = el("p", `Invite for ${s.name}: `, { class: "invite" });
    const input = el("input", null, { readonly: "", size: "60", "data-invite": s.name });
    input.value = new URL(s.link, location.href).href;
    const copy = el("button", "Copy", { type: "button" });
    copy.addEventListener("click", () => {
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
    });
    row.append(input, copy);
    invites.append(row);
  }
  $("made").hidden = false;
  listMatches();
}

async function listMatches() {
  const response = await fetch("/api/matches");
  if (!response.ok) return;
  const { matches } = await response.json();
  const body = document.querySelector("#matches tbody");
  body.replaceChildren();
  for (const m of matches) {
    const tr = el("tr");
    const state = m.broken ? "cannot go on" : m.result ? m.result : "running";
    const watch = el("a", m.result ? "Review" : "Watch", { href: `/m/${encodeURIComponent(m.id)}` });
    for (const cell of [m.title, m.seats.join(", "), m.decisions, state]) tr.append(el("td", cell));
    const td = el("td");
    td.append(watch);
    tr.append(td);
    body.append(tr);
  }
}

async function start() {
  const response = await fetch("/api/games");
  const data = await response.json();
  games = data.games;
  bots = data.bots;
  for (const g of games) $("game").append(el("option", g.title, { value: g.name }));
  $("game").addEventListener("change", showOptions);
  $("create").addEventListener("submit", create);
  showOptions();
  listMatches();
  setInterval(listMatches, 5000);
}

start();
