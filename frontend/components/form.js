// Small form helpers: a labelled field (with the rule it must follow, shown before the first
// try), and a submit handler that shows the server's problem translated: the sentence above
// the buttons, and each field's own line beside that field.

import { h, replace } from "../lib/dom.js";
import { fieldProblems, problemView } from "../lib/problems.js";

let counter = 0;

/** A label and its input; `hint` is a line under it that the input is described by. */
export function field(label, input, { hint = null } = {}) {
  counter += 1;
  input.id ||= `field-${counter}`;
  const hintLine = hint ? h("p", { class: "field-hint subtle", id: `${input.id}-hint` }, hint) : null;
  if (hintLine) input.setAttribute("aria-describedby", hintLine.id);
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, hintLine);
}

function clearFieldProblems(element) {
  for (const line of element.querySelectorAll(".field-problem")) {
    if (line.classList.contains("field-hint")) line.classList.remove("field-problem");
    else line.remove();
  }
  for (const input of element.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    const hint = input.getAttribute("aria-describedby")?.split(" ").filter((id) => !id.endsWith("-problem")).join(" ");
    if (hint) input.setAttribute("aria-describedby", hint);
    else input.removeAttribute("aria-describedby");
  }
}

/** Puts each field's translated problem beside its input; returns the lines that found none. */
export function showFieldProblems(element, error, options = {}) {
  clearFieldProblems(element);
  const homeless = [];
  const byField = new Map();
  for (const line of fieldProblems(error, options)) {
    const input = element.querySelector(`[name="${CSS.escape(line.field)}"]`);
    if (!input) homeless.push(line);
    else byField.set(input, [...(byField.get(input) ?? []), line.text]);
  }
  let first = null;
  for (const [input, texts] of byField) {
    const text = texts.join(" ");
    const hint = document.getElementById(`${input.id}-hint`);
    input.setAttribute("aria-invalid", "true");
    first ??= input;
    // The rule already under the field is the problem: it is marked as such, not said twice.
    if (hint?.textContent === text) {
      hint.classList.add("field-problem");
      continue;
    }
    const id = `${input.id}-problem`;
    input.closest(".field").append(h("p", { class: "field-problem", id }, text));
    input.setAttribute("aria-describedby", [input.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
  }
  first?.focus();
  return homeless;
}

/**
 * A form whose submit runs `action(values)`; problems appear inside it: the sentence above the
 * buttons, field lines beside their fields. `names` picks the rule a field's problem states.
 */
export function form({ id, fields, submit, action, className = "", names = {} }) {
  const problems = h("div", { class: "form-problems" });
  const button = h("button", { type: "submit", class: "button primary" }, submit);
  const element = h("form", { id, class: ["form", className], novalidate: true }, fields, problems, h("div", { class: "actions" }, button));
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    replace(problems);
    clearFieldProblems(element);
    try {
      await action(Object.fromEntries(new FormData(element)));
    } catch (error) {
      const homeless = showFieldProblems(element, error, { names });
      const view = problemView(error, { fields: false, names });
      if (homeless.length) view.append(h("ul", { class: "problem-fields" }, homeless.map(({ field: name, text }) => h("li", { dataset: { field: name } }, text))));
      replace(problems, view);
    } finally {
      button.disabled = false;
    }
  });
  return element;
}
