// An ApiError as the player reads it, in their language. The sentence comes from the problem's
// stable `code`; a 400 or 422 that names fields (`errors: [{field, message}]`) gets one
// translated line per field, put beside the field in a form. The server's own `detail` is
// English prose for people: it is shown only to English readers, and only where it adds to what
// the app already said (never raw field names, never the same thing twice).

import { h } from "./dom.js";
import { current, t } from "../i18n.js";

export function problemSentence(error) {
  const known = `error.${error?.code}`;
  return current().has(known) ? t(known) : t("error.generic");
}

// The server's field messages, by field and by the rule each states (server/players/names.py,
// usernames.py, Django's password validators, DRF's length and blank checks). A message none
// of these recognise still gets its field's own rule, in the player's language.
const FIELD_RULES = [
  { field: "password", test: /too short|at least \d+ characters|blank|required/i, key: "error.password_short" },
  { field: "password", test: /too common/i, key: "error.password_common" },
  { field: "password", test: /entirely numeric/i, key: "error.password_numeric" },
  { field: "password", test: /too similar/i, key: "error.password_too_similar" },
  { field: "password", test: /./, key: "error.password_rule" },
  { field: "username", test: /./, key: "error.username_rule" },
  { field: "name", test: /may not contain|character/i, when: (message) => !/\d+ to \d+ characters/.test(message), key: "error.name_characters" },
  { field: "name", test: /./, key: "error.name_rule" },
  { field: "player_name", test: /may not contain|character/i, when: (message) => !/\d+ to \d+ characters/.test(message), key: "error.name_characters" },
  { field: "player_name", test: /./, key: "error.name_rule" },
  { field: "code", test: /./, key: "error.league_code" },
];

/**
 * The problem's field errors as translated lines: [{field, text}], one line per distinct text
 * (a password both common and numeric says both; the same rule twice is said once). `names`
 * maps a server field to the rule to use for it (a league's `name` has its own).
 */
export function fieldProblems(error, { names = {} } = {}) {
  const errors = Array.isArray(error?.body?.errors) ? error.body.errors : [];
  const seen = new Set();
  const lines = [];
  for (const { field, message = "" } of errors) {
    const rule = FIELD_RULES.find((candidate) => candidate.field === field && candidate.test.test(message)
      && (!candidate.when || candidate.when(message)));
    const key = names[field] ?? rule?.key ?? null;
    const text = key ? t(key, RULE_PARAMS) : t("error.field_other");
    if (seen.has(`${field}\n${text}`)) continue;
    seen.add(`${field}\n${text}`);
    lines.push({ field, text });
  }
  return lines;
}

// The limits the rules state, as the server enforces them (docs/API.md, "Players").
export const RULE_PARAMS = { min: 2, max: 24, league_max: 40, user_min: 3, user_max: 32, password_min: 8 };

/** The sentence and, where it helps, the server's English detail; `fields` false leaves the
 *  field lines to a form that shows them beside their inputs. */
export function problemView(error, { role = "alert", fields = true, names = {} } = {}) {
  const lines = fieldProblems(error, { names });
  const sentence = problemSentence(error);
  const detail = error?.code === "network" || lines.length || current().lang !== "en" ? "" : error?.detail;
  return h("div", { class: "problem", role },
    h("p", { class: "problem-text" }, sentence),
    fields && lines.length
      ? h("ul", { class: "problem-fields" }, lines.map(({ field, text }) => h("li", { dataset: { field } }, text)))
      : null,
    detail && detail !== sentence && `${detail}.` !== sentence
      ? h("p", { class: "problem-detail", dataset: { code: error.code } }, detail)
      : null);
}
