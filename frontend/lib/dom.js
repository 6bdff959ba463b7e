// Builds elements from data, never from HTML strings: nothing the server or a player sends can
// become markup, and the strict Content-Security-Policy (no inline styles) holds, because styles
// are set through the CSSOM only.

import { t } from "../i18n.js";

export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (name === "text") element.textContent = value;
    else if (name === "on") for (const [event, handler] of Object.entries(value)) element.addEventListener(event, handler);
    else if (name === "style") for (const [property, v] of Object.entries(value)) element.style.setProperty(property, String(v));
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name in element && !name.includes("-") && typeof value !== "string") element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
  return parent;
}

/** The line a screen shows while it waits for the server. */
export function loading() {
  return h("p", { class: "loading", role: "status" }, t("common.loading"));
}

/** Says `text` to screen readers through the page's live regions. */
export function announce(text, { urgent = false } = {}) {
  const region = document.getElementById(urgent ? "alert" : "announcer");
  if (!region) return;
  // Clearing first makes the same sentence twice in a row be read twice.
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30);
}

/** Copies text; resolves true when it reached the clipboard. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function focusHeading(root) {
  const heading = root.querySelector("h1, h2");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: false });
  }
}
