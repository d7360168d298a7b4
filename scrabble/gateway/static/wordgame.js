// The WordGame page at GET /wordgame: play a seeded case against the referee
// (POST wordgame/game, sent the seed and every action so far: the gateway keeps
// no game) and ask the player for its action (POST wordgame/turn). Plain
// script, no build step; it only talks to this gateway.
"use strict";

const PREMIUM_LABELS = { T: "TW", D: "DW", t: "TL", d: "DL" };
const PREMIUM_NAMES = {
  T: "triple word", D: "double word", t: "triple letter", d: "double letter",
};

const state = {
  seed: 0,
  actions: [], // the protocol's reply lines, in order
  game: null, // the last answer of wordgame/game
  advice: null, // the last answer of wordgame/turn, for this state only
  letterValues: {},
  pick: null, // {row, col, down}: the square a click chose for a play
  busy: false,
};

function say(text) {
  $("status").textContent = text;
}

async function postJson(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = { error: `HTTP ${response.status}` };
  }
  return { ok: response.ok, status: response.status, answer };
}

// ---- errors ------------------------------------------------------------------

function clearError() {
  clearApiError(["seed", "action"]);
}

function showError(answer, what) {
  showApiError(answer, `${what} was refused:`, "the request failed", (field) => {
    if (field === "seed") return "seed";
    return field.startsWith("actions") ? "action" : null;
  });
}

// ---- the game ----------------------------------------------------------------

function playSquares(row, col, horizontal, word) {
  return Array.from(word, (letter, i) => ({
    row: horizontal ? row : row + i,
    col: horizontal ? col + i : col,
    letter,
  }));
}

function previewOf(advice) {
  // the advised play's new tiles, by square index
  const preview = new Map();
  const action = advice && advice.action;
  if (!action || action.type !== "play" || !state.game) return preview;
  const n = state.game.n;
  for (const sq of playSquares(action.row, action.col, action.direction === "H", action.word)) {
    if (sq.row < n && sq.col < n && state.game.board[sq.row][sq.col] === ".") {
      preview.set(sq.row * n + sq.col, sq.letter);
    }
  }
  return preview;
}

function buildBoard(n) {
  const board = $("board");
  board.replaceChildren();
  board.style.setProperty("--n", String(n));
  board.setAttribute("aria-rowcount", String(n + 1));
  board.setAttribute("aria-colcount", String(n + 1));
  const head = el("div", { role: "row", class: "board-row" });
  head.append(el("span", { role: "presentation", class: "corner" }));
  for (let col = 0; col < n; col++) head.append(el("span", { role: "columnheader", class: "label" }, String(col)));
  board.append(head);
  for (let row = 0; row < n; row++) {
    const line = el("div", { role: "row", class: "board-row" });
    line.append(el("span", { role: "rowheader", class: "label" }, String(row)));
    for (let col = 0; col < n; col++) {
      const cell = el("div", { role: "gridcell", class: "cell", "data-row": row, "data-col": col });
      cell.addEventListener("click", () => pickSquare(row, col));
      line.append(cell);
    }
    board.append(line);
  }
}

function renderBoard() {
  const game = state.game;
  const preview = previewOf(state.advice);
  const target = new Set(
    ((state.advice && state.advice.target && state.advice.target.squares) || []).map(([r, c]) => r * game.n + c),
  );
  for (const cell of $("board").querySelectorAll(".cell")) {
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    const premium = game.premiums[row][col];
    const tile = game.board[row][col] === "." ? "" : game.board[row][col];
    const index = row * game.n + col;
    const shown = tile || preview.get(index) || "";
    cell.dataset.premium = premium === "." ? "" : premium;
    cell.classList.toggle("tile", Boolean(tile));
    cell.classList.toggle("preview", !tile && preview.has(index));
    cell.classList.toggle("target", target.has(index));
    const picked = state.pick && state.pick.row === row && state.pick.col === col;
    cell.classList.toggle("cursor", Boolean(picked));
    cell.classList.toggle("down", Boolean(picked && state.pick.down));
    cell.replaceChildren();
    let what;
    if (shown) {
      cell.append(el("span", { class: "letter" }, shown));
      cell.append(el("span", { class: "value" }, String(state.letterValues[shown] ?? "")));
      what = `${tile ? "" : "advised "}${shown}`;
    } else {
      if (premium !== ".") cell.append(el("span", { class: "premium" }, PREMIUM_LABELS[premium]));
      what = premium !== "." ? `empty, ${PREMIUM_NAMES[premium]}` : "empty";
    }
    if (target.has(index)) what += ", in the player's target";
    cell.setAttribute("aria-label", `row ${row}, column ${col}: ${what}`);
  }
}

