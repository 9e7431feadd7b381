// The puzzle editor's front end: one ES module for the page (`sudoku edit`) and the
// notebook widget (sudoku_model.widgets.Editor). No build step, no dependency.
//
// mount(root, transport, options) draws the editor in `root` and talks to the JSON API
// through `transport.request(endpoint, payload, {signal}) -> {status, json, blob}`:
// over HTTP on the page (httpTransport), over the widget's comm in a notebook.
// Rules arrive as data (layout.regions and layout.decorations), so a new rule kind
// needs a decoration kind here at most, never a change to the grid code.

const SVGNS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function option(value, label) {
  return el("option", { value, text: label ?? value });
}

// -- transports ----------------------------------------------------------------------
export function httpTransport(base = "") {
  return {
    async request(endpoint, payload, { signal } = {}) {
      const response = await fetch(`${base}/api/${endpoint}`, {
        method: endpoint === "config" ? "GET" : "POST",
        headers: endpoint === "config" ? {} : { "Content-Type": "application/json" },
        body: endpoint === "config" ? undefined : JSON.stringify(payload),
        signal,
      });
      const type = response.headers.get("Content-Type") || "";
      if (type.startsWith("application/json")) {
        return { status: response.status, json: await response.json() };
      }
      return { status: response.status, blob: await response.blob() };
    },
  };
}

function widgetTransport(model) {
  let next = 1;
  const waiting = new Map();
  model.on("msg:custom", (msg) => {
    if (!msg || msg.type !== "reply") return;
    const done = waiting.get(msg.id);
    if (!done) return;
    waiting.delete(msg.id);
    if (msg.body_base64 !== undefined) {
      const bytes = Uint8Array.from(atob(msg.body_base64), (c) => c.charCodeAt(0));
      done({ status: msg.status, blob: new Blob([bytes], { type: msg.content_type }) });
    } else {
      done({ status: msg.status, json: msg.json });
    }
  });
  return {
    request(endpoint, payload, { signal } = {}) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, resolve);
        if (signal) {
          signal.addEventListener("abort", () => {
            waiting.delete(id);
            reject(new DOMException("aborted", "AbortError"));
          });
        }
        model.send({ type: "request", id, endpoint, payload });
      });
    },
  };
}

