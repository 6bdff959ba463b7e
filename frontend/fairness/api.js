// The fairness log's public reads (docs/FAIRNESS.md, section 5), through the app's client
// (../api.js): only the fairness modules import this, so a first visit downloads none of it.

import { call } from "../api.js";

const PATH = "/fairness/commitments";

/** One date's daily commitment of `game` (`foursquare` or `spitemalice`); 404 if none. */
export const dailyCommitment = (game, date) =>
  call("GET", `${PATH}/${encodeURIComponent(game)}/${encodeURIComponent(date)}`, { auth: "none" });
