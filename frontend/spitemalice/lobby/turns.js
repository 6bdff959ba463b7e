// What a match in a list says about itself: whose move it is, who the opponent is, how long the
// turn has left. Pure (node tests); the home page and the match list share it.

export const isYourTurn = (match) => match.status === "playing" && match.game?.turn === match.you;
/** A waiting match you did not create: a league mate's invitation to you. */
export const invitedYou = (match) => match.status === "waiting" && match.you !== 0;
export const matchHref = (match) => `#/spite-malice/match/${match.id}`;

/** What waits for you, as the home page lists it: your turns and invitations to you. Only a
 *  match being played can be your turn, so one that was aborted, finished or cancelled never
 *  is; a daily has a line of its own. */
export const waitingForYou = (matches) =>
  matches.filter((match) => match.mode !== "daily" && (isYourTurn(match) || invitedYou(match)));

/** The other seat: {name} of a person (with `botAccount: true` for a bot account, a program
 *  playing through the API), {bot: level} of the house bot, or null if nobody yet. */
export function opponent(match) {
  const seat = match.seats?.[match.you === 1 ? 0 : 1];
  if (seat?.bot) return { bot: seat.bot };
  const person = (player) => (player.bot === true ? { name: player.name, botAccount: true } : { name: player.name });
  if (seat?.player) return person(seat.player);
  // Your challenge to a player, before they accept: they are the opponent to be.
  return match.you === 0 && match.invitee ? person(match.invitee) : null;
}

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

/** Time left until `deadline` (ISO) in its largest whole unit: {value, unit, seconds}. */
export function dueIn(deadline, now = Date.now()) {
  const seconds = Math.max(0, Math.floor((Date.parse(deadline) - now) / 1000));
  const [unit, size] = UNITS.find(([, length]) => seconds >= length) ?? UNITS[3];
  return { value: Math.floor(seconds / size), unit, seconds };
}
