// Spite & Malice's ratings integrity in the browser: whether a friend match is rated and why not
// (the list's tag, the invitation's and join screen's sentence), an aborted match (over, no
// winner, no rematch, never waiting for you, its table's words), and every key these give in
// all five languages.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, createTranslator } from "../../frontend/i18n.js";
import { ABORTED_LINES, abortedLine, canRematch, isActive, matchState, sortMatches } from "../../frontend/spitemalice/lobby/model.js";
import { RATED_KEYS, UNRATED_SENTENCES, ratedSentence, ratedTag } from "../../frontend/spitemalice/lobby/rated.js";
import { waitingForYou } from "../../frontend/spitemalice/lobby/turns.js";
import { abortedWhy, applyEvent, describe } from "../../frontend/spitemalice/model/events.js";
import { hasResult, isOver, showsUnrated, viewOf } from "../../frontend/spitemalice/model/table.js";

const load = async (path) => (await import(path)).default;
const lobby = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, await load(`../../frontend/spitemalice/locales/lobby-${code}.js`)])));
const table = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, await load(`../../frontend/spitemalice/locales/${code}.js`)])));

const person = (name) => ({ id: `id-${name}`, name });
const match = ({ status = "playing", you = 0, turn = 0, mode = "friend", ...rest } = {}) => ({
  id: "m", mode, status, you, winner: null, deadline: null, target: 1, turn_seconds: 3600, reason: null,
  seats: [{ seat: 0, player: person("Ada"), bot: null, score: 0 }, { seat: 1, player: person("Bo"), bot: null, score: 0 }],
  game: status === "playing" ? { turn } : null,
  ...rest,
});
const aborted = (reason) => match({ status: "aborted", reason, rated: false, unrated_reason: "casual" });

test("a friend match is tagged rated or unrated as the server says; others and silence are not", () => {
  assert.equal(ratedTag(match({ rated: true, unrated_reason: null })), "sm.rated.tag_rated");
  assert.equal(ratedTag(match({ rated: false, unrated_reason: "pair_limit" })), "sm.rated.tag_unrated");
  assert.equal(ratedTag(match({ mode: "bot", rated: false, unrated_reason: "bot" })), null);
  assert.equal(ratedTag(match({ mode: "daily", rated: false, unrated_reason: "bot" })), null);
  assert.equal(ratedTag(match()), null); // a server that does not say yet
});

test("the sentence before accepting: rated, rated if whoever joins qualifies, or one reason each", () => {
  assert.equal(ratedSentence({ rated: true, unrated_reason: null }), "sm.rated.rated");
  assert.equal(ratedSentence({ rated: true, unrated_reason: null }, { open: true }), "sm.rated.rated_open");
  for (const [reason, key] of Object.entries(UNRATED_SENTENCES)) {
    assert.equal(ratedSentence({ rated: false, unrated_reason: reason }), key);
    assert.equal(ratedSentence({ rated: false, unrated_reason: reason }, { open: true }), key, "a reason is a reason, open or not");
  }
  assert.deepEqual(Object.keys(UNRATED_SENTENCES).sort(), ["bot", "casual", "new_account", "pair_limit"]);
  assert.equal(ratedSentence({ rated: false, unrated_reason: "something_new" }), "sm.rated.unrated");
  assert.equal(ratedSentence({}), null);
  assert.equal(ratedSentence(null), null);
});

test("an aborted match is over: not active, after the finished ones, no rematch, never your turn", () => {
  const list = [aborted("resigned"), match({ id: "going", turn: 1 }), match({ id: "cancelled", status: "cancelled" }),
    match({ id: "won", status: "finished", winner: 0 })];
  list[0].id = "aborted";
  assert.equal(matchState(list[0]), "aborted");
  assert.equal(isActive(list[0]), false);
  assert.deepEqual(sortMatches(list).map((m) => m.id), ["going", "won", "aborted", "cancelled"]);
  assert.equal(canRematch(list[0]), false);
  // Its game may still be in the object, at the seat that was to play: not your turn.
  const stale = { ...aborted("timeout"), game: { turn: 0 } };
  assert.deepEqual(waitingForYou([stale, match({ id: "mine", turn: 0 }), match({ id: "daily", mode: "daily", turn: 0 }),
    match({ id: "invited", status: "waiting", you: 1 })]).map((m) => m.id), ["mine", "invited"]);
});

