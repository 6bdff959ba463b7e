// The site header: the name, the sections, the language and the theme.

import { h, replace } from "../lib/dom.js";
import { LANGUAGES, current, t } from "../i18n.js";

export const SECTIONS = [
  ["today", "/"],
  ["matches", "/spite-malice"],
  ["practice", "/practice"],
  ["races", "/races"],
  ["boards", "/boards"],
  ["leagues", "/leagues"],
  ["stats", "/stats"],
  ["rules", "/rules"],
  ["profile", "/profile"],
];

const THEMES = ["auto", "light", "dark"];

export function renderHeader(container, { section, theme, onLanguage, onTheme }) {
  const language = h("select", {
    id: "language", class: "language-select", "aria-label": t("header.language"),
    on: { change: (event) => onLanguage(event.target.value) },
  }, LANGUAGES.map(({ code, name }) =>
    h("option", { value: code, lang: code, selected: code === current().lang }, name)));

  const nextTheme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
  const themeButton = h("button", {
    type: "button", class: "theme-button",
    "aria-label": t("header.theme", { theme: t(`theme.${theme}`) }),
    title: t("header.theme", { theme: t(`theme.${theme}`) }),
    on: { click: () => onTheme(nextTheme) },
  }, h("span", { "aria-hidden": "true" }, theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐"));

  replace(container,
    h("div", { class: "header-top" },
      h("a", { class: "brand", href: "#/" },
        h("span", { class: "brand-mark", "aria-hidden": "true" }, h("span"), h("span"), h("span"), h("span")),
        h("span", { class: "brand-name" }, t("app.name"))),
      h("div", { class: "header-tools" }, language, themeButton)),
    h("nav", { class: "site-nav", "aria-label": t("nav.label") },
      h("ul", {}, SECTIONS.map(([name, path]) => h("li", {},
        h("a", { href: `#${path}`, "aria-current": name === section ? "page" : null, dataset: { section: name } },
          t(`nav.${name}`))))),
      // Where the row scrolls (a phone), an arrow at each end with more beyond it says so and
      // scrolls on a tap; the links themselves stay reachable by Tab, so the arrows are hidden
      // from screen readers.
      ["start", "end"].map((end) => h("button", {
        type: "button", class: `nav-more nav-more-${end}`, tabindex: "-1", "aria-hidden": "true", hidden: true,
        dataset: { more: end },
        on: { click: () => scrollNav(container, end) },
      }, h("span", {}, "›")))));
  revealCurrent(container);
  const list = container.querySelector(".site-nav ul");
  list.addEventListener("scroll", () => markMore(container), { passive: true });
  if (!resizeWatched) {
    resizeWatched = true;
    window.addEventListener("resize", () => markMore(document.getElementById("site-header")), { passive: true });
  }
  markMore(container);
}

let resizeWatched = false;

/** How far the row is scrolled from its start, and how much of it lies beyond its end (the
 *  same in either direction: RTL's scrollLeft counts down from 0). */
function overflowOf(list) {
  const from = Math.abs(list.scrollLeft);
  return { before: from, after: list.scrollWidth - list.clientWidth - from };
}

/** Shows each end's arrow while there is more of the row beyond it. */
function markMore(container) {
  const list = container?.querySelector(".site-nav ul");
  if (!list) return;
  const { before, after } = overflowOf(list);
  container.querySelector(".nav-more-start").hidden = before <= 1;
  container.querySelector(".nav-more-end").hidden = after <= 1;
}

function scrollNav(container, end) {
  const list = container.querySelector(".site-nav ul");
  const rtl = getComputedStyle(list).direction === "rtl";
  const step = list.clientWidth * 0.6 * (end === "end" ? 1 : -1) * (rtl ? -1 : 1);
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  list.scrollBy({ left: step, behavior: still ? "instant" : "smooth" });
}

/**
 * Marks `section` as the current screen in the nav, for screens that learn it only once their
 * data is in (a game by its id is a daily's or a practice deal's).
 */
export function markSection(section, container = document.getElementById("site-header")) {
  for (const link of container?.querySelectorAll(".site-nav a") ?? []) {
    if (link.dataset.section === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  revealCurrent(container);
}

/** Where the nav is one row that overflows (it wraps on a phone): keep the current screen in sight. */
function revealCurrent(container) {
  const link = container?.querySelector('.site-nav a[aria-current="page"]');
  const list = link?.closest("ul");
  if (!link || !list || list.scrollWidth <= list.clientWidth) return;
  const [box, item] = [list.getBoundingClientRect(), link.getBoundingClientRect()];
  // Scroll by how far the link's centre is from the list's (negative scrollLeft in RTL works
  // the same way: scrollBy is relative).
  list.scrollBy({ left: (item.left + item.width / 2) - (box.left + box.width / 2), behavior: "instant" });
  markMore(container);
}
