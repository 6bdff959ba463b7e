// Spite & Malice's deal() in the browser, as spitemalice/dealing.py and match.py deal: a match
// seed gives game n (0 for the first) its seed HMAC(match seed, "spite-malice-match/v1" || n as
// 8 bytes); a game's seed shuffles the two decks (each suits C, D, H, S, ace to king, deck 1
// then deck 2) on its HMAC stream labelled "spite-malice-deal/v1". The 104 cards: pay-off 0 is
// [0:20] top first, pay-off 1 [20:40], the stock [40:104] top first. A page checks a match's or
// a daily's revealed seeds with it (tests/frontend/fairness.test.mjs holds it to the Python).

import { bytes, hmacSha256, shuffled, withCounter } from "../../fairness/model.js";

const DEAL_LABEL = bytes("spite-malice-deal/v1");
const MATCH_LABEL = bytes("spite-malice-match/v1");
const ONE_DECK = [..."CDHS"].flatMap((suit) => [..."A23456789TJQK"].map((rank) => rank + suit));
export const CANONICAL = [...ONE_DECK, ...ONE_DECK];

/** The seed of game `index` (0 for the first) of the match dealt from `matchSeed` (bytes). */
export const gameSeed = (matchSeed, index) => hmacSha256(matchSeed, withCounter(MATCH_LABEL, index));

/** The 104 card codes dealt from a game's `seed` (bytes). */
export const deal = (seed) => shuffled(CANONICAL, seed, DEAL_LABEL);

/** The deal of game `number` (1 for the first) of the match seed `matchSeed`. */
export const matchGameDeal = async (matchSeed, number) => deal(await gameSeed(matchSeed, number - 1));

/**
 * Whether a deck dealt is the one a game's record lays open (`deal`: both pay-off piles and
 * the stock top first, and the hands once the starter has drawn): the pay-off piles are its
 * cards 0–19 and 20–39, the stock its last cards, and the hands hold the cards between.
 */
export const sameAsRecord = (recorded) => (deck) => {
  const [first, second] = recorded.payoff;
  const drawn = recorded.hands.flat();
  const middle = deck.slice(40, 40 + drawn.length);
  return same(deck.slice(0, 20), first) && same(deck.slice(20, 40), second)
    && same(deck.slice(40 + drawn.length), recorded.stock)
    && same([...middle].sort(), [...drawn].sort());
};

const same = (a, b) => a.length === b.length && a.every((card, i) => card === b[i]);
