// The code files the string tests read for the keys they name (not a test file itself).

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every .js file under `directory`, its language tables (locales/) left out. */
export function sources(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === "locales" ? [] : sources(path);
    return name.endsWith(".js") ? [path] : [];
  });
}
