// Spite & Malice's fairness line (docs/FAIRNESS.md), checked by the page itself with its
// deal(): a game of a match from the record's seeds (the server seed's commitment, the client
// seeds, this browser's among them, and game n's deal from the match seed), a daily's from
// its date's commitment. Loaded by the result with import(), not before.

import { dailyCommitment } from "../fairness/api.js";
import { checkDaily, checkSeeds } from "../fairness/model.js";
import { fairnessLine } from "../fairness/line.js";
import { sentFor } from "../fairness/seeds.js";
import { matchGameDeal, sameAsRecord } from "./model/deal.js";

const GAME = "spitemalice";

/** The line of game `number` of `match`, from its `record()` (GET …/games/{n}/record). */
export function gameLine(match, number, record, { signal } = {}) {
  if (match.mode === "daily") {
    return fairnessLine(async () => {
      const [item, shown] = await Promise.all([
        dailyCommitment(GAME, match.date).catch((error) => { if (error.status === 404) return null; throw error; }),
        record()]);
      return checkDaily(item, { game: GAME, dealOf: (seed) => matchGameDeal(seed, 1), played: sameAsRecord(shown.deal) });
    }, { kind: "daily", signal });
  }
  return fairnessLine(async () => {
    const shown = await record();
    return checkSeeds(shown.fairness, {
      game: GAME, dealOf: (seed) => matchGameDeal(seed, number), played: sameAsRecord(shown.deal),
      sent: sentFor(`match/${match.id}`),
    });
  }, { kind: "match", signal });
}
