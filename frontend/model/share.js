// The text a player shares after a game: the result in words and a small picture of the final
// grid's make-up — how many piles ended face up, face down or empty, in that order, never where
// they were — so it spoils nothing of the deal.

const FACE_UP = "🟦";
const FACE_DOWN = "🟧";
const EMPTY = "⬜";
const CELLS = 16;

export function picture(game) {
  const up = game.grid.filter((pile) => pile.face_up).length;
  const down = game.grid.length - up;
  const squares = [...Array(up).fill(FACE_UP), ...Array(down).fill(FACE_DOWN)];
  while (squares.length < CELLS) squares.push(EMPTY);
  const lines = [];
  for (let start = 0; start < CELLS; start += 4) lines.push(squares.slice(start, start + 4).join(""));
  return lines.join("\n");
}

/** e.g. "Foursquare #123 · won · 9 left", then the picture, then the link. */
export function shareText(game, t, url = "") {
  const name = game.mode === "daily" || game.mode === "archive"
    ? t("share.daily_name", { number: game.number })
    : t("share.practice_name");
  const outcome = game.status === "won"
    ? t("share.won", { n: game.score })
    : t("share.lost", { n: game.grid.length, max: CELLS });
  const lines = [`${name} · ${outcome}`, picture(game)];
  if (url) lines.push(url);
  return lines.join("\n");
}

/** The link that opens the same deal for a friend, with your result to compare against. */
export function challengeLink(origin, game, name) {
  const params = new URLSearchParams({ by: name ?? "", r: game.status === "won" ? `won-${game.score}` : "lost" });
  return `${origin}/#/challenge/${encodeURIComponent(game.deal)}?${params}`;
}

/** Reads the challenger's result from a challenge link's `r` ("won-9" or "lost"). */
export function parseChallengeResult(value) {
  const match = /^won-(\d{1,2})$/.exec(value ?? "");
  if (match) return { status: "won", score: Number(match[1]) };
  if (value === "lost") return { status: "lost", score: null };
  return null;
}

/** Who did better: "you", "them" or "tie". A win beats a loss; more cards left beats fewer. */
export function compareResults(mine, theirs) {
  const value = (result) => (result.status === "won" ? 100 + result.score : 0);
  const [a, b] = [value(mine), value(theirs)];
  return a > b ? "you" : a < b ? "them" : "tie";
}
