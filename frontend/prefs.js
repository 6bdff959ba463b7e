// What the browser remembers between visits. localStorage can be unavailable (private modes,
// blocked storage): then nothing is remembered and nothing breaks.

const PREFIX = "fsd.";

export function read(name, fallback = null) {
  try {
    const raw = localStorage.getItem(PREFIX + name);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

export function write(name, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + name);
    else localStorage.setItem(PREFIX + name, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the preference lasts for this page only.
  }
}

/** Keeps only the newest `keep` entries of a per-game map, so storage does not grow forever. */
export function writeCapped(name, key, value, keep = 30) {
  const entries = Object.entries(read(name, {})).filter(([k]) => k !== key);
  entries.push([key, value]);
  write(name, Object.fromEntries(entries.slice(-keep)));
}
