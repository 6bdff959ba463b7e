// Asking a player for a name before others see it: creating or joining a league, joining a
// friend's match. A board or a table full of the names players are given says nothing.

import * as api from "../api.js";
import { h } from "../lib/dom.js";
import { field } from "./form.js";

// The name a player gets until they choose one (docs/API.md, "Players").
const DEFAULT_NAME = /^Player [0-9A-Z]{6}$/;

/** Whether the player (or the guest about to be made) still has the name they were given. */
export async function needsName() {
  if (!api.hasToken()) return true;
  try {
    return DEFAULT_NAME.test((await api.me()).name);
  } catch {
    return false;
  }
}

/** The name's field, `player_name`, so a form's own `name` field stays its own. */
export function playerNameField({ label, hint }) {
  return field(label, h("input", { name: "player_name", required: true, minlength: "2", maxlength: "24", autocomplete: "nickname" }), { hint });
}

/** Saves the name the form asked for; its problems belong to that field, not the form's. */
export async function saveName(values) {
  if (values.player_name === undefined) return;
  try {
    await api.rename(values.player_name);
  } catch (error) {
    for (const line of error.body?.errors ?? []) if (line.field === "name") line.field = "player_name";
    throw error;
  }
}
