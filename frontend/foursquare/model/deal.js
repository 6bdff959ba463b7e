// Foursquare's deal() in the browser, as foursquare/dealing.py deals: the 40 cards in their
// canonical order (suits C, D, H, S, each ace to ten) shuffled on the seed's HMAC stream
// labelled "foursquare-deal/v1"; the stock from top to bottom. A page checks a daily's or a
// race's revealed seed with it (tests/frontend/fairness.test.mjs holds it to the Python).

import { bytes, shuffled } from "../../fairness/model.js";

const LABEL = bytes("foursquare-deal/v1");
export const CANONICAL = [..."CDHS"].flatMap((suit) => [..."A23456789T"].map((rank) => rank + suit));

/** The deck dealt from `seed` (bytes): 40 card codes, first drawn first. */
export const deal = (seed) => shuffled(CANONICAL, seed, LABEL);
