// The AsyncAPI document of the sockets (`GET /api/asyncapi/`) as the reference parser,
// @asyncapi/parser (pinned in package.json), reads it: no error and no warning from its
// validation (the AsyncAPI 3.0 schema and its ruleset), and what docs/API.md names is there
// once every reference is resolved. write_document.py writes the document from the server's
// code (`make test-js` runs it first). That real messages fit it is the Python suite's check
// (tests/server/spitemalice/live/test_asyncapi.py and its siblings).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Parser } from "@asyncapi/parser";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const DOCUMENT = join(HERE, ".generated", "asyncapi.json");
// The parser's severities: 0 error, 1 warning, 2 information, 3 hint.
const WARNING = 1;

/** The document's text, written by the server's code (when `make test-js` has not already). */
function documentText() {
  if (!existsSync(DOCUMENT)) {
    const python = existsSync(join(ROOT, ".venv", "bin", "python")) ? join(ROOT, ".venv", "bin", "python") : "python3";
    const made = spawnSync(python, [join(HERE, "write_document.py"), DOCUMENT], { cwd: ROOT, encoding: "utf8" });
    assert.equal(made.status, 0, `write_document.py failed:\n${made.stderr}`);
  }
  return readFileSync(DOCUMENT, "utf8");
}

const parsed = new Parser().parse(documentText());

/** The values of the one-value enum `kind` of each alternative of a union schema (the enum
 * itself, or the one schema of its `allOf`: a named enum with a description of its own). */
function kinds(union) {
  return union.oneOf().map((alternative) => {
    const kind = alternative.properties().kind;
    const values = kind.enum() ?? kind.allOf()?.[0]?.enum();
    assert.ok(values, `${alternative.id()}: kind is an enum`);
    assert.equal(values.length, 1, `${alternative.id()}: kind is a one-value enum`);
    return values[0];
  });
}

test("the reference parser finds no error and no warning", async () => {
  const { document, diagnostics } = await parsed;
  const serious = diagnostics.filter((found) => found.severity <= WARNING)
    .map((found) => `${found.code} at ${found.path.join("/")}: ${found.message}`);
  assert.deepEqual(serious, []);
  assert.ok(document, "the parser gave a document");
  assert.equal(document.version(), "3.0.0");
});

test("the channels docs/API.md describes are there, with their messages", async () => {
  const { document } = await parsed;
  const channels = Object.fromEntries(document.channels().all().map((channel) => [channel.id(), channel]));
  assert.deepEqual(Object.keys(channels).sort(), ["account", "race", "spiteMaliceMatch"]);
  assert.equal(channels.account.address(), "/ws/account");
  assert.equal(channels.spiteMaliceMatch.address(), "/ws/spite-malice/matches/{id}");
  const names = (channel) => channel.messages().all().map((message) => message.id()).sort();
  assert.deepEqual(names(channels.account), ["auth", "events", "ping", "pong", "ready"]);
  assert.deepEqual(names(channels.spiteMaliceMatch), ["auth", "events", "ping", "pong", "presence", "ready"]);
});

test("an events message's events resolve to a union that narrows by kind", async () => {
  const { document } = await parsed;
  const events = (channel) => document.channels().get(channel).messages().get("events").payload()
    .properties().events.items();
  const account = events("account");
  assert.equal(account.discriminator(), "kind");
  assert.deepEqual(kinds(account).sort(), ["invitation_cancelled", "invitation_declined",
    "invitation_received", "joined", "match_over", "match_started", "your_turn"]);
  const match = events("spiteMaliceMatch");
  assert.equal(match.discriminator(), "kind");
  assert.deepEqual(kinds(match).sort(), ["aborted", "cancelled", "completed", "dealt", "discard", "draw",
    "game_over", "joined", "match_over", "play", "resigned", "timeout"]);
});

test("a member the OpenAPI document calls nullable admits null", async () => {
  const { document } = await parsed;
  const schemas = document.components().schemas();
  const deadline = schemas.get("YourTurnEvent").properties().deadline;
  assert.deepEqual(deadline.type(), ["string", "null"]);
  // A nullable choice (drf-spectacular's oneOf with NullEnum) admits null once, not twice.
  const level = schemas.get("MatchStartedEvent").properties().level;
  assert.equal(level.oneOf().length, 2);
});

test("ready carries the account's active matches and the match socket's seat view", async () => {
  const { document } = await parsed;
  const ready = (channel) => document.channels().get(channel).messages().get("ready").payload()
    .properties();
  const started = ready("account").matches.items().properties().kind;
  assert.deepEqual(started.enum() ?? started.allOf()[0].enum(), ["match_started"]);
  assert.ok(ready("spiteMaliceMatch").match.allOf()[0].properties().game);
});
