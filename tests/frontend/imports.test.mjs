// The modules' imports, static and dynamic, form no cycle. The hashed static files need it:
// a module's hash covers the hashed names it imports, so two modules that import each other
// never settle on a name, and collectstatic (which `make run` runs) stops with "Max
// post-process passes exceeded".

import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

const FRONTEND = new URL("../../frontend/", import.meta.url).pathname;

function modules(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return modules(path);
    return path.endsWith(".js") ? [path] : [];
  });
}

test("no module imports itself, through any chain of static or dynamic imports", () => {
  const imports = new Map(modules(FRONTEND).map((path) => [path,
    [...readFileSync(path, "utf8").matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)"(\.{1,2}\/[^"]+)"/gm)]
      .map((match) => resolve(dirname(path), match[1]))]));
  assert.ok(imports.size > 50, `found only ${imports.size} modules`);
  const cycles = [];
  const state = new Map();
  const trail = [];
  const visit = (path) => {
    state.set(path, "open");
    trail.push(path);
    for (const next of imports.get(path) ?? []) {
      if (state.get(next) === "open") cycles.push([...trail.slice(trail.indexOf(next)), next].map((p) => relative(FRONTEND, p)).join(" → "));
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(path, "done");
  };
  for (const path of imports.keys()) if (!state.has(path)) visit(path);
  assert.deepEqual(cycles, []);
});

// Which game a module serves, by its folder: "foursquare", "spitemalice", or null (shared).
const GAMES = ["foursquare", "spitemalice"];
const gameOf = (path) => GAMES.find((game) => relative(FRONTEND, path).startsWith(`${game}/`)) ?? null;

test("static imports go from a game to the shared modules, never into the other game nor from shared code into a game", () => {
  const crossings = [];
  for (const path of modules(FRONTEND)) {
    for (const match of readFileSync(path, "utf8").matchAll(/(?:\bfrom\s+|^import\s+)"(\.{1,2}\/[^"]+)"/gm)) {
      const target = resolve(dirname(path), match[1]);
      const game = gameOf(target);
      if (game && game !== gameOf(path)) crossings.push(`${relative(FRONTEND, path)} → ${relative(FRONTEND, target)}`);
    }
  }
  // A game's part elsewhere (a route, the home page's Spite & Malice part, a stats section)
  // is a literal import(), loaded on first use.
  assert.deepEqual(crossings, []);
});
