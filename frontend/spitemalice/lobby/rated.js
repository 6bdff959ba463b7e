// Whether a friend match counts on the ratings board, in the lobby's words: a short tag for the
// match list and a sentence for the invitation and join screens. The server decides it (a
// match's or an invitation preview's `rated` and `unrated_reason`, docs/API.md); this only picks
// the words. Pure (node tests): it returns the lobby table's keys, each named literally here so
// the tests find them in every language.

/** The sentence for each reason the server gives for an unrated match. */
export const UNRATED_SENTENCES = {
  casual: "sm.rated.casual",
  new_account: "sm.rated.new_account",
  pair_limit: "sm.rated.pair_limit",
  bot: "sm.rated.bot",
};

// A reason this version does not know yet still reads as unrated, without a why.
const UNRATED_ANY = "sm.rated.unrated";

const known = (info) => typeof info?.rated === "boolean";

/** "sm.rated.tag_rated" or "sm.rated.tag_unrated" for a friend match; null for the others,
 *  and where the server said nothing about it. */
export function ratedTag(match) {
  if (match?.mode !== "friend" || !known(match)) return null;
  return match.rated ? "sm.rated.tag_rated" : "sm.rated.tag_unrated";
}

/**
 * The sentence that says, before anyone accepts, whether the match will be rated and if not
 * why: `info` is a match or an invitation's preview. `open`: an invitation anyone with the link
 * may join, so a rated one still depends on who joins (their account's age, the pair's matches
 * that day). Null where the server said nothing.
 */
export function ratedSentence(info, { open = false } = {}) {
  if (!known(info)) return null;
  if (info.rated) return open ? "sm.rated.rated_open" : "sm.rated.rated";
  return UNRATED_SENTENCES[info.unrated_reason] ?? UNRATED_ANY;
}

/** Every key the two functions may give, for the tables' tests. */
export const RATED_KEYS = ["sm.rated.tag_rated", "sm.rated.tag_unrated", "sm.rated.rated", "sm.rated.rated_open",
  UNRATED_ANY, ...Object.values(UNRATED_SENTENCES)];
