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
// Face-down piles after a move: 0, 1–2, 3, 4 (one more loses), 5 (lost).
const TENSION = ["🟩", "🟨", "🟨", "🟧", "🟥", "⬛"];
const STORY_ROW = 8;

/** The story's rows: a square per move, by the face-down count after it. */
export function story(counts) {
  const squares = counts.map((n) => TENSION[Math.max(0, Math.min(TENSION.length - 1, n))]);
  const rows = [];
  for (let start = 0; start < squares.length; start += STORY_ROW) rows.push(squares.slice(start, start + STORY_ROW).join(""));
  return rows.join("\n");
}

export function picture(game) {
  const up = game.grid.filter((pile) => pile.face_up).length;
  const down = game.grid.length - up;
  const squares = [...Array(up).fill(FACE_UP), ...Array(down).fill(FACE_DOWN)];
  while (squares.length < CELLS) squares.push(EMPTY);
  const lines = [];
  for (let start = 0; start < CELLS; start += 4) lines.push(squares.slice(start, start + 4).join(""));
  return lines.join("\n");
}

/** e.g. "Foursquare #123 · won · 9 left", then the story (`counts`: the face-down count after
 *  each move, if known) or the picture, then the link. */
export function shareText(game, t, url = "", counts = null) {
  const name = game.mode === "daily" || game.mode === "archive"
    ? t("share.daily_name", { number: game.number })
    : t("share.practice_name");
  const outcome = game.status === "won"
    ? t("share.won", { n: game.score })
    : t("share.lost", { n: game.grid.length, max: CELLS });
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
