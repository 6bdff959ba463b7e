// What a page checks of a deal's fairness by itself (docs/FAIRNESS.md, version 1), with
// WebCrypto's SHA-256 and HMAC-SHA256: the commitments, the deal's seed from the server's and
// the players' seeds, a log entry's hash, and the shuffle both games deal with (each game's
// model/deal.js gives it its cards and label). Pure: no DOM, tested with node --test against
// the Python's answers (tests/frontend/fairness.test.mjs).

const encoder = new TextEncoder();
const WORD_RANGE = 2 ** 32;
const subtle = () => globalThis.crypto.subtle;

export const bytes = (text) => encoder.encode(text);

export function hex(data) {
  return Array.from(new Uint8Array(data), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The bytes written by a seed's 64 lowercase hex digits (a TypeError for anything else). */
export function seedBytes(text) {
  if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text)) throw new TypeError(`a seed is 64 lowercase hex digits, not ${JSON.stringify(text)}`);
  return Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));
}

export async function sha256Hex(text) {
  return hex(await subtle().digest("SHA-256", bytes(text)));
}

const hmacKey = (key) => subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);

export async function hmacSha256(key, message) {
  return new Uint8Array(await subtle().sign("HMAC", await hmacKey(key), message));
}

/** `prefix` followed by `counter` as 8 bytes, big-endian: a block's or a game's message. */
export function withCounter(prefix, counter) {
  const message = new Uint8Array(prefix.length + 8);
  message.set(prefix);
  new DataView(message.buffer).setBigUint64(prefix.length, BigInt(counter));
  return message;
}

/**
 * `items` shuffled as both engines shuffle (foursquare/dealing.py, spitemalice/dealing.py):
 * Fisher–Yates from the last position down, each swap's position taken from a stream of 32-bit
 * big-endian words, block n of it HMAC-SHA256(seed, prefix || n as 8 bytes), a word rejected
 * when it is at or above 2³² − (2³² mod (i + 1)) so every position is equally likely.
 */
