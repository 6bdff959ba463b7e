// Card codes as the API writes them ("TH" = ten of hearts) and how to show and name them.

// Foursquare deals ace to ten; Spite & Malice's deck has the court cards too.
const RANKS = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13 };
const SUITS = {
  C: { symbol: "♣", colour: "black" },
  D: { symbol: "♦", colour: "red" },
  H: { symbol: "♥", colour: "red" },
  S: { symbol: "♠", colour: "black" },
};

export function parseCard(code) {
  const rank = code?.[0];
  const suit = code?.[1];
  if (!(rank in RANKS) || !(suit in SUITS) || code.length !== 2) throw new Error(`Not a card: ${JSON.stringify(code)}`);
  return {
    code,
    rank,
    suit,
    value: RANKS[rank],
    // Card faces keep their international indices (A, 2 … 10) in every language.
    face: rank === "T" ? "10" : rank,
    symbol: SUITS[suit].symbol,
    colour: SUITS[suit].colour,
  };
}

/** "seven of hearts", in the active language: tables hold rank.N and suit.X words. */
export function cardName(code, t) {
  const card = parseCard(code);
  return t("card.name", { rank: t(`rank.${card.value}`), suit: t(`suit.${card.suit}`) });
}
