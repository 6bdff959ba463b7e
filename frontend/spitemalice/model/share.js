// The text a player shares after a Spite & Malice daily: its number and how it ended, by how
// many points, never a card: "Spite & Malice #12 · won by 7". Pure, tested with node --test.

/** `result`: {number, status ("won" | "tied" | "resigned" | ...), winner, points, you}. */
export function shareText(result, st, url = "") {
  const name = st("sm.share.name", { number: result.number });
  let outcome;
  if (result.status === "tied") outcome = st("sm.share.tied");
  else if (result.winner === result.you) outcome = st("sm.share.won", { n: result.points ?? 0 });
  else outcome = st("sm.share.lost", { n: result.points ?? 0 });
  const lines = [`${name}${st("list.separator")}${outcome}`];
  if (url) lines.push(url);
  return lines.join("\n");
}
