// The board editor and move explorer at GET /. Plain script, no build step:
// it only talks to this gateway (POST scrabble-api, GET rules / lexicons / health).
"use strict";

const SIZE = 15;
const COLUMNS = "ABCDEFGHIJKLMNO";
// The premium map and letter values come from GET /rules (the engine's own
// rules), so the page keeps no copy of them; filled in by start().
let premiumRows = [];
let premiumNames = {};
let letterValues = {};
// the short label drawn on a premium square (its name comes with /rules)
const PREMIUM_LABELS = { T: "TW", D: "DW", "*": "★", t: "TL", d: "DL" };
// Terms come signed (premium waste and risk below zero) and sum to equity.
const LIMIT = 20;

const state = {
  board: new Array(SIZE * SIZE).fill(""), // "" empty, "A" a tile, "a" a blank as A
  cursor: 7 * SIZE + 7,
  direction: "across",
  blankNext: false,
  opponentRack: "",
  scores: [0, 0],
  zeroTurns: 0,
  sendLexicon: false, // only once GET /lexicons says the API takes a lexicon name
  moves: [],
  selected: -1,
  busy: false,
};

const cells = [];

function squareName(index) {
  return `${COLUMNS[index % SIZE]}${Math.floor(index / SIZE) + 1}`;
}

// ---- the board -------------------------------------------------------------

function buildBoard() {
  const board = $("board");
  const head = el("div", { role: "row", class: "board-row" });
  head.append(el("span", { role: "presentation", class: "corner" }));
  for (const letter of COLUMNS) head.append(el("span", { role: "columnheader", class: "label" }, letter));
  board.append(head);
  for (let row = 0; row < SIZE; row++) {
    const line = el("div", { role: "row", class: "board-row" });
    line.append(el("span", { role: "rowheader", class: "label" }, String(row + 1)));
    for (let col = 0; col < SIZE; col++) {
      const index = row * SIZE + col;
      const premium = premiumRows[row][col];
      const cell = el("div", {
        role: "gridcell", class: "cell", tabindex: "-1",
        "data-row": row, "data-col": col, "data-premium": premium === "." ? "" : premium,
      });
      cell.addEventListener("click", () => {
        if (state.cursor === index) toggleDirection();
        moveCursor(index);
      });
      cells.push(cell);
      line.append(cell);
    }
    board.append(line);
  }
  board.addEventListener("keydown", boardKey);
}

function previewTiles() {
  const move = state.moves[state.selected];
  const tiles = new Map();
  if (move && !isExchange(move)) {
    for (const tile of move.tiles || []) tiles.set(tile.row * SIZE + tile.col, tile.letter);
  }
  return tiles;
}

function renderBoard() {
  const preview = previewTiles();
  cells.forEach((cell, index) => {
    const premium = cell.dataset.premium;
    const tile = state.board[index];
    const shown = preview.get(index) || tile;
    cell.classList.toggle("tile", Boolean(tile));
    cell.classList.toggle("preview", preview.has(index));
    cell.classList.toggle("blank", Boolean(shown) && shown === shown.toLowerCase());
    cell.classList.toggle("cursor", index === state.cursor);
    cell.classList.toggle("down", state.direction === "down");
    cell.tabIndex = index === state.cursor ? 0 : -1;
    cell.replaceChildren();
    let what;
    if (shown) {
      const blank = shown === shown.toLowerCase();
      cell.append(el("span", { class: "letter" }, shown));
      cell.append(el("span", { class: "value" }, blank ? "" : String(letterValues[shown])));
      what = `${preview.has(index) ? "preview " : ""}${blank ? `blank as ${shown}` : shown}`;
    } else {
      if (premium) cell.append(el("span", { class: "premium" }, PREMIUM_LABELS[premium]));
      what = premium ? `empty, ${premiumNames[premium]}` : "empty";
    }
    cell.setAttribute("aria-label", `${squareName(index)}: ${what}`);
  });
  $("direction").textContent = `Typing ${state.direction}`;
  $("direction").setAttribute("aria-pressed", String(state.direction === "down"));
}

function moveCursor(index, focus = true) {
  state.cursor = Math.max(0, Math.min(SIZE * SIZE - 1, index));
  renderBoard();
  if (focus) cells[state.cursor].focus();
}

function step(delta) {
  // one square along the typing direction, stopping at the edge
  const row = Math.floor(state.cursor / SIZE);
  const col = state.cursor % SIZE;
  if (state.direction === "across") {
    const next = col + delta;
    return next >= 0 && next < SIZE ? state.cursor + delta : state.cursor;
  }
  const next = row + delta;
  return next >= 0 && next < SIZE ? state.cursor + delta * SIZE : state.cursor;
}

