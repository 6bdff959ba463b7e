// Foursquare's fairness lines (docs/FAIRNESS.md), checked by the page itself with its deal():
// a daily's (its date's commitment against the deck of the player's own game), a race's (its
// server seed and its racers' client seeds against the race's deck), and tomorrow's daily's
// commitment under the countdown. Loaded by the result screens with import(), not before.

import * as api from "../api.js";
import { dailyCommitment } from "../fairness/api.js";
import { checkDaily, checkSeeds } from "../fairness/model.js";
import { fairnessLine, loadFairness, tomorrowLine } from "../fairness/line.js";
import { sentFor } from "../fairness/seeds.js";
import { deal } from "./model/deal.js";

const GAME = "foursquare";
const orNull = (error) => { if (error.status === 404) return null; throw error; };

/** A finished game of a daily (today's, or an archive's): `game.date`'s commitment. */
export function dailyLine(game, { signal } = {}) {
  return fairnessLine(async () => {
    const [item, record] = await Promise.all([
      dailyCommitment(GAME, game.date).catch(orNull), api.record(game.id)]);
    return checkDaily(item, { game: GAME, dealOf: deal, played: record.deck });
  }, { kind: "daily", signal });
}

/** A finished race: its `fairness` block and the deck of its replays. */
export function raceLine(race, replays, { signal } = {}) {
  return fairnessLine(async () => checkSeeds(race.fairness, {
    game: GAME, dealOf: deal, played: (await replays()).deck, sent: sentFor(`race/${race.id}`),
  }), { kind: "match", signal });
}

/** Tomorrow's daily's commitment, or nothing while it is not committed (or not readable). */
export async function tomorrow(date) {
  const [item] = await Promise.all([dailyCommitment(GAME, date).catch(() => null), loadFairness()]);
  return item ? tomorrowLine(item) : null;
}
