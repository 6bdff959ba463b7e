// "How we prove it", in English: the page's blocks (components/blocks.js), ["pre", …] the
// commands as typed.
import { COMMANDS } from "./commands.js";

export default [
  ["p", "Nobody has to trust us that a deal was fair. Every deal is fixed, and published in a form that hides it, before anyone plays it; once it is played, the secret is revealed and anyone can check that it deals exactly the cards that were played."],
  ["h2", "Dailies: commit, then reveal"],
  ["p", "At least seven days before each date, the server publishes a commitment to that day's deal: a SHA-256 hash of the game, the date and the secret seed that deals it. The hash tells nothing about the cards, but no other seed gives the same hash, so the deal cannot be changed afterwards."],
  ["p", "Once the date is over everywhere on Earth (after midnight at UTC−12), the seed is revealed. Anyone can hash it again, compare it with the commitment, and deal the cards from it."],
  ["h2", "Matches and races: your seed too"],
  ["p", "A match or a race gets a fresh server seed, committed when it is created, before any card is dealt. Each player's browser adds a random client seed of its own, and the deal comes from HMAC-SHA256 of the server seed and every player's client seed, in seat order."],
  ["p", "Against the house bot, the server commits to its seed before your browser chooses yours, so it cannot pick a deal that suits its bot; and you cannot pick one either, since the server seed stays secret until the match is over."],
  ["h2", "A log nobody can quietly rewrite"],
  ["p", "Every commitment is an entry in one public, append-only log. Each entry carries the hash of the entry before it and is signed with the server's Ed25519 key: changing any past entry breaks every later link, for anyone who kept an earlier one."],
  ["h2", "What this page checks by itself"],
  ["ul", [
    "The log entry's hash, computed again from its fields.",
    "The revealed seed against its commitment.",
    "The deal made from that seed, card by card, against the cards you were dealt: both games' dealing is written again in JavaScript, and tested to deal exactly as the server does.",
    "For a match or a race, that the client seed your browser sent is among the seeds revealed, and that the commitment is the one you were shown first.",
  ]],
  ["p", "The result screens say what they found: “Fair deal ✓” with the time of the commitment, that the seed is not revealed yet, that a daily was committed late (after its first game), or what failed."],
  ["h2", "Check it yourself"],
  ["p", "These commands check every entry of the log (its hash, its link to the one before and its signature) and every daily in a range of dates, or the record of one game of a match or of a race, with Python and this game's own dealing code:"],
  ["pre", COMMANDS],
  ["p", "Keep the head the check prints (--head SEQ:HASH) and give it next time: if the log was ever rewritten, the check names the first entry that differs. The document docs/FAIRNESS.md, beside the code, describes every byte of the encoding, so you can also write a checker of your own."],
];
