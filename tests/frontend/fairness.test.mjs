// The page's own fairness check agrees with the Python's: both games' deal() ported to the
// browser (foursquare/model/deal.js, spitemalice/model/deal.js) and the encodings of
// docs/FAIRNESS.md (fairness/model.js), on the answers fairness_fixtures.py writes from the
// engines and fairness.encoding, and on the shared Spite & Malice vectors; then what a result
// screen concludes from a commitment, honest or tampered with.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  checkDaily, checkSeeds, dailyCommitment, dealSeed, entryHash, hex, isClientSeed, seedBytes,
  serverSeedCommitment,
} from "../../frontend/fairness/model.js";
import { clientSeed as randomClientSeed } from "../../frontend/fairness/seeds.js";
import { deal as foursquareDeal } from "../../frontend/foursquare/model/deal.js";
import { deal as smDeal, gameSeed, matchGameDeal } from "../../frontend/spitemalice/model/deal.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const FIXTURES = join(HERE, ".generated", "fairness.json");
const SM_VECTORS = join(ROOT, "tests", "spitemalice", "vectors");

/** The Python's answers (`make test-js` writes them first; made here when missing). */
function fixtures() {
  if (!existsSync(FIXTURES)) {
    const python = existsSync(join(ROOT, ".venv", "bin", "python")) ? join(ROOT, ".venv", "bin", "python") : "python3";
    const made = spawnSync(python, [join(HERE, "fairness_fixtures.py"), FIXTURES], { cwd: ROOT, encoding: "utf8" });
    assert.equal(made.status, 0, `fairness_fixtures.py failed:\n${made.stderr}`);
  }
  return JSON.parse(readFileSync(FIXTURES, "utf8"));
}

const { seeds, short_seeds: shortSeeds, sm_vectors: smVectors } = fixtures();
const anyBytes = (text) => Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));

test("Foursquare's deal is the engine's on every generated seed, and its pinned first cards", async () => {
  assert.ok(seeds.length >= 40);
  for (const item of seeds) assert.deepEqual(await foursquareDeal(seedBytes(item.seed)), item.foursquare, item.seed);
  for (const item of shortSeeds) assert.deepEqual(await foursquareDeal(anyBytes(item.seed)), item.foursquare, item.seed);
  // tests/foursquare/test_cards_and_dealing.py pins these: every past daily depends on them.
  assert.deepEqual((await foursquareDeal(new TextEncoder().encode("foursquare"))).slice(0, 8),
    ["TC", "7C", "TS", "4C", "4H", "5D", "8C", "3D"]);
});

test("Spite & Malice's deal and its games' seeds are the engine's on every generated seed", async () => {
  for (const item of seeds) {
    const seed = seedBytes(item.seed);
    assert.deepEqual(await smDeal(seed), item.spitemalice, item.seed);
    assert.equal(hex(await gameSeed(seed, 0)), item.game_seeds[0]);
    assert.equal(hex(await gameSeed(seed, 1)), item.game_seeds[1]);
    assert.deepEqual(await matchGameDeal(seed, 1), item.match_games[0]);
    assert.deepEqual(await matchGameDeal(seed, 2), item.match_games[1]);
  }
  for (const item of shortSeeds) assert.deepEqual(await smDeal(anyBytes(item.seed)), item.spitemalice, item.seed);
});

test("Spite & Malice's deal is the engine's on every shared vector's seed, and starts its pay-off piles", async () => {
  const files = readdirSync(SM_VECTORS).filter((name) => name.endsWith(".json")).sort();
  assert.equal(files.length, smVectors.length);
  assert.ok(files.length >= 90, `only ${files.length} vectors`);
  for (const file of files) {
    const vector = JSON.parse(readFileSync(join(SM_VECTORS, file), "utf8"));
    const dealt = await smDeal(anyBytes(vector.seed));
    assert.deepEqual(dealt, smVectors.find((item) => item.name === file.replace(".json", "")).spitemalice, file);
    // Independent of the Python: the first state the vector lists shows each pay-off pile's top
    // while it still holds its 20 cards, the deal's cards 0 and 20.
    const first = (vector.expect ?? []).find((step) => step.state?.payoff?.[0] === 20 && step.state.payoff[1] === 20);
    if (first) assert.deepEqual(first.state.payoff_top, [dealt[0], dealt[20]], file);
  }
});

test("the commitments, the deal's seed and a log entry's hash are the encoding's", async () => {
  for (const item of seeds) {
    const { daily, server } = item;
    assert.equal(await dailyCommitment(daily.game, daily.date, daily.attempt, item.seed), daily.commitment);
    assert.equal(await serverSeedCommitment(server.game, server.subject, item.seed), server.commitment);
    assert.equal(hex(await dealSeed(item.seed, item.client_seeds)), item.deal_seed, JSON.stringify(item.client_seeds));
    assert.equal(await entryHash(item.entry), item.entry.hash);
  }
});

test("a client seed is 1 to 64 printable ASCII characters, and the browser draws one", () => {
  for (const good of ["a", " ", "~".repeat(64), randomClientSeed()]) assert.ok(isClientSeed(good), good);
  for (const bad of ["", "x".repeat(65), "é", "tab\t", null, 7]) assert.ok(!isClientSeed(bad), String(bad));
  assert.match(randomClientSeed(), /^[0-9a-f]{32}$/);
  assert.notEqual(randomClientSeed(), randomClientSeed());
  assert.throws(() => seedBytes("ABCD"), TypeError);
});

