// Tavolo's game page: the timeline (buttons, slider, keyboard, play at 1x/2x/4x) and live updates.
// Plain script, no framework; every text it writes goes through textContent, never innerHTML.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const lang = body.dataset.lang;
  let count = Number(body.dataset.count);
  let step = Number(body.dataset.step);
  let turns = (body.dataset.turns || "0").split(",").filter(Boolean).map(Number);
  let timer = null;
  let request = 0;
  const $ = (id) => document.getElementById(id);
  const board = $("board"), slider = $("slider"), play = $("play"), speed = $("speed");
  if (!board || !slider) return;

  function positionText(n) {
    return body.dataset.position.replace("{n}", String(n + 1)).replace("{count}", String(count));
  }

  function showLog() {
    for (const item of $("log").children) {
      const at = Number(item.dataset.step || 0);
      item.hidden = at > step;
      item.classList.toggle("current", at === step);
    }
    // Scroll the log box only: scrollIntoView would also move the window, away from the board.
    const log = $("log"), current = log.querySelector("li.current");
    if (current) log.scrollTop = Math.max(0, current.offsetTop - log.offsetTop - log.clientHeight / 2);
  }

  function panels(list) {
    const box = $("panels");
    box.replaceChildren();
    if (!list.length) return;
    const h = document.createElement("h2");
    h.textContent = box.dataset.title || "";
    box.append(h);
    for (const p of list) {
      const name = document.createElement("h3");
      name.textContent = p.name;
      const text = document.createElement("pre");
      text.textContent = p.text;
      box.append(name, text);
    }
  }

  async function go(n) {
    n = Math.max(0, Math.min(count - 1, n));
    step = n;
    slider.max = String(Math.max(count - 1, 0));
    slider.value = String(n);
    $("position").textContent = positionText(n);
    board.src = `${base}/img/${n}.png?lang=${lang}`;
    showLog();
    const mine = ++request;
    try {
      const answer = await fetch(`${base}/step/${n}.json?lang=${lang}`, {credentials: "omit"});
      if (!answer.ok || mine !== request) return;
      const info = await answer.json();
      $("summary").textContent = info.summary;
      board.alt = info.alt;
      $("status").textContent = info.status;
      for (const li of $("players").children) {
        li.classList.toggle("turn", info.waiting.includes(Number(li.dataset.seat)));
      }
      panels(info.panels);
    } catch (e) { /* the picture still moved; the words come with the next step */ }
  }

  function nextTurn(direction) {
    if (direction > 0) return turns.find((t) => t > step) ?? count - 1;
    const before = turns.filter((t) => t < step);
    return before.length ? before[before.length - 1] : 0;
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    play.setAttribute("aria-label", body.dataset.play);
  }

  function start() {
    if (step >= count - 1) go(0);
    play.setAttribute("aria-pressed", "true");
    play.setAttribute("aria-label", body.dataset.pause);
    timer = setInterval(() => {
      if (step >= count - 1) { stop(); return; }
      go(step + 1);
    }, 1000 / Number(speed.value || 1));
  }

  $("first").addEventListener("click", () => go(0));
  $("last").addEventListener("click", () => go(count - 1));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("prev-turn").addEventListener("click", () => go(nextTurn(-1)));
  $("next-turn").addEventListener("click", () => go(nextTurn(1)));
  play.addEventListener("click", () => (timer === null ? start() : stop()));
  speed.addEventListener("change", () => { if (timer !== null) { stop(); start(); } });
  slider.addEventListener("input", () => go(Number(slider.value)));

  // Keyboard: arrows step one action, Shift+arrows or Page Up/Down one turn, Home/End the ends,
  // P plays or pauses. The slider keeps its own arrow keys while it has the focus.
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "SELECT" || (tag === "INPUT" && !event.shiftKey) || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: () => go(event.shiftKey ? nextTurn(-1) : step - 1),
      ArrowRight: () => go(event.shiftKey ? nextTurn(1) : step + 1),
      PageUp: () => go(nextTurn(-1)),
      PageDown: () => go(nextTurn(1)),
      Home: () => go(0),
      End: () => go(count - 1),
      p: () => (timer === null ? start() : stop()),
    };
    const action = keys[event.key];
    if (action) { event.preventDefault(); action(); }
  });

  async function refresh() {
    const answer = await fetch(`${base}/timeline.json?lang=${lang}`, {credentials: "omit"});
    if (!answer.ok) return;
    const data = await answer.json();
    const atEnd = step >= count - 1;
    count = data.count;
    turns = data.turns;
    const log = $("log");
    log.replaceChildren();
    for (const entry of data.log) {
      const li = document.createElement("li");
      li.dataset.step = String(entry.step);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = entry.who;
      const act = document.createElement("span");
      act.className = "act";
      act.textContent = " " + entry.action;
      li.append(who, act);
      if (entry.lines.length) {
        const ul = document.createElement("ul");
        for (const line of entry.lines) {
          const item = document.createElement("li");
          item.textContent = line;
          ul.append(item);
        }
        li.append(ul);
      }
      log.append(li);
    }
    go(atEnd && timer === null ? count - 1 : Math.min(step, count - 1));
  }

  if (window.EventSource) {
    const live = new EventSource(`${base}/live`);
    live.addEventListener("open", () => { $("live").hidden = false; });
    live.addEventListener("error", () => { $("live").hidden = true; });
    live.addEventListener("position", () => { refresh(); });
  }
  $("panels").dataset.title = ($("panels").querySelector("h2") || {}).textContent || "";
  showLog();
})();