test("the list says how an aborted match ended, one line per reason", () => {
  assert.equal(abortedLine(aborted("resigned")), "sm.list.aborted_resigned");
  assert.equal(abortedLine(aborted("timeout")), "sm.list.aborted_timeout");
  assert.equal(abortedLine(aborted("cancelled")), "sm.list.aborted_cancelled");
  assert.equal(abortedLine(aborted(null)), "sm.list.aborted");
});

test("the lobby's rated and aborted words exist, filled in, in every language", () => {
  const keys = [...RATED_KEYS, ...Object.values(ABORTED_LINES), "sm.list.aborted",
    "sm.friend.rated_label", "sm.friend.rated", "sm.friend.casual", "sm.friend.rated_hint"];
  for (const { code } of LANGUAGES) {
    for (const key of keys) assert.ok(lobby[code][key]?.trim(), `${code} ${key}`);
    // Each reason reads differently: one sentence per reason.
    const sentences = Object.values(UNRATED_SENTENCES).map((key) => lobby[code][key]);
    assert.equal(new Set(sentences).size, sentences.length, code);
  }
});

test("the table: an aborted match is over and shows no game result; unrated friend matches say so", () => {
  assert.equal(isOver(aborted("resigned")), true);
  assert.equal(isOver(match({ status: "finished" })), true);
  assert.equal(isOver(match()), false);
  assert.equal(hasResult(aborted("resigned"), { status: "aborted" }), false);
  assert.equal(hasResult(aborted("resigned"), { status: "playing" }), false);
  assert.equal(hasResult(match({ status: "finished" }), { status: "won" }), true);
  assert.equal(hasResult(match(), { status: "playing" }), false);
  assert.equal(hasResult(match(), null), false);
  assert.equal(showsUnrated(match({ rated: false, unrated_reason: "casual" })), true);
  assert.equal(showsUnrated(match({ rated: true, unrated_reason: null })), false);
  assert.equal(showsUnrated(match({ mode: "bot", rated: false, unrated_reason: "bot" })), false);
  assert.equal(showsUnrated(match()), false);
});

test("the aborted event ends the turn and is said by reason and by whose doing it was", () => {
  const view = viewOf({ ...match(), game: { number: 1, status: "playing", turn: 1, legal_actions: [["P", "C0"]] } });
  const after = applyEvent(view, { number: 9, kind: "aborted", game: 1, seat: 1, reason: "timeout" });
  assert.deepEqual([after.turn, after.legal], [null, []]);

  assert.equal(abortedWhy({ reason: "resigned", seat: 0, you: 0 }), "sm.aborted.you_resigned");
  assert.equal(abortedWhy({ reason: "resigned", seat: 1, you: 0 }), "sm.aborted.they_resigned");
  assert.equal(abortedWhy({ reason: "timeout", seat: 0, you: 1 }), "sm.aborted.they_timeout");
  assert.equal(abortedWhy({ reason: "cancelled", seat: 1, you: 1 }), "sm.aborted.you_cancelled");
  assert.equal(abortedWhy({ reason: "cancelled", you: 0 }), "sm.aborted.cancelled"); // a match read later
  assert.equal(abortedWhy({ reason: "timeout", seat: null, you: 0 }), "sm.aborted.timeout");
  assert.equal(abortedWhy({ reason: "mystery", seat: 0, you: 0 }), "sm.aborted.other");

  const t = (key, params = {}) => `${key}(${Object.entries(params).map(([k, v]) => `${k}=${v}`).join(",")})`;
  const said = describe({ kind: "aborted", game: 1, seat: 1, reason: "resigned" }, { you: 0, t, card: (c) => c, names: ["You", "Bo"] });
  assert.equal(said, "sm.say.aborted(why=sm.aborted.they_resigned(who=Bo))");
});

test("the table's aborted and unrated words exist in every language, and read as sentences there", () => {
  const keys = ["sm.unrated", "sm.match_aborted", "sm.say.aborted", "sm.aborted.title", "sm.aborted.no_result", "sm.aborted.other"];
  for (const reason of ["resigned", "timeout", "cancelled"]) {
    for (const seat of [0, 1, null]) keys.push(abortedWhy({ reason, seat, you: 0 }));
  }
  for (const { code } of LANGUAGES) {
    const { t } = createTranslator(code, table[code]);
    for (const key of keys) assert.ok(table[code][key]?.trim(), `${code} ${key}`);
    const line = t("sm.aborted.they_timeout", { who: "Bo" });
    assert.ok(line.includes("Bo") && !line.includes("{"), `${code}: ${line}`);
    assert.ok(t("sm.say.aborted", { why: "X" }).includes("X"), code);
  }
});