// --- What a result screen concludes ------------------------------------------------------------

async function dailyItem(item, { revealed = true, late = false } = {}) {
  const { daily } = item;
  const entry = { seq: 7, previous: "0".repeat(64), key_id: "0123456789abcdef" };
  const committedAt = "2025-12-20T10:00:00.000000Z";
  const hash = await entryHash({ ...entry, kind: "daily", game: daily.game, subject: daily.date, commitment: daily.commitment, committed_at: committedAt });
  return {
    game: daily.game, date: daily.date, commitment: daily.commitment, committed_at: committedAt, late,
    seed: revealed ? item.seed : null, attempt: revealed ? daily.attempt : null,
    deck: revealed ? (daily.game === "foursquare" ? item.foursquare : item.match_games[0]) : null,
    entry: { ...entry, hash },
  };
}
const dealOfDaily = (game) => (game === "foursquare" ? foursquareDeal : (seed) => matchGameDeal(seed, 1));

test("a revealed daily checks: the commitment, the log's hash and the deal played", async () => {
  for (const item of seeds.slice(0, 4)) {
    const answer = await dailyItem(item);
    const game = answer.game;
    const played = game === "foursquare" ? item.foursquare : item.match_games[0];
    assert.deepEqual(await checkDaily(answer, { game, dealOf: dealOfDaily(game), played }), { state: "ok", committedAt: answer.committed_at });
    assert.equal((await checkDaily({ ...answer, late: true }, { game, dealOf: dealOfDaily(game), played })).state, "late");
    assert.equal((await checkDaily(await dailyItem(item, { revealed: false }), { game, dealOf: dealOfDaily(game) })).state, "committed");
  }
});

test("a tampered daily fails, naming what does not hold", async () => {
  const item = seeds[0];
  const answer = await dailyItem(item);
  const options = { game: "foursquare", dealOf: foursquareDeal, played: item.foursquare };
  const other = seeds[2].seed;
  const reason = async (changed, more = {}) => (await checkDaily(changed, { ...options, ...more })).reason;
  assert.equal(await reason({ ...answer, seed: other }), "commitment");
  assert.equal(await reason({ ...answer, attempt: answer.attempt + 1 }), "commitment");
  assert.equal(await reason({ ...answer, commitment: seeds[1].daily.commitment }), "entry");
  assert.equal(await reason({ ...answer, committed_at: "2025-12-21T10:00:00.000000Z" }), "entry");
  assert.equal(await reason(answer, { played: [...item.foursquare].reverse() }), "deal");
  assert.equal(await reason({ ...answer, seed: "not hex" }), "commitment");
  assert.equal(await reason(null), "missing");
  assert.equal(await reason({ ...answer, game: "spitemalice" }), "missing");
});

test("a match's seeds check against its commitment, the client seeds sent and the deal played", async () => {
  for (const item of seeds.slice(0, 6)) {
    const block = { commitment: item.server.commitment, committed_at: "2026-01-01T00:00:00.000000Z", seq: 3,
      subject: item.server.subject, server_seed: item.seed, client_seeds: item.client_seeds };
    const played = await smDeal(await gameSeed(anyBytes(item.deal_seed), 0));
    const options = { game: "spitemalice", dealOf: (seed) => matchGameDeal(seed, 1), played };
    assert.equal((await checkSeeds(block, options)).state, "ok");
    const sent = { seed: item.client_seeds.find((seed) => seed !== null) ?? null, commitment: block.commitment };
    assert.equal((await checkSeeds(block, { ...options, sent })).state, "ok");
    assert.equal((await checkSeeds(block, { ...options, played: (deck) => deck[0] === played[0] })).state, "ok");
    assert.equal((await checkSeeds({ ...block, server_seed: null, client_seeds: null }, options)).state, "committed");
    assert.equal((await checkSeeds({ ...block, server_seed: seeds[9].seed }, options)).reason, "commitment");
    assert.equal((await checkSeeds(block, { ...options, sent: { seed: "not what was sent" } })).reason, "client_seed");
    assert.equal((await checkSeeds(block, { ...options, sent: { commitment: seeds[9].server.commitment } })).reason, "offer");
    assert.equal((await checkSeeds(block, { ...options, played: item.spitemalice })).reason, "deal");
    assert.equal((await checkSeeds(block, { ...options, played: () => false })).reason, "deal");
  }
});

test("a Spite & Malice record's deal (pay-off piles, hands drawn, stock) is read as the deck dealt", async () => {
  const { sameAsRecord } = await import("../../frontend/spitemalice/model/deal.js");
  const deck = seeds[0].spitemalice;
  // As the record shows it: the starter's five cards in hand (sorted, as a hand is), the rest.
  const record = { payoff: [deck.slice(0, 20), deck.slice(20, 40)], hands: [[], deck.slice(40, 45).sort()], stock: deck.slice(45) };
  assert.ok(sameAsRecord(record)(deck));
  assert.ok(!sameAsRecord(record)(seeds[1].spitemalice));
  const swapped = [...deck];
  [swapped[45], swapped[46]] = [swapped[46], swapped[45]];
  assert.equal(sameAsRecord(record)(swapped), swapped[45] === swapped[46]);
  assert.ok(!sameAsRecord({ ...record, hands: [[], deck.slice(41, 46)] })(deck));
});