function toggleDirection() {
  state.direction = state.direction === "across" ? "down" : "across";
  renderBoard();
}

function setTile(index, letter) {
  state.board[index] = letter;
  positionChanged();
}

function boardKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const row = Math.floor(state.cursor / SIZE);
  const col = state.cursor % SIZE;
  const arrows = {
    ArrowLeft: col > 0 ? -1 : 0, ArrowRight: col < SIZE - 1 ? 1 : 0,
    ArrowUp: row > 0 ? -SIZE : 0, ArrowDown: row < SIZE - 1 ? SIZE : 0,
  };
  const key = event.key;
  if (key in arrows) {
    moveCursor(state.cursor + arrows[key]);
  } else if (key === "?") {
    state.blankNext = true;
    say("Next letter is a blank.");
  } else if (/^[a-z]$/i.test(key)) {
    const blank = event.shiftKey || state.blankNext;
    state.blankNext = false;
    setTile(state.cursor, blank ? key.toLowerCase() : key.toUpperCase());
    moveCursor(step(1));
  } else if (key === "Backspace") {
    if (!state.board[state.cursor]) state.cursor = step(-1);
    setTile(state.cursor, "");
    moveCursor(state.cursor);
  } else if (key === "Delete") {
    setTile(state.cursor, "");
  } else if (key === " ") {
    toggleDirection();
  } else if (key === "Enter") {
    findMoves();
  } else if (key === "Escape") {
    select(-1);
  } else {
    return;
  }
  event.preventDefault();
}

function boardRows() {
  const rows = [];
  for (let row = 0; row < SIZE; row++) {
    rows.push(state.board.slice(row * SIZE, (row + 1) * SIZE).map((t) => t || ".").join(""));
  }
  return rows;
}

// ---- CGP -------------------------------------------------------------------

function canonicalRack(rack) {
  const letters = [...rack].filter((t) => t !== "?").sort().join("");
  return letters + "?".repeat([...rack].filter((t) => t === "?").length);
}

function formatCgp() {
  const rows = boardRows().map((row) => row.replace(/\.+/g, (run) => String(run.length)));
  const rack = canonicalRack(rackValue());
  const lexicon = $("lexicon").value || "";
  return `${rows.join("/")} ${rack}/${canonicalRack(state.opponentRack)} ` +
    `${state.scores[0]}/${state.scores[1]} ${state.zeroTurns}` + (lexicon ? ` lex ${lexicon};` : "");
}

class CgpError extends Error {}

function parseCgp(text) {
  // Enough of CGP to fill the editor; the API checks the position strictly.
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2) throw new CgpError("expected '<board> <rack>/<opponent rack> <score>/<score> <zero turns> [opcodes;]'");
  const rowTexts = parts[0].split("/");
  if (rowTexts.length !== SIZE) throw new CgpError(`board has ${rowTexts.length} rows, expected ${SIZE}`);
  const board = [];
  rowTexts.forEach((rowText, row) => {
    const line = [];
    for (const token of rowText.match(/\d+|./g) || []) {
      if (/^\d+$/.test(token)) line.push(...new Array(Number(token)).fill(""));
      else if (/^[A-Za-z]$/.test(token)) line.push(token);
      else throw new CgpError(`row ${row}: '${token}' is not a letter or a count of empty squares`);
    }
    if (line.length !== SIZE) throw new CgpError(`row ${row} has ${line.length} cells, expected ${SIZE}`);
    board.push(...line);
  });
  const [rack, opponent = ""] = parts[1].split("/");
  let rest = parts.slice(2);
  let scores = [0, 0];
  let zeroTurns = 0;
  if (rest.length && /^-?\d+\/-?\d+$/.test(rest[0])) {
    scores = rest[0].split("/").map(Number);
    rest = rest.slice(1);
    if (rest.length && /^\d+$/.test(rest[0])) {
      zeroTurns = Number(rest[0]);
      rest = rest.slice(1);
    }
  }
  const lex = /(?:^|;)\s*lex\s+([^;\s]+)/.exec(rest.join(" "));
  return { board, rack, opponent, scores, zeroTurns, lexicon: lex ? lex[1] : null };
}

