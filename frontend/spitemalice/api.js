// Spite & Malice's calls (docs/API.md), through the app's client (../api.js: tokens, guests,
// retries, problems). Only the game's own screens import this, so a first visit, which shows
// Foursquare, never downloads it.

import { call, query } from "../api.js";
import { clientSeed, remember } from "../fairness/seeds.js";

const SM = "/spite-malice";
const smm = (id, rest = "") => `${SM}/matches/${encodeURIComponent(id)}${rest}`;
const smPost = (body) => call("POST", `${SM}/matches`, { body, idempotent: true });

export const smMatches = ({ limit = 20, offset } = {}) => call("GET", `${SM}/matches${query({ limit, offset })}`);
export const smMatch = (id) => call("GET", smm(id));
/** A match against the bot: its server seed committed first (POST /bot-commitment), then this
 *  browser's client seed sent with that commitment, so the server fixed its seed before it saw
 *  ours (docs/FAIRNESS.md). Both remembered for the result's check. */
export async function smPlayBot({ level, target }) {
  const { commitment } = await call("POST", `${SM}/bot-commitment`);
  const seed = clientSeed();
  return seeded(await smPost({ opponent: "bot", level, target, client_seed: seed, commitment }), { seed, commitment });
}
/** An invitation: by link, or to a league mate (`invitee`, a player id). */
export const smInvite = async ({ turnSeconds, target, invitee, rated }) => {
  const seed = clientSeed();
  return seeded(await smPost({ opponent: "friend", turn_seconds: turnSeconds, target, invitee, rated, client_seed: seed }), { seed });
};
const seeded = (match, sent) => { remember(`match/${match.id}`, sent); return match; };
export const smDailyStart = (date) => smPost({ mode: "daily", date });
/** An open invitation before joining it: who invites, its clock and length, and whether it would
 *  be rated if you (or, without a token, a new guest) joined now. */
export const smInvitation = (code) => call("GET", `${SM}/invitations/${encodeURIComponent(code)}`, { auth: "optional" });
export const smJoin = async (code) => {
  const seed = clientSeed();
  return seeded(await call("POST", `${SM}/matches/join`, { body: { code, client_seed: seed } }), { seed });
};
export const smCancel = (id) => call("POST", smm(id, "/cancel"));
export const smRematch = (id) => call("POST", smm(id, "/rematch"), { idempotent: true });
/** A challenge to you: accept it by its id (a join), or decline it saying why (docs/API.md). */
export const smAccept = (id) => call("POST", smm(id, "/accept"), { idempotent: true });
export const smDecline = (id, reason) => call("POST", smm(id, "/decline"), { body: { reason }, idempotent: true });
/** Open seeks of others ({next, results}); yours, posted; one taken (a join); yours withdrawn. */
export const smSeeks = ({ limit = 20, cursor } = {}) => call("GET", `${SM}/seeks${query({ limit, cursor })}`);
export const smSeek = ({ turnSeconds, target, rated }) => call("POST", `${SM}/seeks`, { body: { turn_seconds: turnSeconds, target, rated }, idempotent: true });
export const smSeekTake = (id) => call("POST", `${SM}/seeks/${encodeURIComponent(id)}/accept`, { idempotent: true });
export const smSeekWithdraw = (id) => call("DELETE", `${SM}/seeks/${encodeURIComponent(id)}`);
export const smResign = (id) => call("POST", smm(id, "/resign"));
/** `action` one of legal_actions; `game` and `actions` as last seen (else 409 stale_action). */
export const smAct = (id, { action, game, actions }) => call("POST", smm(id, "/actions"), { body: { action, game, actions }, idempotent: true });
export const smEvents = (id, after = 0) => call("GET", smm(id, `/events?after=${after}`));
export const smRecord = (id, n) => call("GET", smm(id, `/games/${n}/record`));
export const smHint = (id) => call("GET", smm(id, "/hint"));
export const smDaily = (date) => call("GET", `${SM}/daily${query({ date })}`, { auth: "optional" });
export const smDailyBoard = (date, { limit = 20, around } = {}) =>
  call("GET", `${SM}/daily/${date}/leaderboard${query({ limit, around: around ? "me" : null })}`, { auth: "optional" });
/** {results, provisional, me, next}: `next` pages on (leaderboardNext). */
export const smRatings = (limit = 50) => call("GET", `${SM}/ratings?limit=${limit}`, { auth: "optional" });
