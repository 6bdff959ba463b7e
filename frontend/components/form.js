// Small form helpers: a labelled field, and a submit handler that shows the server's problem.

import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";

let counter = 0;

export function field(label, input) {
  counter += 1;
  input.id ||= `field-${counter}`;
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input);
}

/** A form whose submit runs `action(values)`; problems appear inside it, above the buttons. */
export function form({ id, fields, submit, action, className = "" }) {
  const problems = h("div", { class: "form-problems" });
  const button = h("button", { type: "submit", class: "button primary" }, submit);
  const element = h("form", { id, class: ["form", className], novalidate: true }, fields, problems, h("div", { class: "actions" }, button));
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    replace(problems);
    try {
      await action(Object.fromEntries(new FormData(element)));
    } catch (error) {
      replace(problems, problemView(error));
    } finally {
      button.disabled = false;
    }
  });
  return element;
}