function loadCgp() {
  let parsed;
  try {
    parsed = parseCgp($("cgp").value);
  } catch (error) {
    if (!(error instanceof CgpError)) throw error;
    showError({ error: "cgp", detail: [{ field: "cgp", message: error.message }] });
    return;
  }
  state.board = parsed.board;
  state.opponentRack = parsed.opponent;
  state.scores = parsed.scores;
  state.zeroTurns = parsed.zeroTurns;
  $("rack").value = parsed.rack;
  if (parsed.lexicon) {
    const option = [...$("lexicon").options].find((o) => o.value.toLowerCase() === parsed.lexicon.toLowerCase());
    if (option) $("lexicon").value = option.value;
    else say(`Lexicon ${parsed.lexicon} is not served here; using ${$("lexicon").value}.`);
  }
  positionChanged();
  findMoves();
}

async function copyCgp() {
  // the position on the board, whatever was last typed into the field
  const text = formatCgp();
  $("cgp").value = text;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // no clipboard permission (an insecure origin, say): select it for Ctrl+C
    $("cgp").select();
    document.execCommand("copy");
  }
  say("CGP copied.");
}

// ---- asking the API --------------------------------------------------------

function rackValue() {
  return $("rack").value.trim().toUpperCase();
}

function positionChanged() {
  // an edit makes the listed moves stale: drop them and their preview
  state.moves = [];
  state.selected = -1;
  renderMoves();
  renderDetail();
  renderBoard();
  $("cgp").value = formatCgp();
}

function request() {
  const body = {
    board: boardRows(),
    rack: rackValue(),
    limit: LIMIT,
    heuristics: true,
    rank_by: document.querySelector("input[name=rank]:checked").value,
  };
  if (state.sendLexicon && $("lexicon").value) body.lexicon = $("lexicon").value;
  return body;
}

async function findMoves() {
  if (state.busy) return;
  state.busy = true;
  $("find").disabled = true;
  $("find").setAttribute("aria-busy", "true");
  clearError();
  say("Finding moves…");
  try {
    const response = await fetch("scrabble-api", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request()),
    });
    let answer;
    try {
      answer = await response.json();
    } catch {
      answer = { error: `HTTP ${response.status} ${response.statusText}`, detail: [] };
    }
    if (!response.ok) {
      showError(answer);
      return;
    }
    showAnswer(answer);
  } catch (error) {
    showError({ error: `cannot reach the gateway (${error.message})`, detail: [] });
  } finally {
    state.busy = false;
    $("find").disabled = false;
    $("find").removeAttribute("aria-busy");
  }
}

// ---- showing the answer ----------------------------------------------------

function say(text) {
  $("status").textContent = text;
}

function clearError() {
  clearApiError(["rack", "board", "cgp", "lexicon"]);
}

function showError(answer) {
  const inputs = { rack: "rack", board: "board", cgp: "cgp", lexicon: "lexicon" };
  showApiError(answer, "The engine refused the request:", "request failed", (field) => inputs[field]);
  state.moves = [];
  state.selected = -1;
  renderMoves();
  renderDetail();
  renderBoard();
  say("No moves: see the error.");
}

function isExchange(move) {
  return typeof move.notation === "string" && move.notation.startsWith("-");
}

