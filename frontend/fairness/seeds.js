// The client seeds this browser sends when it creates or joins a match or a race
// (docs/FAIRNESS.md): drawn here, and remembered by subject (match/<id>, race/<id>) with the
// commitment shown before it was sent, so the result screen can check that the seed revealed
// is this one and that the commitment did not change.

import { read, writeCapped } from "../prefs.js";

const NAME = "fairSeeds";

/** 16 random bytes in hex: a client seed (1 to 64 printable ASCII characters). */
export function clientSeed() {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Remembers what was sent for `subject`: `{seed, commitment?}`. */
export const remember = (subject, sent) => writeCapped(NAME, subject, sent, 60);

/** What was sent for `subject`, or null (another device, or storage cleared). */
export const sentFor = (subject) => read(NAME, {})[subject] ?? null;
