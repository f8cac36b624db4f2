// A match: one websocket to the server, which sends each seat this browser holds its own view.
// The seats' tokens come from the link's fragment (#t=TOKEN,...), never sent in a URL, and are
// kept in this browser (localStorage) so that a closed tab opened again returns to its seats.
// Every text from the server is inserted as text; the board's SVG (drawn by the server, which
// escapes every text in it) is parsed as SVG and its scripts, if any, never run: the page's
// Content Security Policy allows only this file.
"use strict";

const $ = (id) => document.getElementById(id);
const matchId = decodeURIComponent(location.pathname.split("/")[2] || "");
const storeKey = `rulewright-match-${matchId}`;

function tokensFromLink() {
  const found = /(?:^|[#&])t=([A-Za-z0-9_,-]*)/.exec(location.hash);
  if (found) {
    const tokens = found[1].split(",").filter(Boolean);
    try { localStorage.setItem(storeKey, JSON.stringify(tokens)); } catch (e) { /* private mode */ }
    history.replaceState(null, "", location.pathname); // the token leaves the address bar
    return tokens;
  }
  try { return JSON.parse(localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; }
}

const tokens = tokensFromLink();
let socket = null;
let version = 0;
let views = {};         // seat key -> the latest view
let logs = {};          // seat key -> every log line received
let shown = null;       // the seat key on screen
let ready = null;       // hot-seat: the seat key whose player said "ready"
let waitingForReply = false;
let retry = 0;
let fit = false;

// A label as words: an id the rules name a value by (`event_first`) is shown as `event first`;
// the label itself is what a move sends.
function words(text) {
  return String(text).replace(/(\w)_(?=\w)/g, "$1 ");
}

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  $("connection").textContent = "connecting…";
  socket.addEventListener("open", () => {
    retry = 0;
    $("connection").textContent = "";
    logs = {};
    socket.send(JSON.stringify({ type: "hello", match: matchId, tokens }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    $("connection").textContent = "connection lost: reconnecting…";
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 400 * retry);
  });
}

function receive(message) {
  if (message.type === "error") {
    $("error").textContent = message.message;
    waitingForReply = false;
    render();
    return;
  }
  if (message.type !== "state") return;
  $("error").textContent = "";
  waitingForReply = false;
  version = message.version;
  for (const [key, view] of Object.entries(message.views)) {
    const lines = logs[key] || [];
    lines.length = Math.min(lines.length, view.log_at);
    lines.push(...view.log);
    logs[key] = lines;
    views[key] = view;
  }
  choose();
  render();
}

// Which seat is on screen: the one asked (hot-seat: the first of ours asked), else the one shown.
function choose() {
  const keys = Object.keys(views);
  const asked = keys.filter((k) => views[k].asked);
  if (asked.length && !asked.includes(shown)) shown = asked[0];
  if (shown === null || !keys.includes(shown)) shown = keys[0];
}

function render() {
  const view = views[shown];
  if (!view) return;
  const humans = Object.keys(views).filter((k) => k !== "spectator");
  const hotSeat = humans.length > 1;
  document.title = `${view.title}: ${view.name}`;
  $("title").textContent = view.title;
  $("seatname").textContent = view.seat === null ? "Watching" : `You are ${view.name}`;
  $("waiting").textContent = view.over ? "" : words(view.waiting || view.status);
  // hot-seat: a new player's view stays hidden until they say they are ready
  const cover = hotSeat && !view.over && ready !== shown;
  $("cover").hidden = !cover;
  $("coverline").textContent = `Pass the screen to ${view.name}. ${view.name}: press Ready when the others look away.`;
  document.body.classList.toggle("covered", cover);
  if (cover) {
    $("board").replaceChildren();
    $("options").replaceChildren();
    $("log").replaceChildren();
    $("zones").replaceChildren();
    $("counters").replaceChildren();
    $("effects").replaceChildren();
    $("prompt").textContent = "";
    return;
  }
  drawBoard(view);
  const prompt = view.prompt.charAt(0).toUpperCase() + view.prompt.slice(1);
  $("prompt").textContent = view.asked ? words(prompt) : view.queued ? "Your answer is in; waiting for the others." : "";
  const options = $("options");
  options.replaceChildren();
  if (view.asked) {
    view.options.forEach((label, i) => {
      const b = el("button", words(label), { type: "button", "data-option": String(i), "data-label": label });
      b.disabled = waitingForReply;
      b.addEventListener("click", () => send(view.seat, label));
      options.append(b);
    });
  }
  drawZones(view);
  const counters = $("counters");
  counters.replaceChildren();
  for (const [name, text] of view.counters) counters.append(el("dt", name), el("dd", text));
  $("effects").replaceChildren(...view.effects.map((e) => el("li", e)));
  if (!view.effects.length) $("effects").append(el("li", "none", { class: "none" }));
  const log = $("log");
  const lines = logs[shown] || [];
  log.replaceChildren(...lines.map((line) => el("li", words(line))));
  log.scrollTop = log.scrollHeight;
  $("result").hidden = !view.over;
  $("result").textContent = view.over ? `Game over: ${words(view.result)}` : "";
  $("download").hidden = !view.over;
}

// The zones: this seat's own first, then the shared ones, then the others' (face down: a count).
function drawZones(view) {
  const box = $("zones");
  box.replaceChildren();
  const rank = (z) => (z.owner === view.seat ? 0 : z.owner < 0 ? 1 : 2);
  const zones = view.zones.map((z, i) => [rank(z), i, z]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [, , z] of zones) {
    const section = el("section", null, { class: "zone" + (z.owner === view.seat ? " own" : "") });
    const heading = z.cards === null ? `${z.title}: ${z.count} face down` : `${z.title} (${z.count})`;
    section.append(el("h3", heading));
    if (z.cards !== null && z.cards.length) {
      const list = el("ul", null, { class: "cards" });
      for (const [label, value, text, count] of z.cards) {
        const li = el("li", null, { class: "card" });
        const option = view.asked ? view.options.indexOf(label) : -1;
        if (option >= 0) { // a card the decision offers: clicking it plays it
          li.classList.add("pickable");
          li.title = `choose ${label}`;
          li.addEventListener("click", () => send(view.seat, label));
        }
        li.append(el("b", label + (count > 1 ? ` ×${count}` : "")));
        if (value !== "") li.append(el("span", value, { class: "value" }));
        if (text) li.append(el("small", text));
        list.append(li);
      }
      section.append(list);
    }
    box.append(section);
  }
}

function drawBoard(view) {
  const board = $("board");
  if (view.svg === undefined) return;
  const parsed = new DOMParser().parseFromString(view.svg, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.nodeName !== "svg") return;
  const picture = document.importNode(root, true);
  picture.classList.toggle("fit", fit);
  const named = new Map(); // a place's label -> the options naming it
  if (view.asked) {
    view.places.forEach((labels, i) => {
      for (const label of labels) {
        if (!named.has(label)) named.set(label, []);
        named.get(label).push(i);
      }
    });
  }
  for (const title of picture.querySelectorAll("g > title")) {
    const label = title.textContent.split(" · ")[0];
    // a place an option names, or a spot drawn for an option (an open cell): its title is the option
    const exact = view.asked && !named.has(label) ? view.options.indexOf(title.textContent) : -1;
    const choices = exact >= 0 ? [exact] : named.get(label);
    if (!choices) continue;
    const group = title.parentNode;
    group.classList.add("pickable");
    group.dataset.place = label;
    group.addEventListener("click", () => pickPlace(view, choices));
  }
  board.replaceChildren(picture);
}

function pickPlace(view, choices) {
  if (choices.length === 1) {
    send(view.seat, view.options[choices[0]]);
    return;
  }
  for (const b of document.querySelectorAll("#options button")) {
    b.classList.toggle("named", choices.includes(Number(b.dataset.option)));
  }
  const first = document.querySelector("#options button.named");
  if (first) first.scrollIntoView({ block: "nearest" });
}

function send(seat, action) {
  if (waitingForReply || !socket || socket.readyState !== WebSocket.OPEN) return;
  waitingForReply = true;
  for (const b of document.querySelectorAll("#options button")) b.disabled = true;
  socket.send(JSON.stringify({ type: "move", seat, version, action }));
}

function post(path) {
  const form = $("post");
  form.action = `/m/${encodeURIComponent(matchId)}/${path}`;
  $("posttoken").value = tokens.join(",");
  form.submit();
}

$("ready").addEventListener("click", () => { ready = shown; render(); });
$("replay").addEventListener("click", () => post("replay"));
$("download").addEventListener("click", () => post("log"));
$("zoom").addEventListener("click", () => {
  fit = !fit;
  $("zoom").textContent = fit ? "Full size" : "Fit board";
  const svg = document.querySelector("#board svg");
  if (svg) svg.classList.toggle("fit", fit);
});

connect();
