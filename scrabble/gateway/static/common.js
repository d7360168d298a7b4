// What both pages (GET / and GET /wordgame) share: element helpers and the
// API's error box. Loaded before each page's own script.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The #error box emptied and hidden, and the inputs it marked unmarked.
function clearApiError(inputs) {
  $("error").hidden = true;
  $("error").replaceChildren();
  for (const id of inputs) $(id).removeAttribute("aria-invalid");
}

// An API error body in the #error box: each {field, message} of its detail
// named as the API says it (after the intro), else its one-line error (or the
// fallback); the input inputFor(field) names, if any, marked invalid.
function showApiError(answer, intro, fallback, inputFor) {
  const box = $("error");
  box.replaceChildren();
  const detail = Array.isArray(answer.detail) ? answer.detail : [];
  if (detail.length) {
    const list = el("ul");
    for (const item of detail) {
      const line = el("li");
      line.append(el("strong", { class: "field" }, String(item.field)), `: ${item.message}`);
      list.append(line);
      const input = inputFor(String(item.field));
      if (input) $(input).setAttribute("aria-invalid", "true");
    }
    box.append(el("p", {}, intro), list);
  } else {
    box.append(el("p", {}, String(answer.error || answer.detail || fallback)));
  }
  box.hidden = false;
}
