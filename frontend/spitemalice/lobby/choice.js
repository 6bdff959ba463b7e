// A choice of a few values as a row of radio buttons (a fieldset with its legend): keyboard
// arrows move between them, and the chosen one is marked by more than a colour.

import { h } from "../../lib/dom.js";

export function choice({ name, legend, options, value, hint = null, id = `choice-${name}` }) {
  const hintLine = hint ? h("p", { class: "field-hint subtle", id: `${id}-hint` }, hint) : null;
  return h("fieldset", { class: "choice", id, "aria-describedby": hintLine ? hintLine.id : null },
    h("legend", {}, legend),
    h("div", { class: "choice-options" }, options.map(([option, label]) => h("label", { class: "choice-option" },
      h("input", { type: "radio", name, value: String(option), checked: String(option) === String(value) }),
      h("span", {}, label)))),
    hintLine);
}

/** Selects `value` in the choice called `name` inside `root`. */
export function choose(root, name, value) {
  const input = root.querySelector(`input[name="${name}"][value="${value}"]`);
  if (input) input.checked = true;
}