function numeric(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function equityTerms(heuristics) {
  // Whatever numeric terms the breakdown carries: an object of named numbers
  // (today), or a list of {name, points|value} (the list form under way).
  if (!heuristics) return [];
  const terms = [];
  const seen = new Set();
  const add = (name, value) => {
    if (value === null || seen.has(name)) return;
    seen.add(name);
    terms.push({ name, value });
  };
  const list = Array.isArray(heuristics) ? heuristics
    : Array.isArray(heuristics.terms) ? heuristics.terms : [];
  for (const term of list) {
    if (!term || typeof term !== "object") continue;
    const name = term.name ?? term.term ?? term.key;
    const value = numeric(term.points) ?? numeric(term.value) ?? numeric(term.equity)
      ?? (numeric(term.millipoints) === null ? null : term.millipoints / 1000);
    if (name !== undefined) add(String(name), value);
  }
  if (!Array.isArray(heuristics)) {
    for (const [name, value] of Object.entries(heuristics)) add(name, numeric(value));
  }
  // the total last
  const total = terms.findIndex((t) => t.name === "equity");
  if (total >= 0) terms.push(...terms.splice(total, 1));
  return terms;
}

function moveEquity(move) {
  const total = equityTerms(move.heuristics).find((t) => t.name === "equity");
  return total ? total.value : numeric(move.equity);
}

function points(value) {
  return value === null || value === undefined ? "" : value.toFixed(1);
}

function moveLabel(move) {
  if (!isExchange(move)) return move.notation;
  const thrown = move.notation.slice(1);
  return thrown ? `exchange ${thrown}` : "pass";
}

function showAnswer(answer) {
  state.moves = answer.moves || [];
  // The page's own CGP stays: the answer's is the same position but, asked
  // with board + rack, without the opponent's rack and the scores of a paste.
  const ranked = answer.heuristics ? answer.heuristics.rank_by : "score";
  const shown = state.moves.length;
  // total_moves is null when the best-N search answered: it does not count
  const found = answer.total_moves === null ? "The best moves" : `${answer.total_moves} moves`;
  say(`${found} found in ${Math.round(answer.timing?.total_ms ?? 0)} ms; ` +
      `showing ${shown}, ranked by ${ranked}.` + (shown ? ` Best: ${moveLabel(state.moves[0])}.` : ""));
  renderMoves();
  renderExchange(answer);
  renderUnseen(answer.unseen);
  select(shown ? 0 : -1);
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((move, i) => {
    const equity = moveEquity(move);
    const option = el("li", {
      role: "option", id: `move-${i}`, class: "move", "aria-selected": "false",
      "aria-label": `${move.rank ?? i + 1}. ${moveLabel(move)}, score ${move.score}, ` +
        `leave ${move.leave || "none"}` + (equity === null ? "" : `, equity ${points(equity)}`),
    });
    if (isExchange(move)) option.classList.add("exchange");
    option.append(
      el("span", { class: "rank" }, String(move.rank ?? i + 1)),
      el("span", { class: "notation" }, moveLabel(move)),
      el("span", { class: "num" }, String(move.score)),
      el("span", { class: "leave" }, move.leave || "–"),
      el("span", { class: "num" }, points(equity)),
    );
    option.addEventListener("click", () => {
      select(i);
      list.focus();
    });
    list.append(option);
  });
  if (!state.moves.length) list.removeAttribute("aria-activedescendant");
}

function select(i) {
  state.selected = i;
  const list = $("moves");
  [...list.children].forEach((option, k) => option.setAttribute("aria-selected", String(k === i)));
  if (i >= 0 && list.children[i]) {
    list.setAttribute("aria-activedescendant", `move-${i}`);
    list.children[i].scrollIntoView({ block: "nearest" });
  } else {
    list.removeAttribute("aria-activedescendant");
  }
  renderBoard();
  renderDetail();
}

function movesKey(event) {
  const count = state.moves.length;
  if (!count) return;
  const next = {
    ArrowDown: Math.min(count - 1, state.selected + 1),
    ArrowUp: Math.max(0, state.selected - 1),
    Home: 0,
    End: count - 1,
  }[event.key];
  if (next === undefined) {
    if (event.key === "Escape") select(-1);
    return;
  }
  event.preventDefault();
  select(next);
}

function renderDetail() {
  const move = state.moves[state.selected];
  const body = $("terms").tBodies[0];
  body.replaceChildren();
  $("prospect").textContent = "";
  if (!move) {
    $("detail-move").textContent = "Select a move to see its terms.";
    return;
  }
  const terms = equityTerms(move.heuristics);
  $("detail-move").textContent = `${moveLabel(move)}: ` + (terms.length
    ? "terms in points." : "no equity terms in the answer.");
  const scale = Math.max(1, ...terms.map((t) => Math.abs(t.value)));
  for (const term of terms) {
    const row = el("tr", { class: `term${term.name === "equity" ? " total" : ""}`, "data-term": term.name });
    row.append(el("th", { scope: "row" }, term.name.replace(/_/g, " ")));
    const track = el("td", { class: "track", "aria-hidden": "true" });
    const bar = el("span", { class: `bar${term.value < 0 ? " negative" : ""}` });
    // half the track each side of zero
    bar.style.width = `${(50 * Math.abs(term.value)) / scale}%`;
    track.append(bar);
    row.append(track, el("td", { class: "num" }, points(term.value)));
    body.append(row);
  }
  const h = move.heuristics;
  if (h && !Array.isArray(h) && h.evaluated === false) {
    $("prospect").textContent = "Prospect and risk were not computed for this move (outside the time budget).";
  } else if (h && h.prospect_move) {
    const p = h.prospect_move;
    $("prospect").textContent = `Best prospect after it: ${p.notation} for ${p.score}, ` +
      `needs ${p.need}, ${(100 * p.probability).toFixed(0)} % likely.`;
  }
}

function renderExchange(answer) {
  const listed = (answer.moves || []).filter(isExchange);
  const best = answer.heuristics ? answer.heuristics.exchange : undefined;
  const top = (answer.moves || []).find((m) => !isExchange(m));
  const topEquity = top ? moveEquity(top) : null;
  const text = $("exchange");
  if (best) {
    const equity = numeric(best.equity);
    let advice = `Best exchange: throw ${best.throw}, keep ${best.keep || "nothing"}; ` +
      `equity ${points(equity)} (leave ${points(numeric(best.leave))} + prospect ${points(numeric(best.prospect) ?? 0)}).`;
    if (top && topEquity !== null && equity !== null) {
      advice += equity > topEquity
        ? ` Exchanging beats the best play, ${top.notation} (${points(topEquity)}).`
        : ` Playing ${top.notation} (${points(topEquity)}) is better.`;
    }
    text.textContent = advice;
  } else if (listed.length) {
    text.textContent = `Best exchange in the list: ${moveLabel(listed[0])} (equity ${points(moveEquity(listed[0]))}).`;
  } else if (answer.heuristics) {
    text.textContent = "No exchange offered (an exchange needs 7 or more tiles in the bag).";
  } else {
    text.textContent = "No exchange advice in the answer.";
  }
}

function renderUnseen(unseen) {
  const table = $("unseen");
  const head = table.tHead;
  const body = table.tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  if (!unseen || !unseen.tiles) {
    $("unseen-count").textContent = "";
    return;
  }
  const draws = Object.keys(unseen.p_at_least_one || {}).sort((a, b) => Number(b) - Number(a));
  const header = el("tr");
  header.append(el("th", { scope: "col" }, "tile"), el("th", { scope: "col" }, "left"));
  for (const d of draws) header.append(el("th", { scope: "col" }, `P(≥1 in ${d})`));
  head.append(header);
  for (const [tile, count] of Object.entries(unseen.tiles)) {
    const row = el("tr", { "data-tile": tile });
    row.append(el("th", { scope: "row" }, tile === "?" ? "? (blank)" : tile), el("td", { class: "num" }, String(count)));
    for (const d of draws) {
      const p = numeric(unseen.p_at_least_one[d][tile]);
      row.append(el("td", { class: "num" }, p === null ? "" : `${(100 * p).toFixed(1)} %`));
    }
    body.append(row);
  }
  $("unseen-count").textContent = `${unseen.count} tiles unseen (in the bag or on the opponent's rack); ` +
    "chance of drawing at least one of each in the next draws:";
}

// ---- lexicons --------------------------------------------------------------

async function getJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

async function loadLexicons() {
  let lexicons = [];
  try {
    const answer = await getJson("lexicons");
    const list = Array.isArray(answer) ? answer : answer.lexicons;
    if (Array.isArray(list) && list.length) {
      lexicons = list;
      state.sendLexicon = true;
    }
  } catch {
    // an older gateway: one lexicon, named in /health
  }
  // /health names the default lexicon (the one a request without a choice gets)
  let preferred = null;
  try {
    const health = await getJson("health");
    if (health.lexicon) {
      preferred = health.lexicon.name;
      if (!lexicons.length) lexicons = [health.lexicon];
    }
  } catch {
    if (!lexicons.length) say("The gateway's health check did not answer.");
  }
  const select = $("lexicon");
  select.replaceChildren();
  for (const lexicon of lexicons) {
    const words = Number(lexicon.words);
    select.append(el("option", { value: lexicon.name },
      Number.isFinite(words) ? `${lexicon.name} (${words.toLocaleString("en")} words)` : lexicon.name));
  }
  if (preferred && lexicons.some((lexicon) => lexicon.name === preferred)) select.value = preferred;
  $("cgp").value = formatCgp();
}

// ---- start -----------------------------------------------------------------

async function start() {
  try {
    const rules = await getJson("rules");
    premiumRows = rules.premiums;
    premiumNames = rules.legend;
    letterValues = rules.letter_values;
  } catch {
    premiumRows = new Array(SIZE).fill(".".repeat(SIZE));
    say("The gateway's rules did not answer: the board is drawn without its premium squares.");
  }
  buildBoard();
  renderBoard();
  $("query").addEventListener("submit", (event) => {
    event.preventDefault();
    findMoves();
  });
  $("moves").addEventListener("keydown", movesKey);
  $("moves").addEventListener("focus", () => {
    if (state.selected < 0 && state.moves.length) select(0);
  });
  $("direction").addEventListener("click", () => {
    toggleDirection();
    cells[state.cursor].focus();
  });
  $("clear-board").addEventListener("click", () => {
    state.board.fill("");
    positionChanged();
  });
  $("rack").addEventListener("input", positionChanged);
  $("lexicon").addEventListener("change", positionChanged);
  $("cgp-load").addEventListener("click", loadCgp);
  $("cgp-copy").addEventListener("click", copyCgp);
  loadLexicons();
}

start();
