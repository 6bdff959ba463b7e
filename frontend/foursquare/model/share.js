// The text a player shares after a game: the result in words, then the game's story as rows of
// squares, as Wordle's are — one square per card played, its colour the face-down count right
// after it, from none to the losing fifth — and the link. It tells how close the game ran, never
// a card or a place, so it spoils nothing of the deal. Without the story (a game partly played
// on another device) a picture of the final grid's make-up stands in: how many piles ended face
// up, face down or empty, in that order, never where they were.

const FACE_UP = "🟦";
const FACE_DOWN = "🟧";
const EMPTY = "⬜";
const CELLS = 16;
// Face-down piles after a move: 0, 1–2, 3, 4 (one more loses), 5 or more (lost).
const TENSION = ["🟩", "🟨", "🟨", "🟧", "🟥", "⬛"];
const STORY_ROW = 8;

/** What each square of the story means, for the key shown beside it: the square, its level
 *  (an index of TENSION) and the words, a key of the string table and its numbers. */
export const STORY_KEY = [
  { symbol: "🟩", level: 0, key: "share.key_none", params: {} },
  { symbol: "🟨", level: 1, key: "share.key_few", params: { a: 1, b: 2 } },
  { symbol: "🟧", level: 3, key: "share.key_n", params: { n: 3 } },
  { symbol: "🟥", level: 4, key: "share.key_four", params: { n: 4 } },
  { symbol: "⬛", level: 5, key: "share.key_lost", params: { n: 5 } },
];

/** What each square of the picture means. */
export const PICTURE_KEY = [
  { symbol: FACE_UP, kind: "up", key: "share.key_up", params: {} },
  { symbol: FACE_DOWN, kind: "down", key: "share.key_down", params: {} },
  { symbol: EMPTY, kind: "empty", key: "share.key_empty", params: {} },
];

const level = (n) => Math.max(0, Math.min(TENSION.length - 1, n));
const rowsOf = (items, width) => {
  const rows = [];
  for (let start = 0; start < items.length; start += width) rows.push(items.slice(start, start + width));
  return rows;
};

/** The story's rows: a square per move, by the face-down count after it. */
export function story(counts) {
  return rowsOf(counts.map((n) => TENSION[level(n)]), STORY_ROW).map((row) => row.join("")).join("\n");
}

/** The picture's squares, in order: face up, face down, then the empty places. */
function pictureKinds(game) {
  const up = game.grid.filter((pile) => pile.face_up).length;
  const down = game.grid.length - up;
  const kinds = [...Array(up).fill("up"), ...Array(down).fill("down")];
  while (kinds.length < CELLS) kinds.push("empty");
  return kinds;
}

export function picture(game) {
  const symbols = { up: FACE_UP, down: FACE_DOWN, empty: EMPTY };
  return rowsOf(pictureKinds(game).map((kind) => symbols[kind]), 4).map((row) => row.join("")).join("\n");
}

/**
 * The squares the share text shows, for drawing them on the page with their key: the story
 * (`counts` known: each square's face-down count and level, rows of eight) or else the
 * picture (each square's kind, rows of four).
 */
export function shareStrip(game, counts = null) {
  if (counts?.length) {
    return {
      kind: "story",
      rows: rowsOf(counts.map((n) => ({ count: n, level: level(n) })), STORY_ROW),
      key: STORY_KEY,
    };
  }
  return { kind: "picture", rows: rowsOf(pictureKinds(game).map((kind) => ({ kind })), 4), key: PICTURE_KEY };
}

/** e.g. "Foursquare #123 · won · 9 left" or "… · lost after 30 cards", then the story
 *  (`counts`: the face-down count after each move, if known) or the picture, then the link. */
export function shareText(game, t, url = "", counts = null) {
  const name = game.mode === "daily" || game.mode === "archive"
    ? t("share.daily_name", { number: game.number })
    : t("share.practice_name");
  // A loss says how far the game went, the cards placed before the fifth pile turned down;
  // how many piles the grid held reads like a score, which a loss has not.
  const played = game.moves_played ?? game.grid.reduce((sum, pile) => sum + (pile.height ?? 1), 0);
  const outcome = game.status === "won" ? t("share.won", { n: game.score })
    : game.status === "lost" ? t("share.lost", { n: played })
      : t("share.unfinished", { n: played });
  // The language's own separator: in Persian "·" beside a number reads as its zero.
  const lines = [`${name}${t("list.separator")}${outcome}`, counts?.length ? story(counts) : picture(game)];
  if (url) lines.push(url);
  return lines.join("\n");
}

/** The link that opens the same deal for a friend. It names your game, whose result the
 *  friend's page reads from the server (GET /challenges/{id}): a link cannot claim one. */
export function challengeLink(origin, game, name) {
  const params = new URLSearchParams({ by: name ?? "", g: game.id });
  return `${origin}/#/challenge/${encodeURIComponent(game.deal)}?${params}`;
}

/** Who did better: "you", "them" or "tie". A win beats a loss; more cards left beats fewer. */
export function compareResults(mine, theirs) {
  const value = (result) => (result.status === "won" ? 100 + result.score : 0);
  const [a, b] = [value(mine), value(theirs)];
  return a > b ? "you" : a < b ? "them" : "tie";
}
