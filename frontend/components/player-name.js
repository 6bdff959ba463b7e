// Asking a player for a name before others see it: creating or joining a league, joining a
// friend's match. A board or a table full of the names players are given says nothing.

import * as api from "../api.js";
import { h } from "../lib/dom.js";
import { field } from "./form.js";


// The name a player gets until they choose one (docs/API.md, "Players").
const DEFAULT_NAME = /^Player [0-9A-Z]{6}$/;

/** Whether the player (or the guest about to be made) still has the name they were given. */
export async function needsName() {
  return (await nameToAsk()).ask;
}

/**
 * Whether to ask for a name (a guest about to be made, or a player still under the name they
 * were given), and the name the player has now, to fill the field with: "" for someone with
 * no account yet (or when the server cannot say, when nobody is asked).
 */
export async function nameToAsk() {
  if (!api.hasToken()) return { ask: true, name: "" };
  try {
    const { name } = await api.me();
    return { ask: DEFAULT_NAME.test(name), name: name ?? "" };
  } catch {
    return { ask: false, name: "" };
  }
}

/** The name's field, `player_name`, so a form's own `name` field stays its own; `value` fills
 *  it with the name the player has. */
export function playerNameField({ label, hint, value = "" }) {
  return field(label, h("input", {
    name: "player_name", required: true, minlength: "2", maxlength: "24", autocomplete: "nickname", value: value || null,
  }), { hint });
}

/** Saves the name the form asked for (`current`: the name the player has, kept without a
 *  request when left as it was); its problems belong to that field, not the form's. */
export async function saveName(values, { current = null } = {}) {
  if (values.player_name === undefined) return;
  if (current && values.player_name.trim() === current) return;
  try {
    await api.rename(values.player_name);
  } catch (error) {
    for (const line of error.body?.errors ?? []) if (line.field === "name") line.field = "player_name";
    throw error;
  }
}

/** A name someone else has (a `name_taken` problem from `saveName`), and the free one the
 *  server found like it (its `suggestion`): one tap puts it in the form's name field and sends
 *  the form again. One line says why, in the screen's words: `taken` and `takeLabel` are the
 *  translated sentence and button for a name. */
export function nameOffer(nameForm, error, { name, taken, takeLabel, id }) {
  const suggestion = error.body?.suggestion;
  const take = suggestion ? h("button", { type: "button", class: "button primary", id, dataset: { name: suggestion } }, takeLabel(suggestion)) : null;
  take?.addEventListener("click", () => {
    nameForm.querySelector("input[name=player_name]").value = suggestion;
    nameForm.requestSubmit();
  });
  return h("div", { class: "problem name-offer", role: "alert", dataset: { code: error.code } },
    h("p", { class: "problem-text" }, taken(name)),
    take ? h("div", { class: "actions" }, take) : null);
}
