// The replay page's script: reads the frames (rulewright/replay_html.py describes their encoding)
// and shows one step from one perspective. Every text is inserted with textContent; only the
// board's SVG markup, which rulewright checked, is inserted as markup.
"use strict";

(() => {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const strings = data.strings;
  const meta = data.meta;
  const views = data.views;
  const lastStep = meta.steps;
  const SPEED_MS = 700; // one step per this many milliseconds while playing

  const byId = (id) => document.getElementById(id);
  const ui = {
    title: byId("title"),
    about: byId("about"),
    first: byId("first"),
    prev: byId("prev"),
    play: byId("play"),
    next: byId("next"),
    last: byId("last"),
    slider: byId("slider"),
    stepinfo: byId("stepinfo"),
    perspective: byId("perspective"),
    fit: byId("fit"),
    whose: byId("whose"),
    picture: byId("picture"),
    background: byId("background"),
    groups: byId("groups"),
    status: byId("status"),
    asked: byId("asked"),
    prompt: byId("prompt"),
    options: byId("options"),
    effects: byId("effectlist"),
    logcount: byId("logcount"),
    log: byId("loglines"),
  };

  // ---- frames -> steps ---------------------------------------------------------------------

  const text = (id) => (id >= 0 && id < strings.length ? strings[id] : "");
  const markup = (ids) => ids.map(text).join("");

  /** Every step of a view in full, from its frames (frame 0 whole, then what changed). */
  function expand(view) {
    const steps = [];
    let cur = { w: 0, h: 0, bg: "", order: [], groups: new Map(), effects: [] };
    for (const f of view.frames) {
      const step = {
        w: f.w ?? cur.w,
        h: f.h ?? cur.h,
        bg: f.bg ? markup(f.bg) : cur.bg,
        order: f.o ? f.o.map(text) : cur.order,
        groups: cur.groups,
        effects: f.e ? f.e.map(text) : cur.effects,
        logCount: f.n,
        status: text(f.s),
        asked: f.a,
        prompt: text(f.p),
        options: f.x ? f.x.map(text) : [],
        chosen: f.c ?? -1,
      };
      if (f.g) {
        step.groups = new Map(cur.groups); // a Map: a group's id is never taken for a property
        for (const [gid, ids] of Object.entries(f.g)) {
          step.groups.set(gid, markup(ids));
        }
      }
      steps.push(step);
      cur = step;
    }
    return steps;
  }

  const expanded = new Map(); // view index -> its steps, made when first shown
  function stepsOf(v) {
    if (!expanded.has(v)) {
      expanded.set(v, expand(views[v]));
    }
    return expanded.get(v);
  }

  // ---- what is shown -----------------------------------------------------------------------

  const at = { step: 0, view: 0 };
  const drawn = { bg: null, order: null, groups: new Map(), markup: new Map(), logView: -1, marked: [] };

  function showPicture(s) {
    const svg = ui.picture;
    svg.setAttribute("viewBox", `0 0 ${s.w} ${s.h}`);
    svg.setAttribute("width", String(s.w));
    svg.setAttribute("height", String(s.h));
    svg.style.maxWidth = `${s.w}px`;
    if (drawn.bg !== s.bg) {
      ui.background.innerHTML = s.bg;
      drawn.bg = s.bg;
    }
    if (drawn.order !== s.order) {
      const keep = new Set(s.order);
      for (const [gid, g] of drawn.groups) {
        if (!keep.has(gid)) {
          g.remove();
          drawn.groups.delete(gid);
          drawn.markup.delete(gid);
        }
      }
      for (const gid of s.order) {
        let g = drawn.groups.get(gid);
        if (!g) {
          g = document.createElementNS("http://www.w3.org/2000/svg", "g");
          g.setAttribute("data-group", gid);
          drawn.groups.set(gid, g);
        }
        ui.groups.appendChild(g); // in drawing order
      }
      drawn.order = s.order;
    }
    for (const gid of s.order) {
      const m = s.groups.get(gid) ?? "";
      if (drawn.markup.get(gid) !== m) {
        drawn.groups.get(gid).innerHTML = m;
        drawn.markup.set(gid, m);
      }
    }
  }

  /** Scroll `box` (a positioned scrolling element) just enough to show `node`, and nothing
   * else: scrollIntoView would also move the page itself. */
  function reveal(box, node) {
    const top = node.offsetTop;
    const bottom = top + node.offsetHeight;
    if (top < box.scrollTop) {
      box.scrollTop = top;
    } else if (bottom > box.scrollTop + box.clientHeight) {
      box.scrollTop = bottom - box.clientHeight;
    }
  }

  function item(tag, content, cls) {
    const node = document.createElement(tag);
    node.textContent = content;
    if (cls) {
      node.className = cls;
    }
    return node;
  }

  function playerName(p) {
    return p >= 0 && p < meta.players.length ? meta.players[p] : `player ${p + 1}`;
  }

  /** The decision of this step; returns the chosen option's item, if shown. */
  function showDecision(view, s) {
    ui.status.textContent = s.status;
    ui.options.replaceChildren();
    ui.prompt.textContent = s.prompt;
    if (s.asked < 0) {
      ui.asked.textContent = "No decision is pending.";
      return null;
    }
    const who = playerName(s.asked);
    if (!s.prompt && s.options.length === 0) {
      ui.asked.textContent = `${who} is asked (${view.label} does not see the choices).`;
      return null;
    }
    const cut = at.step === lastStep && lastStep < meta.decisions;
    ui.asked.textContent = cut ? `${who} is asked (the page stops here; the game goes on):` : `${who} is asked:`;
    let chosen = null;
    s.options.forEach((label, k) => {
      const li = item("li", label, k === s.chosen ? "chosen" : "");
      ui.options.append(li);
      if (k === s.chosen) {
        chosen = li;
      }
    });
    return chosen;
  }

  function showEffects(s) {
    const items = s.effects.length ? s.effects.map((e) => item("li", e)) : [item("li", "none", "none")];
    ui.effects.replaceChildren(...items);
  }

  /** The log up to this step, its new lines marked; returns the latest line's item, if any. */
  function showLog(v, steps) {
    const list = ui.log;
    const lines = views[v].log;
    const s = steps[at.step];
    if (drawn.logView !== v) {
      list.replaceChildren();
      drawn.marked = [];
      drawn.logView = v;
    }
    while (list.childElementCount > s.logCount) {
      list.lastElementChild.remove();
    }
    while (list.childElementCount < s.logCount) {
      list.append(item("li", text(lines[list.childElementCount])));
    }
    for (const li of drawn.marked) {
      li.classList.remove("new", "latest");
    }
    drawn.marked = [];
    const before = at.step > 0 ? steps[at.step - 1].logCount : 0;
    const items = list.children;
    for (let k = Math.min(before, s.logCount); k < s.logCount; k++) {
      items[k].classList.add(k === s.logCount - 1 ? "latest" : "new");
      drawn.marked.push(items[k]);
    }
    const latest = list.lastElementChild;
    if (latest && !latest.classList.contains("latest")) {
      latest.classList.add("latest");
      drawn.marked.push(latest);
    }
    ui.logcount.textContent = `(${s.logCount} lines)`;
    return latest;
  }

  function show() {
    const view = views[at.view];
    const steps = stepsOf(at.view);
    const s = steps[at.step];
    showPicture(s);
    const chosen = showDecision(view, s);
    showEffects(s);
    const latest = showLog(at.view, steps);
    ui.slider.value = String(at.step);
    ui.stepinfo.textContent = `step ${at.step} of ${lastStep}`;
    ui.first.disabled = ui.prev.disabled = at.step === 0;
    ui.next.disabled = ui.last.disabled = at.step === lastStep;
    ui.perspective.value = String(at.view);
    ui.whose.textContent =
      view.player === null
        ? "Omniscient view: everything, every player's hidden cards included"
        : `What ${view.label} sees: their own hidden cards, the others' only as counts`;
    ui.whose.classList.toggle("omniscient", view.player === null);
    document.body.dataset.step = String(at.step);
    document.body.dataset.view = String(at.view);
    // scrolled last, after every change: the page is laid out once per step
    if (chosen) {
      reveal(ui.options, chosen);
    }
    if (latest) {
      reveal(ui.log, latest);
    }
    try {
      history.replaceState(null, "", `#step=${at.step}&view=${at.view}`);
    } catch (e) {
      // a page opened where the address cannot change: nothing to keep
    }
  }

  // ---- moving ------------------------------------------------------------------------------

  function goTo(step) {
    const k = Math.max(0, Math.min(lastStep, Math.trunc(Number(step)) || 0));
    if (k !== at.step) {
      at.step = k;
      show();
    }
    if (at.step === lastStep) {
      stopPlaying();
    }
  }

  function chooseView(v) {
    if (v >= 0 && v < views.length && v !== at.view) {
      at.view = v;
      show();
    }
  }

  /** Key 0 shows everyone, key k player k (when the page holds those perspectives). */
  function viewForDigit(d) {
    const player = d === 0 ? null : d - 1;
    return views.findIndex((view) => view.player === player);
  }

  let timer = null;
  function stopPlaying() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    ui.play.textContent = "play";
  }
  function togglePlaying() {
    if (timer !== null) {
      stopPlaying();
      return;
    }
    if (at.step === lastStep) {
      goTo(0);
    }
    timer = setInterval(() => goTo(at.step + 1), SPEED_MS);
    ui.play.textContent = "pause";
  }

  function setFit(on) {
    ui.fit.checked = on;
    ui.picture.classList.toggle("fit", on);
  }

  ui.first.addEventListener("click", () => goTo(0));
  ui.prev.addEventListener("click", () => goTo(at.step - 1));
  ui.next.addEventListener("click", () => goTo(at.step + 1));
  ui.last.addEventListener("click", () => goTo(lastStep));
  ui.play.addEventListener("click", togglePlaying);
  ui.slider.addEventListener("input", () => goTo(ui.slider.value));
  ui.perspective.addEventListener("change", () => {
    chooseView(Number(ui.perspective.value));
    ui.perspective.blur(); // the keys step again
  });
  ui.fit.addEventListener("change", () => setFit(ui.fit.checked));

  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.isComposing) {
      return;
    }
    const onSelect = ev.target === ui.perspective;
    const onButton = ev.target instanceof HTMLButtonElement;
    let done = true;
    switch (ev.key) {
      case "ArrowRight":
        goTo(at.step + 1);
        break;
      case "ArrowLeft":
        goTo(at.step - 1);
        break;
      case "PageDown":
        goTo(at.step + 10);
        break;
      case "PageUp":
        goTo(at.step - 10);
        break;
      case "Home":
        goTo(0);
        break;
      case "End":
        goTo(lastStep);
        break;
      case " ":
        if (onButton) {
          return; // the button itself answers
        }
        togglePlaying();
        break;
      case "f":
      case "F":
        setFit(!ui.fit.checked);
        break;
      default:
        if (/^[0-9]$/.test(ev.key) && !onSelect) {
          chooseView(viewForDigit(Number(ev.key)));
        } else {
          done = false;
        }
    }
    if (done) {
      ev.preventDefault();
    }
  });

  // ---- start -------------------------------------------------------------------------------

  ui.title.textContent = meta.title;
  const options = Object.entries(meta.options)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  ui.about.textContent =
    `${meta.game}, seed ${meta.seed}` +
    (options ? `, options ${options}` : "") +
    ` · ${meta.players.join(" vs ")} · ${meta.decisions} decisions · ${meta.result}`;
  ui.about.title = ui.about.textContent; // the whole line, where it is cut short
  ui.slider.max = String(lastStep);
  views.forEach((view, k) => {
    const digit = view.player === null ? 0 : view.player + 1;
    const option = item("option", digit <= 9 ? `${digit}: ${view.label}` : view.label);
    option.value = String(k);
    ui.perspective.append(option);
  });
  const wanted = /^#step=(\d+)&view=(\d+)$/.exec(location.hash);
  if (wanted) {
    at.step = Math.min(lastStep, Number(wanted[1]));
    at.view = Math.min(views.length - 1, Number(wanted[2]));
  }
  show();
})();
