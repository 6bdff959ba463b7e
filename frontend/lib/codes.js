// An invitation's code as a player types or pastes it: the code itself ("abcd-2345"), or a link
// that carries it after `<route>/` (…/races/join/ABCD2345, …/spite-malice/join/ABCD2345).
// Races and Spite & Malice's invitations share the codes' shape (server/core/codes.py).

export function codeFromText(text, route) {
  const value = String(text ?? "").trim();
  const fromLink = value.match(new RegExp(`${route}/([^/?#\\s]+)`, "i"));
  return (fromLink ? decodeURIComponent(fromLink[1]) : value).replace(/[\s-]+/g, "").toUpperCase();
}
