// The entry point: picks the language and theme, draws the header, and shows the screen the
// address asks for. Screens other than today's game load on first use, so the first visit
// downloads only what it shows.

import { current, direction, isSupported, loadLanguage, matchLanguage, t } from "./i18n.js";
import { read, write } from "./prefs.js";
import { h, replace } from "./lib/dom.js";
import { parse } from "./lib/router.js";
import { renderHeader } from "./components/header.js";

const main = document.getElementById("main");
const header = document.getElementById("site-header");

const ROUTES = {
  "": { section: "today", load: () => import("./foursquare/today.js") },
  game: { section: null, load: () => import("./foursquare/game-page.js") },
  practice: { section: "practice", load: () => import("./foursquare/practice.js") },
  challenge: { section: "practice", load: () => import("./foursquare/challenge.js") },
  archive: { section: "practice", load: () => import("./foursquare/archive.js") },
  // Foursquare races: #/races, #/races/new, #/races/join/<code>, #/races/<id>.
  races: { section: "races", load: () => import("./foursquare/races/index.js") },
  boards: { section: "boards", load: () => import("./foursquare/boards.js") },
  "boards/spite-malice": { section: "boards", load: () => import("./spitemalice/lobby/boards.js") },
  leagues: { section: "leagues", load: () => import("./components/leagues.js") },
  join: { section: "leagues", load: () => import("./components/leagues.js") },
  stats: { section: "stats", load: () => import("./components/stats.js") },
  profile: { section: "profile", load: () => import("./components/profile.js") },
  rules: { section: "rules", load: () => import("./foursquare/rules.js") },
  tutorial: { section: "rules", load: () => import("./foursquare/tutorial.js") },
  // "How we prove it": the deals' commitments and how anyone checks them.
  fair: { section: "rules", load: () => import("./fairness/page.js") },
  // Spite & Malice's lobby: its match list, new matches, invitations, rules and tutorial.
  "spite-malice": { section: "matches", load: () => import("./spitemalice/lobby/index.js") },
  // A match's table: #/spite-malice/match/<id>.
  "spite-malice/match": { section: "matches", load: () => import("./spitemalice/match.js") },
};

let theme = read("theme", "auto");
let leaving = null;
let shownHash = null;

function applyTheme(value) {
  theme = value;
  write("theme", value === "auto" ? null : value);
  if (value === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = value;
}

function applyLanguage() {
  const { lang } = current();
  document.documentElement.lang = lang;
  document.documentElement.dir = direction(lang);
  document.title = t("app.name");
  document.querySelector(".skip-link").textContent = t("app.skip");
}

async function setLanguage(code) {
  write("lang", code);
  await loadLanguage(code);
  applyLanguage();
  await show({ force: true });
  document.getElementById("language")?.focus();
}

function drawHeader(section) {
  renderHeader(header, {
    section,
    theme,
    onLanguage: setLanguage,
    onTheme: (value) => {
      applyTheme(value);
      drawHeader(section);
      header.querySelector(".theme-button").focus();
    },
  });
}

async function show({ force = false } = {}) {
  if (!force && location.hash === shownHash) return;
  shownHash = location.hash;
  const route = parse();
  // A route of two parts ("spite-malice/match") may have a screen of its own.
  const entry = ROUTES[route.parts.slice(0, 2).join("/")] ?? ROUTES[route.parts[0] ?? ""];
  drawHeader(entry?.section ?? null);
  leaving?.abort();
  const controller = new AbortController();
  leaving = controller;
  if (!entry) {
    replace(main, h("section", { class: "page" }, h("h1", {}, t("notfound.title")),
      h("p", {}, h("a", { href: "#/" }, t("notfound.home")))));
    return;
  }
  main.setAttribute("aria-busy", "true");
  try {
    const module = await entry.load();
    if (controller.signal.aborted) return;
    await module.default(main, route, { signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) return;
    console.error(error);
    replace(main, h("section", { class: "page" }, h("h1", {}, t("error.generic")),
      h("p", {}, h("a", { href: "#/" }, t("notfound.home")))));
  } finally {
    if (!controller.signal.aborted) main.removeAttribute("aria-busy");
  }
}

async function start() {
  applyTheme(theme);
  const saved = read("lang");
  await loadLanguage(isSupported(saved) ? saved : matchLanguage(navigator.languages ?? [navigator.language]));
  applyLanguage();
  window.addEventListener("hashchange", () => show());
  // The skip link moves focus to the screen's content. Followed as a plain "#main" link it
  // would change the hash, which the app reads as a route ("There is nothing here").
  document.querySelector(".skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    const main = document.getElementById("main");
    main.focus();
    main.scrollIntoView();
  });
  await show();
}

start();