export async function shuffled(items, seed, prefix) {
  const key = await hmacKey(seed);
  const block = async (counter) => new DataView(await subtle().sign("HMAC", key, withCounter(prefix, counter)));
  const out = [...items];
  // One word per swap unless one is rejected (rarely): that many blocks at once, more if needed.
  let blocks = Math.ceil(out.length / 8);
  const words = (await Promise.all(Array.from({ length: blocks }, (_, n) => block(n)))).flatMap(wordsOf);
  let position = 0;
  for (let i = out.length - 1; i > 0; i -= 1) {
    const bound = i + 1;
    const limit = WORD_RANGE - (WORD_RANGE % bound);
    let word;
    do {
      if (position === words.length) words.push(...wordsOf(await block(blocks++)));
      word = words[position++];
    } while (word >= limit);
    const j = word % bound;
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const wordsOf = (view) => Array.from({ length: 8 }, (_, index) => view.getUint32(index * 4));

// --- Section 1: the commitments ----------------------------------------------------------------

export function dailyCommitment(game, date, attempt, seed) {
  seedBytes(seed);
  return sha256Hex(`fairness/v1/daily\n${game}\n${date}\n${Number(attempt)}\n${seed}`);
}

export function serverSeedCommitment(game, subject, serverSeed) {
  seedBytes(serverSeed);
  return sha256Hex(`fairness/v1/server-seed\n${game}\n${subject}\n${serverSeed}`);
}

/** A client seed is 1 to 64 characters of printable ASCII. */
export const isClientSeed = (value) => typeof value === "string" && /^[\x20-\x7e]{1,64}$/.test(value);

/** HMAC(server seed, "fairness/v1/client-seeds" || each seat's length (2 bytes) and seed);
 *  a seat without one (null: the house bot's) writes the length 0. */
export function dealSeed(serverSeed, clientSeeds) {
  const parts = [bytes("fairness/v1/client-seeds")];
  for (const seed of clientSeeds) {
    if (seed !== null && !isClientSeed(seed)) throw new TypeError(`not a client seed: ${JSON.stringify(seed)}`);
    const raw = seed === null ? new Uint8Array(0) : bytes(seed);
    parts.push(Uint8Array.of(raw.length >> 8, raw.length & 255), raw);
  }
  const message = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((offset, part) => { message.set(part, offset); return offset + part.length; }, 0);
  return hmacSha256(seedBytes(serverSeed), message);
}

// --- Section 2: an entry of the log ------------------------------------------------------------

const ENTRY_FIELDS = ["seq", "previous", "key_id", "kind", "game", "subject", "commitment", "committed_at"];

export function entryHash(entry) {
  return sha256Hex(["fairness-log/v1", ...ENTRY_FIELDS.map((name) => String(entry[name]))].join("\n"));
}

// --- What a result screen checks ---------------------------------------------------------------

const sameDeck = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((card, i) => card === b[i]);
// `played` is the deck dealt, or a test of the deck (a record that shows it otherwise).
const agrees = (deck, played) => (typeof played === "function" ? played(deck) : sameDeck(deck, played));

/**
 * A daily's check from its commitment (`GET /fairness/commitments/{game}/{date}`), `dealOf`
 * (seed bytes → the deck the game deals from that daily seed) and `played`, the deck the player
 * was dealt (their game's record) or a test of the deck, if known. Answers `{state, reason?, committedAt}`:
 * `ok` (revealed, and everything agrees), `committed` (not revealed yet: the entry is as the
 * log signed it), `late` (committed after its first game), or `bad` with a reason.
 */
export async function checkDaily(item, { game, dealOf, played = null }) {
  const committedAt = item?.committed_at ?? null;
  if (!item || item.game !== game || typeof item.commitment !== "string") return { state: "bad", reason: "missing", committedAt };
  const entry = { ...item.entry, kind: "daily", game, subject: item.date, commitment: item.commitment, committed_at: item.committed_at };
  if (await entryHash(entry) !== item.entry?.hash) return { state: "bad", reason: "entry", committedAt };
  if (item.seed === null || item.seed === undefined) return { state: item.late ? "late" : "committed", committedAt };
  try {
    if (await dailyCommitment(game, item.date, item.attempt, item.seed) !== item.commitment) return { state: "bad", reason: "commitment", committedAt };
    const deck = await dealOf(seedBytes(item.seed));
    if (!agrees(deck, played ?? item.deck)) return { state: "bad", reason: "deal", committedAt };
  } catch {
    return { state: "bad", reason: "commitment", committedAt };
  }
  return { state: item.late ? "late" : "ok", committedAt };
}

/**
 * A match's or race's check from its `fairness` block: the server seed against its
 * commitment, then `dealOf(deal seed)` agreeing with what was played (`played(deck)`, true
 * when the deck dealt is the one the record shows). `sent`, what this browser remembers of
 * it (fairness/seeds.js): its client seed, found among the revealed ones, and the commitment
 * it was shown before it sent that seed, the same as the block's. Answers as `checkDaily`
 * does, `committed` while the seeds are not revealed.
 */
export async function checkSeeds(block, { game, dealOf, played, sent = null }) {
  const committedAt = block?.committed_at ?? null;
  if (!block || typeof block.commitment !== "string") return { state: "bad", reason: "missing", committedAt };
  if (sent?.commitment && sent.commitment !== block.commitment) return { state: "bad", reason: "offer", committedAt };
  if (block.server_seed === null || block.server_seed === undefined) return { state: "committed", committedAt };
  try {
    if (await serverSeedCommitment(game, block.subject, block.server_seed) !== block.commitment) return { state: "bad", reason: "commitment", committedAt };
    if (sent?.seed && !block.client_seeds?.includes(sent.seed)) return { state: "bad", reason: "client_seed", committedAt };
    const deck = await dealOf(await dealSeed(block.server_seed, block.client_seeds));
    if (!agrees(deck, played)) return { state: "bad", reason: "deal", committedAt };
  } catch {
    return { state: "bad", reason: "commitment", committedAt };
  }
  return { state: "ok", committedAt };
}