// -- the editor ----------------------------------------------------------------------
export function mount(root, transport, options = {}) {
  const client = "c" + Math.random().toString(36).slice(2, 12);
  let seq = 0;
  const inflight = new Map(); // endpoint -> AbortController
  let config = null;
  let layout = null;
  let givens = [];
  let values = [];
  let pencil = []; // per cell: array of digits (the solver's notes)
  let cands = []; // per cell: the puzzle's candidate clues (a pencilmark puzzle), [] for none
  let ruleFields = {}; // the puzzle's rule data, sent back as it came (rules are data)
  let solvedCells = new Set(); // cells the last Solve filled in (drawn lighter)
  let selected = 0;
  let mode = "given"; // "given": typing sets clues; "solve": typing enters digits
  let pencilMode = false;
  let hintCells = [];
  let clashCells = [];
  let wrongCells = [];
  const undo = [];
  const redo = [];
  const listeners = [];

  root.classList.add("sdk");
  root.replaceChildren();
  const board = el("div", { class: "sdk-board", tabindex: "0", "data-role": "board" });
  const captions = el("div", { class: "sdk-captions", "data-role": "captions" });
  const count = el("span", { class: "count", id: "count", "data-role": "count", text: "…" });
  const verdict = el("span", { class: "verdict", id: "verdict", "data-role": "verdict" });
  const detail = el("div", { class: "detail", "data-role": "detail" });
  const status = el("div", { class: "sdk-status", "data-role": "status", "data-state": "pending" },
    el("span", { text: "solutions: " }), count, verdict, detail);
  const message = el("div", { class: "sdk-message", id: "message", "data-role": "message" });
  const panel = el("div", { class: "sdk-panel" });
  root.append(el("div", { class: "sdk-main" },
    el("div", {}, board, captions, status, message), panel));

  // -- state helpers -----------------------------------------------------------------
  const n = () => layout.size;
  const snapshot = () => ({ givens: givens.slice(), values: values.slice(),
    pencil: pencil.map((p) => p.slice()), cands: cands.map((p) => p.slice()) });
  function restore(s) {
    givens = s.givens.slice(); values = s.values.slice(); pencil = s.pencil.map((p) => p.slice());
    cands = s.cands.map((p) => p.slice());
  }
  function puzzleObject() {
    const obj = Object.assign({}, ruleFields, { givens: givens.slice(), values: values.slice() });
    if (cands.some((p) => p.length)) obj.candidates = cands.map((p) => p.slice());
    return obj;
  }
  function say(text, isError = false) {
    message.textContent = text || "";
    message.classList.toggle("error", !!isError);
  }
  function errorText(reply) {
    const e = reply.json && reply.json.error;
    return e ? e.message : `request failed (${reply.status})`;
  }

  async function call(endpoint, payload, { supersede = true } = {}) {
    if (supersede && inflight.has(endpoint)) inflight.get(endpoint).abort();
    const controller = new AbortController();
    inflight.set(endpoint, controller);
    seq += 1;
    const body = Object.assign({}, payload, { client, seq });
    try {
      return await transport.request(endpoint, body, { signal: controller.signal });
    } catch (err) {
      if (err && err.name === "AbortError") return { status: 0, aborted: true };
      throw err;
    } finally {
      if (inflight.get(endpoint) === controller) inflight.delete(endpoint);
    }
  }

  // -- drawing -------------------------------------------------------------------------
  let svgRoot, cellRects, digitTexts, pencilGroups, cellSize, pad;
  function build() {
    const size = n();
    cellSize = size <= 9 ? 44 : size <= 16 ? 32 : 24;
    pad = 4;
    const side = size * cellSize;
    // a band one cell wide on each side that has clues outside the grid (sandwich, little killer)
    const outside = layout.decorations.filter((d) => d.kind === "outside");
    const band = (test) => (outside.some(test) ? cellSize : 0);
    const padL = pad + band((d) => d.col === -1), padT = pad + band((d) => d.row === -1);
    const padR = pad + band((d) => d.col === size), padB = pad + band((d) => d.row === size);
    const width = side + padL + padR, height = side + padT + padB;
    svgRoot = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, "data-size": size });
    const x = (col) => padL + col * cellSize;
    const y = (row) => padT + row * cellSize;
    const centre = (cell) => [x((cell % size) + 0.5), y(Math.floor(cell / size) + 0.5)];
    cellRects = []; digitTexts = []; pencilGroups = [];
    const cells = svg("g");
    for (let c = 0; c < size * size; c++) {
      const r = Math.floor(c / size), k = c % size;
      const rect = svg("rect", { x: x(k), y: y(r), width: cellSize, height: cellSize,
        class: "cell", "data-cell": c });
      rect.addEventListener("mousedown", (ev) => { ev.preventDefault(); select(c); board.focus(); });
      cells.append(rect);
      cellRects.push(rect);
    }
    svgRoot.append(cells);
    // shading over the cells (translucent: a highlighted cell shows through), then lines,
    // then grid lines, then cages and dots
    const shades = svg("g"), under = svg("g"), over = svg("g");
    const captionTexts = [];
    for (const d of layout.decorations) {
      const style = d.style ? ` ${d.kind}-${d.style}` : "";
      if (d.kind === "shade" && d.style === "odd") {
        for (const c of d.cells) {
          const [cx, cy] = centre(c);
          shades.append(svg("circle", { cx, cy, r: cellSize * 0.4, class: "shade" + style }));
        }
      } else if (d.kind === "shade") {
        const inset = d.style === "even" ? cellSize * 0.1 : 0;
        for (const c of d.cells) {
          shades.append(svg("rect", { x: x(c % size) + inset, y: y(Math.floor(c / size)) + inset,
            width: cellSize - 2 * inset, height: cellSize - 2 * inset, class: "shade" + style }));
        }
      } else if (d.kind === "line") {
        const pts = d.cells.map(centre);
        if (d.style === "diagonal" && pts.length > 1) {
          // drawn corner to corner, as in the SVG output
          const [x0, y0] = pts[0], [x1, y1] = pts[pts.length - 1];
          const h = cellSize / 2, sx = Math.sign(x1 - x0), sy = Math.sign(y1 - y0);
          pts[0] = [x0 - sx * h, y0 - sy * h];
          pts[pts.length - 1] = [x1 + sx * h, y1 + sy * h];
        }
        const thin = cellSize * 0.12;  // sum lines, region sum lines, equal sums
        const width = { diagonal: 2, arrow: 2, "double-arrow": 2, sum: thin, "region-sum": thin,
          "equal-sum": thin, between: thin, lockout: thin }[d.style] ?? cellSize * 0.25;
        under.append(svg("polyline", { points: pts.map((p) => p.join(",")).join(" "),
          class: "line" + style, "stroke-width": width }));
        for (const c of d.circle || []) {
          const [cx, cy] = centre(c);
          under.append(svg("circle", { cx, cy, r: cellSize * 0.4, class: "line" + style,
            "stroke-width": 2 }));
        }
        for (const c of d.diamond || []) {
          const [cx, cy] = centre(c), h = cellSize * 0.36;
          under.append(svg("polygon", { class: "line" + style + " line-end", "stroke-width": 2,
            points: `${cx},${cy - h} ${cx + h},${cy} ${cx},${cy + h} ${cx - h},${cy}` }));
        }
        if (d.style === "arrow" && pts.length > 1) {
          // the head: two strokes back from the shaft's last cell
          const [ex, ey] = pts[pts.length - 1], [px, py] = pts[pts.length - 2];
          const len = Math.hypot(ex - px, ey - py), ux = (ex - px) / len, uy = (ey - py) / len;
          const h = cellSize * 0.25;
          under.append(svg("polyline", { class: "line" + style, "stroke-width": 2, points:
            `${ex - h * (ux - uy)},${ey - h * (uy + ux)} ${ex},${ey} ${ex - h * (ux + uy)},${ey - h * (uy - ux)}` }));
        }
        if (d.text !== undefined) {
          const first = d.cells[0];
          const t = svg("text", { x: x(first % size) + 5, y: y(Math.floor(first / size)) + 12,
            class: "cage-label" });
          t.textContent = d.text;
          over.append(t);
        }
        if (d.style === "thermo" && d.bulb !== false) {
          const [bx, by] = pts[0];
          under.append(svg("circle", { cx: bx, cy: by, r: cellSize * 0.3, class: "line" + style,
            fill: "#c8c8c8" }));
        }
      } else if (d.kind === "cage") {
        const inCage = new Set(d.cells);
        const inset = 3;
        for (const c of d.cells) {
          const r = Math.floor(c / size), k = c % size;
          const x0 = x(k) + inset, x1 = x(k + 1) - inset, y0 = y(r) + inset, y1 = y(r + 1) - inset;
          if (r === 0 || !inCage.has(c - size)) over.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y0, class: "cage" }));
          if (r === size - 1 || !inCage.has(c + size)) over.append(svg("line", { x1: x0, y1: y1, x2: x1, y2: y1, class: "cage" }));
          if (k === 0 || !inCage.has(c - 1)) over.append(svg("line", { x1: x0, y1: y0, x2: x0, y2: y1, class: "cage" }));
          if (k === size - 1 || !inCage.has(c + 1)) over.append(svg("line", { x1: x1, y1: y0, x2: x1, y2: y1, class: "cage" }));
        }
        if (d.text !== undefined) {
          const first = Math.min(...d.cells);
          const t = svg("text", { x: x(first % size) + 5, y: y(Math.floor(first / size)) + 12,
            class: "cage-label" });
          t.textContent = d.text;
          over.append(t);
        }
      } else if (d.kind === "quad" && d.cells.length === 1) {
        // a quadruple: its digits in a small circle on the cell's bottom-right corner
        const c = d.cells[0], cx = x(c % size + 1), cy = y(Math.floor(c / size) + 1);
        over.append(svg("circle", { cx, cy, r: cellSize * 0.27, class: "quad" }));
        const t = svg("text", { x: cx, y: cy, class: "quad-text", "font-size": cellSize * 0.16 });
        t.textContent = d.text;
        over.append(t);
      } else if (d.kind === "dot" && d.cells.length === 2) {
        const [ax, ay] = centre(d.cells[0]), [bx, by] = centre(d.cells[1]);
        over.append(svg("circle", { cx: (ax + bx) / 2, cy: (ay + by) / 2, r: cellSize * 0.12,
          class: "dot" + style }));
      } else if (d.kind === "edge" && d.cells.length === 2) {
        // X, V or a greater-than sign on the edge between the two cells
        const [ax, ay] = centre(d.cells[0]), [bx, by] = centre(d.cells[1]);
        const mx = (ax + bx) / 2, my = (ay + by) / 2;
        if (d.style === "greater") {
          // a chevron whose point is toward the smaller (second) cell
          const ux = Math.sign(bx - ax), uy = Math.sign(by - ay), h = cellSize * 0.12;
          over.append(svg("polyline", { class: "edge-sign", points:
            `${mx - h * ux - h * uy},${my - h * uy - h * ux} ${mx + h * ux},${my + h * uy} `
            + `${mx - h * ux + h * uy},${my - h * uy + h * ux}` }));
        } else {
          const t = svg("text", { x: mx, y: my, class: "edge-mark", "font-size": cellSize * 0.32 });
          t.textContent = d.text;
          over.append(t);
        }
      } else if (d.kind === "outside") {
        // a clue outside the grid; a little killer's arrow shows its diagonal's direction
        const arrows = { "1,1": "\u2198", "1,-1": "\u2199", "-1,1": "\u2197", "-1,-1": "\u2196" };
        const t = svg("text", { x: x(d.col + 0.5), y: y(d.row + 0.5), class: "outside-clue" + style,
          "font-size": cellSize * 0.4 });
        t.textContent = d.text + (d.direction ? arrows[d.direction.join(",")] || "" : "");
        over.append(t);
      } else if (d.kind === "caption") {
        captionTexts.push(d.text);
      } else {
        captionTexts.push(d.text || `${d.kind} (not drawn)`);
      }
    }
    svgRoot.append(shades, under);
    // grid lines: thin between cells, thick between regions (boxes or jigsaw pieces)
    const lines = svg("g");
    const label = layout.regions;
    for (let r = 0; r < size; r++) {
      for (let k = 0; k < size; k++) {
        const c = r * size + k;
        if (k < size - 1) {
          const thick = label[c] !== label[c + 1];
          lines.append(svg("line", { x1: x(k + 1), y1: y(r), x2: x(k + 1), y2: y(r + 1),
            class: thick ? "thick" : "thin" }));
        }
        if (r < size - 1) {
          const thick = label[c] !== label[c + size];
          lines.append(svg("line", { x1: x(k), y1: y(r + 1), x2: x(k + 1), y2: y(r + 1),
            class: thick ? "thick" : "thin" }));
        }
      }
    }
    // thin lines first so that thick ones are painted over them
    const sorted = [...lines.children].sort((a, b) =>
      (a.getAttribute("class") === "thick") - (b.getAttribute("class") === "thick"));
    lines.replaceChildren(...sorted);
    lines.append(svg("rect", { x: padL, y: padT, width: side, height: side, fill: "none",
      class: "thick" }));
    svgRoot.append(lines, over);
    const texts = svg("g");
    for (let c = 0; c < size * size; c++) {
      const [cx, cy] = centre(c);
      const t = svg("text", { x: cx, y: cy, class: "digit", "font-size": cellSize * 0.6,
        "data-digit": c });
      texts.append(t);
      digitTexts.push(t);
      const g = svg("g", { "data-pencil": c });
      texts.append(g);
      pencilGroups.push(g);
    }
    svgRoot.append(texts);
    board.replaceChildren(svgRoot);
    captions.textContent = captionTexts.join("; ");
  }

  function render() {
    const size = n();
    const symbols = layout.symbols;
    const per = Math.ceil(Math.sqrt(size));
    const sub = cellSize / per;
    const selVal = values[selected];
    const peers = new Set();
    const sr = Math.floor(selected / size), sk = selected % size;
    for (let c = 0; c < size * size; c++) {
      if (Math.floor(c / size) === sr || c % size === sk
        || layout.regions[c] === layout.regions[selected]) peers.add(c);
    }
    const hints = new Set(hintCells), clashes = new Set(clashCells), wrong = new Set(wrongCells);
    for (let c = 0; c < size * size; c++) {
      const cls = ["cell"];
      if (peers.has(c)) cls.push("peer");
      if (selVal && values[c] === selVal) cls.push("same");
      if (c === selected) cls.push("selected");
      if (hints.has(c)) cls.push("hint");
      if (wrong.has(c)) cls.push("wrong");
      if (clashes.has(c)) cls.push("clash");
      cellRects[c].setAttribute("class", cls.join(" "));
      const t = digitTexts[c];
      const v = values[c];
      t.textContent = v ? symbols[v - 1] : "";
      t.setAttribute("class", "digit " + (givens[c] ? "given" : solvedCells.has(c) ? "solved" : "entered"));
      const g = pencilGroups[c];
      g.replaceChildren();
      // the solver's notes, else the puzzle's candidate clues (drawn as clues)
      const notes = pencil[c].length ? pencil[c] : cands[c];
      if (!v && notes.length) {
        const x0 = +cellRects[c].getAttribute("x"), y0 = +cellRects[c].getAttribute("y");
        const kind = pencil[c].length ? "pencil" : "pencil cand";
        for (const d of notes) {
          const i = Math.floor((d - 1) / per), j = (d - 1) % per;
          const p = svg("text", { x: x0 + (j + 0.5) * sub, y: y0 + (i + 0.55) * sub,
            class: kind, "font-size": sub * 0.8 });
          p.textContent = symbols[d - 1];
          g.append(p);
        }
      }
    }
    undoButton.disabled = !undo.length;
    redoButton.disabled = !redo.length;
  }

  function select(c) {
    selected = Math.max(0, Math.min(n() * n() - 1, c));
    render();
  }

  // -- changes ---------------------------------------------------------------------------
  function change(apply) {
    const before = snapshot();
    if (apply() === false) return;
    undo.push(before);
    if (undo.length > 1000) undo.shift();
    redo.length = 0;
    hintCells = [];
    wrongCells = [];
    changed();
  }
  function changed() {
    render();
    refreshStatus();
    for (const f of listeners) f(puzzleObject());
  }

  function enter(c, v) {
    change(() => {
      if (pencilMode && v && mode === "given") {
        // setting up a pencilmark puzzle: the digit toggles a candidate clue of the cell
        if (givens[c]) return false;
        const clue = new Set(cands[c]);
        if (clue.has(v)) clue.delete(v); else clue.add(v);
        cands[c] = clue.size === n() ? [] : [...clue].sort((a, b) => a - b);
        return true;
      }
      if (pencilMode && v) {
        if (values[c]) return false;
        const marks = new Set(pencil[c]);
        if (marks.has(v)) marks.delete(v); else marks.add(v);
        pencil[c] = [...marks].sort((a, b) => a - b);
        return true;
      }
      if (mode === "given") {
        if (givens[c] === v && values[c] === v) return false;
        givens[c] = v; values[c] = v;
      } else {
        if (givens[c]) { say("a given cannot be changed in solve mode"); return false; }
        if (values[c] === v) return false;
        values[c] = v;
      }
      if (v) pencil[c] = [];
      solvedCells.delete(c);
      return true;
    });
  }

  function load(puzzle, newLayout) {
    layout = newLayout;
    ruleFields = {};
    for (const [k, v] of Object.entries(puzzle)) {
      if (k !== "givens" && k !== "values" && k !== "candidates") ruleFields[k] = v;
    }
    givens = puzzle.givens.slice();
    values = (puzzle.values || puzzle.givens).slice();
    pencil = givens.map(() => []);
    cands = puzzle.candidates ? puzzle.candidates.map((p) => p.slice()) : givens.map(() => []);
    solvedCells = new Set();
    selected = 0;
    undo.length = 0; redo.length = 0;
    hintCells = []; clashCells = []; wrongCells = [];
    build();
    buildPad();
    changed();
  }

  // -- live status ---------------------------------------------------------------------
  async function refreshStatus() {
    status.dataset.state = "pending";
    const reply = await call("status", { puzzle: puzzleObject() });
    if (reply.aborted || reply.status === 409) return; // a newer request answers
    if (reply.status !== 200) {
      status.dataset.state = "error";
      count.textContent = "?";
      verdict.textContent = "";
      detail.textContent = errorText(reply);
      return;
    }
    const s = reply.json;
    status.dataset.state = "done";
    count.textContent = s.count_text;
    verdict.textContent = s.verdict;
    clashCells = s.clash_cells || [];
    detail.textContent = s.clashes && s.clashes.length ? s.clashes.map((x) => x.text).join("; ")
      : s.budget_exhausted ? `budget spent after ${s.seconds.toFixed(2)} s`
      : `${s.filled} filled, ${s.clues} givens`;
    render();
    for (const f of statusListeners) f(s);
  }
  const statusListeners = [];

  // -- actions ---------------------------------------------------------------------------
  async function hint() {
    say("looking for a step…");
    const reply = await call("hint", { puzzle: puzzleObject() });
    if (reply.aborted) return;
    if (reply.status !== 200) return say(errorText(reply), true);
    const step = reply.json.step;
    if (!step) { hintCells = []; render(); return say(`no hint: ${reply.json.reason}`); }
    hintCells = step.cells;
    lastHint = step;
    render();
    say(`${step.title || step.technique}: ${step.explanation}`);
    applyHintButton.disabled = false;
  }
  let lastHint = null;
  function applyHint() {
    if (!lastHint) return;
    const step = lastHint;
    lastHint = null;
    applyHintButton.disabled = true;
    change(() => {
      for (const [c, d] of step.placements) { if (!values[c]) { values[c] = d; pencil[c] = []; } }
      for (const [c, d] of step.eliminations) {
        if (!values[c] && pencil[c].length) pencil[c] = pencil[c].filter((x) => x !== d);
      }
      return true;
    });
  }

  async function solve() {
    say("solving…");
    const reply = await call("solve", { puzzle: puzzleObject() });
    if (reply.aborted) return;
    if (reply.status !== 200) return say(errorText(reply), true);
    const s = reply.json;
    if (s.values) {
      change(() => {
        for (let c = 0; c < values.length; c++) {
          if (!values[c]) { values[c] = s.values[c]; solvedCells.add(c); pencil[c] = []; }
        }
        return true;
      });
    }
    if (s.clash_cells) { clashCells = s.clash_cells; render(); }
    say(s.message);
  }

  async function candidates() {
    const reply = await call("candidates", { puzzle: puzzleObject() });
    if (reply.aborted) return;
    if (reply.status !== 200) return say(errorText(reply), true);
    change(() => { pencil = reply.json.candidates.map((c) => c.slice()); return true; });
    say("candidates filled in");
  }

  async function check() {
    const reply = await call("check", { puzzle: puzzleObject() });
    if (reply.aborted) return;
    if (reply.status !== 200) return say(errorText(reply), true);
    const r = reply.json;
    wrongCells = r.ok ? [] : [...new Set(r.problems.filter((p) => p.kind !== "empty")
      .flatMap((p) => p.cells))];
    render();
    say(r.ok ? "correct: the grid solves the puzzle" : r.problems.map((p) => p.message).join("\n"), !r.ok);
  }

  async function minimise() {
    say("minimising…");
    const reply = await call("minimise", { puzzle: puzzleObject() });
    if (reply.aborted) return;
    if (reply.status !== 200) return say(errorText(reply), true);
    const r = reply.json;
    if (r.budget_exhausted) return say(r.message, true);
    change(() => {
      for (const c of r.removed) { givens[c] = 0; values[c] = 0; }
      return true;
    });
    say(r.removed.length ? `removed ${r.removed.length} clue(s): ${r.removed_names.join(", ")}; ${r.clues} left`
      : `already minimal: ${r.clues} clues`);
  }

  async function generate() {
    const body = { size: +sizeSelect.value, symmetry: symmetrySelect.value };
    if (levelSelect.value) body.level = levelSelect.value;
    const variants = [...variantBoxes].filter((b) => b.checked).map((b) => b.value);
    if (variants.length) body.variants = variants;
    say("generating…");
    const reply = await call("generate", body);
    if (reply.aborted) return;
    if (reply.status === 409) return say("generation cancelled");
    if (reply.status !== 200) return say(errorText(reply), true);
    const r = reply.json;
    if (r.budget_exhausted) return say(r.message, true);
    load(r.puzzle, r.layout);
    mode = "solve"; modeButtons();
    say(`generated: ${r.description} (seed ${r.seed})`);
  }

  async function newGrid() {
    const size = +sizeSelect.value;
    const variants = [...variantBoxes].filter((b) => b.checked).map((b) => b.value);
    const reply = await call("layout", { puzzle: { size, variants } });
    if (reply.status !== 200) return say(errorText(reply), true);
    const cells = size * size;
    const fields = variants.length ? { size, variants } : { size };
    load(Object.assign(fields, { givens: new Array(cells).fill(0) }), reply.json.layout);
    mode = "given"; modeButtons();
    say(`new ${size}x${size} grid`);
  }

  async function loadText(text, name) {
    const reply = await call("load", { text, name: name || "<pasted>" });
    if (reply.status !== 200) return say(errorText(reply), true);
    const r = reply.json;
    load(r.puzzle, r.layout);
    mode = "solve"; modeButtons();
    say(`loaded ${name || "text"}` + (r.count > 1 ? ` (puzzle 1 of ${r.count})` : ""));
  }

  async function save() {
    const reply = await call("save", { puzzle: puzzleObject(), format: formatSelect.value,
      solution: withSolution.checked });
    if (reply.status !== 200) return say(errorText(reply), true);
    const r = reply.json;
    saveText.value = r.text;
    download(new Blob([r.text], { type: r.mime }), r.filename);
    say(r.warning ? `saved ${r.filename}; ${r.warning}` : `saved ${r.filename}`);
  }

  async function print() {
    say("drawing the page…");
    const reply = await call("print", { puzzle: puzzleObject(), format: "pdf",
      solution: withSolution.checked });
    if (!reply.blob) return say(errorText(reply), true);
    download(reply.blob, "puzzle.pdf");
    say("puzzle.pdf ready to print");
  }

  function download(blob, filename) {
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: filename });
    root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function doUndo() {
    if (!undo.length) return;
    redo.push(snapshot());
    restore(undo.pop());
    hintCells = []; wrongCells = []; solvedCells = new Set();
    changed();
  }
  function doRedo() {
    if (!redo.length) return;
    undo.push(snapshot());
    restore(redo.pop());
    hintCells = []; wrongCells = []; solvedCells = new Set();
    changed();
  }

  // -- keyboard and mouse ----------------------------------------------------------------
  board.addEventListener("keydown", (ev) => {
    const size = n();
    const r = Math.floor(selected / size), k = selected % size;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      const [dr, dk] = moves[ev.key];
      const cells = size * size;
      // left and right go on in reading order (to type a puzzle line), up and down wrap
      select(dk ? (selected + dk + cells) % cells : ((r + dr + size) % size) * size + k);
      ev.preventDefault();
      return;
    }
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z") {
      ev.shiftKey ? doRedo() : doUndo();
      ev.preventDefault();
      return;
    }
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "y") {
      doRedo(); ev.preventDefault(); return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (["Backspace", "Delete", "."].includes(ev.key) || (ev.key === "0" && size <= 9 && !pencilMode)) {
      const before = pencilMode;
      pencilMode = false;
      const clue = mode === "given" && cands[selected].length;
      if (values[selected] || pencil[selected].length || clue) {
        change(() => {
          if (values[selected]) {
            if (givens[selected] && mode !== "given") return false;
            if (mode === "given") givens[selected] = 0;
            values[selected] = 0;
          } else if (pencil[selected].length) pencil[selected] = [];
          else cands[selected] = [];
          return true;
        });
      }
      pencilMode = before;
      ev.preventDefault();
      return;
    }
    let key = ev.key.toUpperCase();
    const digit = /^(Digit|Numpad)(\d)$/.exec(ev.code || "");
    if (digit) key = digit[2];
    const v = layout.symbols.indexOf(key) + 1;
    if (v > 0 && key.length === 1) {
      const saved = pencilMode;
      if (ev.shiftKey) pencilMode = true;
      enter(selected, v);
      pencilMode = saved;
      ev.preventDefault();
    }
  });

  // -- the panel -----------------------------------------------------------------------
  const modeGiven = el("button", { text: "enter givens", "data-action": "mode-given",
    onclick: () => { mode = "given"; modeButtons(); board.focus(); } });
  const modeSolve = el("button", { text: "enter solution", "data-action": "mode-solve",
    onclick: () => { mode = "solve"; modeButtons(); board.focus(); } });
  const pencilButton = el("button", { text: "pencil", "data-action": "pencil",
    title: "digits toggle pencil marks; while entering givens, the cell's candidate clues "
      + "(a pencilmark puzzle)",
    onclick: () => { pencilMode = !pencilMode; modeButtons(); board.focus(); } });
  function modeButtons() {
    modeGiven.classList.toggle("on", mode === "given");
    modeSolve.classList.toggle("on", mode === "solve");
    pencilButton.classList.toggle("on", pencilMode);
  }
  const undoButton = el("button", { text: "undo", "data-action": "undo", onclick: doUndo });
  const redoButton = el("button", { text: "redo", "data-action": "redo", onclick: doRedo });
  const pad_ = el("div", { class: "sdk-row sdk-pad", "data-role": "pad" });
  function buildPad() {
    pad_.replaceChildren();
    layout.symbols.split("").forEach((s, i) => {
      pad_.append(el("button", { text: s, "data-value": i + 1,
        onclick: () => { enter(selected, i + 1); board.focus(); } }));
    });
    pad_.append(el("button", { text: "⌫", "data-value": 0, title: "clear the cell",
      onclick: () => { const saved = pencilMode; pencilMode = false; enter(selected, 0);
        pencilMode = saved; board.focus(); } }));
  }
  const applyHintButton = el("button", { text: "apply hint", "data-action": "apply-hint",
    onclick: applyHint });
  applyHintButton.disabled = true;

  const sizeSelect = el("select", { "data-role": "size" });
  const symmetrySelect = el("select", { "data-role": "symmetry" });
  const levelSelect = el("select", { "data-role": "level" });
  const variantRow = el("div", { class: "sdk-row", "data-role": "variants" });
  let variantBoxes = [];
  const formatSelect = el("select", { "data-role": "format" });
  const withSolution = el("input", { type: "checkbox", "data-role": "with-solution" });
  const pasteArea = el("textarea", { rows: "3", "data-role": "paste",
    placeholder: "paste a puzzle: a line, a block, CSV or JSON" });
  const saveText = el("textarea", { rows: "3", "data-role": "saved", readonly: "" });
  const fileInput = el("input", { type: "file", "data-role": "file" });
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    if (!file) return;
    await loadText(await file.text(), file.name);
    fileInput.value = "";
  });

  panel.append(
    el("div", { class: "sdk-row" }, modeGiven, modeSolve, pencilButton, undoButton, redoButton),
    pad_,
    el("div", { class: "sdk-row" },
      el("button", { text: "hint", "data-action": "hint", onclick: hint }), applyHintButton,
      el("button", { text: "solve", "data-action": "solve", onclick: solve }),
      el("button", { text: "candidates", "data-action": "candidates", onclick: candidates }),
      el("button", { text: "check", "data-action": "check", onclick: check }),
      el("button", { text: "minimise", "data-action": "minimise", onclick: minimise })),
    el("fieldset", {}, el("legend", { text: "new puzzle" }),
      el("div", { class: "sdk-row" }, el("span", { text: "size" }), sizeSelect,
        el("span", { text: "symmetry" }), symmetrySelect),
      el("div", { class: "sdk-row" }, el("span", { text: "level" }), levelSelect,
        el("button", { text: "generate", "data-action": "generate", onclick: generate }),
        el("button", { text: "stop", "data-action": "stop", onclick: () =>
          transport.request("cancel", { client, channel: "generate" }) }),
        el("button", { text: "empty grid", "data-action": "new", onclick: newGrid })),
      variantRow),
    el("fieldset", {}, el("legend", { text: "load" }), pasteArea,
      el("div", { class: "sdk-row" },
        el("button", { text: "load text", "data-action": "load",
          onclick: () => loadText(pasteArea.value) }), fileInput)),
    el("fieldset", {}, el("legend", { text: "save and print" }),
      el("div", { class: "sdk-row" }, formatSelect,
        el("label", {}, withSolution, el("span", { text: " with solution" })),
        el("button", { text: "save", "data-action": "save", onclick: save }),
        el("button", { text: "print (PDF)", "data-action": "print", onclick: print })),
      saveText),
  );

  // -- start -------------------------------------------------------------------------------
  const ready = (async () => {
    const reply = await transport.request("config", {});
    if (reply.status !== 200) { say(errorText(reply), true); return; }
    config = reply.json;
    for (const s of config.sizes) sizeSelect.append(option(String(s), `${s}x${s}`));
    sizeSelect.value = "9";
    for (const s of config.symmetries) symmetrySelect.append(option(s));
    levelSelect.append(option("", "any level"));
    for (const l of config.levels) levelSelect.append(option(l));
    for (const f of config.write_formats) formatSelect.append(option(f));
    formatSelect.value = "jsonl";
    variantBoxes = config.variants.map((v) => el("input", { type: "checkbox", value: v }));
    variantBoxes.forEach((b, i) => variantRow.append(el("label", {}, b, el("span", { text: ` ${config.variants[i]}` }))));
    let puzzle = options.initial || config.puzzle;
    let lay = config.layout;
    if (options.initial) {
      const r = await transport.request("layout", { puzzle });
      if (r.status !== 200) { say(errorText(r), true); return; }
      lay = r.json.layout;
    }
    load(puzzle, lay);
    mode = givens.some((v) => v) ? "solve" : "given";
    modeButtons();
    board.focus();
  })();

  return {
    ready,
    puzzle: puzzleObject,
    load: async (puzzle) => {
      const r = await transport.request("layout", { puzzle });
      if (r.status === 200) load(puzzle, r.json.layout);
    },
    onChange: (f) => listeners.push(f),
    onStatus: (f) => statusListeners.push(f),
  };
}

// -- the notebook widget (anywidget) -------------------------------------------------------
function sameCells(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export default {
  render({ model, el: root }) {
    const editor = mount(root, widgetTransport(model), { initial: model.get("value") });
    editor.onChange((puzzle) => {
      if (sameCells(puzzle, model.get("value"))) return;
      model.set("value", puzzle);
      model.save_changes();
    });
    model.on("change:value", () => {
      const value = model.get("value");
      if (!sameCells(value, editor.puzzle())) editor.load(value);
    });
  },
};

// -- the page --------------------------------------------------------------------------------
if (typeof document !== "undefined") {
  const page = document.getElementById("sudoku-editor-page");
  if (page) window.sudokuEditor = mount(page, httpTransport());
}