function renderTiles(id, letters) {
  const box = $(id);
  box.replaceChildren();
  for (const letter of letters) {
    const tile = el("span", { class: "rack-tile" });
    tile.append(el("span", { class: "letter" }, letter), el("span", { class: "value" }, String(state.letterValues[letter] ?? "")));
    box.append(tile);
  }
  if (!letters) box.append(el("span", { class: "hint" }, "none"));
}

function renderFacts() {
  const game = state.game;
  const facts = [
    ["Case", `${game.id}: ${game.n} x ${game.n}`],
    ["Hand size", String(game.t)],
    ["Tiles seen ahead", String(game.x)],
    ["Discard cost", String(game.d)],
    ["Tiles left", String(game.tiles_left)],
    ["Score", game.over ? `${game.final_score} (final)` : String(game.score)],
  ];
  const list = $("facts");
  list.replaceChildren();
  for (const [name, value] of facts) {
    const item = el("div");
    item.append(el("dt", {}, name), el("dd", { "data-fact": name.toLowerCase().replace(/ /g, "-") }, value));
    list.append(item);
  }
}

function renderTurns() {
  const list = $("turns");
  list.replaceChildren();
  state.game.turns.forEach((turn, i) => {
    const item = el("li", { class: "turn" });
    item.append(
      el("span", { class: "num" }, String(i + 1)),
      el("span", { class: "notation" }, turn.line),
      el("span", { class: "num", title: "points" }, signed(turn.points)),
      el("span", { class: "num", title: "score after it" }, String(turn.score)),
    );
    list.append(item);
  });
}

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

function points(value) {
  return Number(value).toFixed(1);
}

function renderAdvice() {
  const advice = state.advice;
  const body = $("terms").tBodies[0];
  body.replaceChildren();
  $("alternatives").replaceChildren();
  $("target").textContent = "";
  $("take").disabled = !advice || state.busy || state.game.over;
  if (!advice) {
    $("advice").textContent = state.game && state.game.over
      ? "The game is over."
      : "Ask the player for its action on this state.";
    return;
  }
  $("advice").textContent = `${advice.player}: ${advice.action.line}, worth ${points(advice.value)} points:`;
  const target = advice.target;
  $("target").textContent = target
    ? `Its target: the window ${target.direction === "H" ? "across" : "down"} from row ${target.row}, ` +
      `column ${target.col} (${target.length} squares), its ${target.squares.length} empty squares ` +
      `outlined on the board, x${target.word_multiplier} in word multipliers.`
    : "";
  const terms = Object.entries(advice.terms);
  const scale = Math.max(1, ...terms.map(([, value]) => Math.abs(value)));
  for (const [name, value] of terms) {
    const row = el("tr", { class: "term", "data-term": name });
    row.append(el("th", { scope: "row" }, name.replace(/_/g, " ")));
    const track = el("td", { class: "track", "aria-hidden": "true" });
    const bar = el("span", { class: `bar${value < 0 ? " negative" : ""}` });
    bar.style.width = `${(50 * Math.abs(value)) / scale}%`;
    track.append(bar);
    row.append(track, el("td", { class: "num" }, points(value)));
    body.append(row);
  }
  for (const alternative of advice.alternatives) {
    const item = el("li");
    const use = el("button", { type: "button", class: "use" }, alternative.action.line);
    use.addEventListener("click", () => {
      $("action").value = alternative.action.line;
      $("action").focus();
    });
    item.append(use, el("span", { class: "num" }, points(alternative.value)));
    $("alternatives").append(item);
  }
}

function render() {
  renderFacts();
  renderBoard();
  renderTiles("hand", state.game.hand);
  renderTiles("visible", state.game.visible);
  renderTurns();
  renderAdvice();
  $("undo").disabled = state.busy || state.actions.length === 0;
  $("advise").disabled = state.busy || state.game.over;
  $("send").disabled = state.busy || state.game.over;
}

function remember() {
  const params = new URLSearchParams({ seed: String(state.seed) });
  if (state.actions.length) params.set("actions", state.actions.join(";"));
  history.replaceState(null, "", `#${params}`);
}

