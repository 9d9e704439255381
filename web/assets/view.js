// The live view of one session: draws the frames the server streams (rows of runs:
// [text, fg, bg, style]) and, while this person holds the session, sends their keys
// named as send_control names them.
(function () {
  "use strict";
  const data = document.body.dataset;
  const term = document.getElementById("term");
  const sb = document.getElementById("sb");
  const scr = document.getElementById("screen");
  const status = document.getElementById("status");
  const take = document.getElementById("take");
  const give = document.getElementById("give");
  const refusedBox = document.getElementById("refused");
  const refusedText = document.getElementById("refused-text");
  const confirmBtn = document.getElementById("confirm");
  const maxScrollback = 10000;
  let holding = false;
  let refusedLine = "";
  let last = null; // the last frame, redrawn when this page takes or gives back control

  const entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
  const esc = (s) => s.replace(/[&<>"]/g, (c) => entities[c]);
  const color = (c, swap) => (c === swap ? "var(--" + swap + ")" : c);

  function rowHTML(runs) {
    let h = "";
    for (const [text, fg, bg, st] of runs || []) {
      let style = "";
      if (fg) style += "color:" + color(fg, "bg") + ";";
      if (bg) style += "background:" + color(bg, "fg") + ";";
      const cls = Array.from(st || "", (l) => "s" + l).join(" ");
      if (!cls && !style) { h += esc(text); continue; }
      h += "<span" + (cls ? ' class="' + cls + '"' : "") + (style ? ' style="' + style + '"' : "") + ">" + esc(text) + "</span>";
    }
    return '<div class="row">' + h + "</div>";
  }

  function draw(f) {
    if (f.gone) { status.textContent = "session closed"; return; }
    const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 4;
    if (f.append && f.append.length) {
      sb.insertAdjacentHTML("beforeend", f.append.map(rowHTML).join(""));
      f.append = null; // drawn once, even when the frame is drawn again
      while (sb.childElementCount > maxScrollback) sb.firstElementChild.remove();
    }
    scr.innerHTML = f.rows.map(rowHTML).join("");
    scr.dataset.cursor = f.cursor.join(",");
    if (!f.holder) holding = false;
    let s = f.alive ? "running" : "exited";
    if (f.title) s = f.title + " · " + s;
    if (f.holder) s += " · " + (holding ? "you have control: type into the terminal" : f.holder + " has control");
    else s += " · the agent has control";
    status.textContent = s;
    status.className = f.holder ? "held" : "dim";
    term.classList.toggle("holding", holding);
    if (take) { take.hidden = !f.control || holding || !f.alive; give.hidden = !holding; }
    if (atBottom) window.scrollTo(0, document.body.scrollHeight);
  }

  function connect() {
    const es = new EventSource(data.events);
    es.onmessage = (e) => { const f = JSON.parse(e.data); if (!f.gone) last = f; draw(f); };
    es.onerror = () => { status.textContent = "disconnected; retrying…"; };
  }

  async function post(what, body) {
    const r = await fetch(data.base + what, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
    let res = {};
    try { res = await r.json(); } catch (e) { res = { error: r.statusText }; }
    if (res.error) { showRefused(res.error, false); }
    if (res.refused) {
      refusedLine = res.refused.line;
      showRefused("Refused" + (refusedLine ? " " + JSON.stringify(refusedLine) : "") + ": " + res.refused.why + ".", res.refused.confirmable);
    }
    return r.ok && !res.error;
  }

  function showRefused(text, confirmable) {
    refusedText.textContent = text;
    confirmBtn.hidden = !confirmable;
    refusedBox.hidden = false;
  }

  // Keys are sent one request at a time, in order; keys pressed meanwhile go together.
  let queue = [];
  let sending = false;
  async function flush() {
    if (sending || !queue.length) return;
    sending = true;
    const keys = queue.join(" ");
    queue = [];
    try { await post("keys", { keys: keys }); } finally { sending = false; flush(); }
  }

  const named = {
    Enter: "enter", Tab: "tab", Escape: "escape", Backspace: "backspace", Delete: "delete", Insert: "insert",
    ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", Home: "home", End: "end",
    PageUp: "pageup", PageDown: "pagedown",
  };
  function keyName(e) {
    if (e.key === "Tab" && e.shiftKey) return "shift+tab";
    if (named[e.key]) return named[e.key];
    if (/^F([1-9]|1[0-2])$/.test(e.key)) return e.key.toLowerCase();
    if (e.key.length !== 1 && [...e.key].length !== 1) return "";
    let k = e.key === " " ? "space" : e.key;
    if (e.ctrlKey && !e.altKey) {
      const c = e.key.toLowerCase();
      return /^[a-z@\[\\\]^_? ]$/.test(c) ? "ctrl+" + (c === " " ? "space" : c) : "";
    }
    if (e.altKey) return "escape " + k;
    return k;
  }

  document.addEventListener("keydown", (e) => {
    if (!holding || e.metaKey) return;
    const name = keyName(e);
    if (!name) return;
    e.preventDefault();
    queue.push(name);
    flush();
  });
  document.addEventListener("paste", (e) => {
    if (!holding) return;
    e.preventDefault();
    const text = e.clipboardData.getData("text");
    for (const c of text.replace(/\r\n/g, "\n")) queue.push(c === "\n" ? "enter" : c === " " ? "space" : c);
    flush();
  });

  if (take) {
    take.onclick = async () => {
      if (!(await post("take"))) return;
      holding = true;
      term.focus();
      if (last) { last.holder = last.holder || "you"; draw(last); }
    };
    give.onclick = async () => { holding = false; await post("give"); };
  }
  confirmBtn.onclick = async () => { refusedBox.hidden = true; await post("confirm", { line: refusedLine }); };
  document.getElementById("dismiss").onclick = () => { refusedBox.hidden = true; };
  connect();
})();
