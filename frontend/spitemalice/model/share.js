// The text a player shares after a Spite & Malice daily: its number and how it ended, by how
// many points, never a card: "Spite & Malice #12 · won by 7". Pure, tested with node --test.

/** `result`: {number, status ("won" | "tied" | "resigned" | ...), winner, points, you}. */
export function shareText(result, t, url = "") {
  const name = t("sm.share.name", { number: result.number });
  let outcome;
  if (result.status === "tied") outcome = t("sm.share.tied");
  else if (result.winner === result.you) outcome = t("sm.share.won", { n: result.points ?? 0 });
  else outcome = t("sm.share.lost", { n: result.points ?? 0 });
  const lines = [`${name}${t("list.separator")}${outcome}`];
  if (url) lines.push(url);
  return lines.join("\n");
}