async function replay(actions, what) {
  // the referee's state after the actions; false (and the state kept) when refused
  // or while another request is out (a second Enter must not race the first)
  if (state.busy) return false;
  state.busy = true;
  clearError();
  say("The referee is judging…");
  try {
    const { ok, answer } = await postJson("wordgame/game", { seed: state.seed, actions });
    if (!ok) {
      showError(answer, what);
      say("Nothing changed: see the error.");
      return false;
    }
    const fresh = !state.game || state.game.n !== answer.n || state.game.id !== answer.id;
    state.game = answer;
    state.actions = actions;
    state.advice = null;
    state.pick = null;
    if (fresh) buildBoard(answer.n);
    remember();
    const last = answer.turns[answer.turns.length - 1];
    say(answer.over
      ? `The game is over: ${answer.final_score} points.`
      : last ? `${last.line}: ${signed(last.points)} points.` : `${answer.id}: your turn.`);
    return true;
  } catch (error) {
    showError({ error: `The gateway did not answer (${error.message}).` }, what);
    return false;
  } finally {
    state.busy = false;
    if (state.game) render();
  }
}

function normalized(text) {
  return text.trim().toUpperCase().split(/\s+/).filter(Boolean).join(" ");
}

async function send(line) {
  if (!state.game || state.game.over) return;
  const action = normalized(line);
  if (!action) {
    showError({ detail: [{ field: "action", message: "type a PLAY, a DISCARD or STOP" }] }, "The action");
    return;
  }
  if (await replay([...state.actions, action], "The action")) $("action").value = "";
}

async function advise() {
  const game = state.game;
  if (!game || game.over || state.busy) return;
  state.busy = true;
  clearError();
  say("The player is thinking…");
  render();
  try {
    const { ok, answer } = await postJson("wordgame/turn", {
      premiums: game.premiums,
      board: game.board,
      hand: game.hand,
      hand_size: game.t,
      visible: game.visible,
      discard_cost: game.d,
      tiles_left: game.tiles_left,
      score: game.score,
      lexicon: game.lexicon,
      player: $("player").value,
      alternatives: 5,
    });
    if (!ok) {
      showError(answer, "The request for advice");
      say("No advice: see the error.");
      return;
    }
    state.advice = answer;
    say(`The player advises ${answer.action.line}.`);
  } catch (error) {
    showError({ error: `The gateway did not answer (${error.message}).` }, "The request for advice");
  } finally {
    state.busy = false;
    render();
  }
}

function pickSquare(row, col) {
  if (!state.game || state.game.over) return;
  const again = state.pick && state.pick.row === row && state.pick.col === col;
  state.pick = { row, col, down: again ? !state.pick.down : false };
  const word = normalized($("action").value).split(" ")[4] || "";
  $("action").value = `PLAY ${row} ${col} ${state.pick.down ? "V" : "H"} ${word}`;
  renderBoard();
  $("action").focus();
}

async function newGame(seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > 1e9) {
    showError({ detail: [{ field: "seed", message: "a whole number from 0 to 1,000,000,000" }] }, "The seed");
    return;
  }
  if (state.busy) return;
  const previous = state.seed;
  state.seed = seed; // the game on show stays until the new case is drawn
  if (!(await replay([], "The seed"))) state.seed = previous;
}

async function start() {
  try {
    const response = await fetch("rules");
    if (response.ok) state.letterValues = (await response.json()).letter_values;
  } catch {
    // tiles are drawn without their values
  }
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame(Number($("seed").value));
  });
  $("act").addEventListener("submit", (event) => {
    event.preventDefault();
    send($("action").value);
  });
  $("advise").addEventListener("click", advise);
  $("player").addEventListener("change", () => {
    state.advice = null; // the advice shown is the other player's
    if (state.game) render();
  });
  $("take").addEventListener("click", () => state.advice && send(state.advice.action.line));
  $("undo").addEventListener("click", () => replay(state.actions.slice(0, -1), "The undo"));
  // a game in the address (#seed=...&actions=...) is played again, so it can be shared
  const params = new URLSearchParams(location.hash.slice(1));
  const seed = Number(params.get("seed") ?? $("seed").value);
  $("seed").value = String(seed);
  state.seed = seed;
  const actions = (params.get("actions") || "").split(";").filter(Boolean);
  if (!(await replay(actions, "The game in the address")) && actions.length) await replay([], "The seed");
}

start();
