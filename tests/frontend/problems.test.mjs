// A server's refusal as the player reads it: each field's rule in their language, found from
// the field and the server's (English) message, each line once.

import assert from "node:assert/strict";
import { test } from "node:test";

import { loadLanguage } from "../../frontend/i18n.js";
import { fieldProblems, problemSentence } from "../../frontend/lib/problems.js";

const refusal = (code, errors) => ({ code, body: { code, errors } });

test("each field's problem is its rule in the player's language, once", async () => {
  await loadLanguage("en");
  const weak = refusal("weak_password", [
    { field: "password", message: "This password is too common." },
    { field: "password", message: "This password is entirely numeric." },
    { field: "password", message: "This password is too common." },
  ]);
  assert.deepEqual(fieldProblems(weak), [
    { field: "password", text: "That password is too common: it is among the first ones people try." },
    { field: "password", text: "A password cannot be digits only." },
  ]);
  assert.equal(problemSentence(weak), "That password is too easy to guess. Please choose another.");
  const short = refusal("invalid", [
    { field: "username", message: "Ensure this field has at least 3 characters." },
    { field: "password", message: "This field may not be blank." },
  ]);
  assert.deepEqual(fieldProblems(short).map(({ text }) => text), [
    "A username has 3 to 32 letters, digits or symbols, without spaces.",
    "A password needs at least 8 characters.",
  ]);
});

test("names: their length, their characters, and a league's own rule", async () => {
  await loadLanguage("fa");
  const long = refusal("invalid", [{ field: "name", message: "A name has 2 to 24 characters." }]);
  assert.deepEqual(fieldProblems(long), [{ field: "name", text: "نام ۲ تا ۲۴ نویسه دارد." }]);
  const hidden = refusal("invalid", [{ field: "name", message: "A name may not contain U+200B ZERO WIDTH SPACE: control, invisible and formatting characters could disguise it." }]);
  assert.equal(fieldProblems(hidden)[0].text, "نام نمی‌تواند نویسه‌های نامرئی یا قالب‌بندی داشته باشد.");
  const league = refusal("invalid", [{ field: "name", message: "A league's name has 2 to 40 characters." }]);
  assert.equal(fieldProblems(league, { names: { name: "error.league_name_rule" } })[0].text, "نام لیگ ۲ تا ۴۰ نویسه دارد.");
  // A field the app has no rule for still says something in the language, never the English.
  assert.deepEqual(fieldProblems(refusal("invalid", [{ field: "label", message: "Too long." }])),
    [{ field: "label", text: "لطفاً این بخش را بررسی کنید." }]);
  const fa = (await import("../../frontend/locales/fa.js")).default;
  assert.equal(problemSentence({ code: "no_such_code" }), fa["error.generic"]);
  assert.equal(problemSentence({ code: "league_full" }), fa["error.league_full"]);
  await loadLanguage("en");
});
