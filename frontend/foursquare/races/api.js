// Races' calls to the server (docs/API.md, "Foursquare races"), through the app's client
// (../../api.js: tokens, guests, retries, problems). Only the race screens import this. A race's
// moves are the ordinary game's: ../../api.js `play`.

import { call, query } from "../../api.js";
import { clientSeed, remember } from "../../fairness/seeds.js";

const races = (id, rest = "") => `/races/${encodeURIComponent(id)}${rest}`;

/** `players` 2–8, `minutes` 3, 5 or 10, `invite` league mates' player ids. */
export const raceCreate = ({ players, minutes, invite = [] }) => seeded((seed) =>
  call("POST", "/races", { body: { players, minutes, invite, client_seed: seed }, idempotent: true }));
/** A call that sends this browser's client seed, remembered for the race's result. */
async function seeded(send) {
  const seed = clientSeed();
  const race = await send(seed);
  remember(`race/${race.id}`, { seed });
  return race;
}
export const raceList = ({ limit = 20, cursor } = {}) => call("GET", `/races${query({ limit, cursor })}`);
/** A race: for its racers and invitees, and, with its `code`, for the join screen. */
export const race = (id, { code } = {}) => call("GET", `${races(id)}${query({ code })}`);
export const raceJoinCode = (code) => seeded((seed) => call("POST", "/races/join", { body: { code, client_seed: seed } }));
export const raceJoin = (id) => call("POST", races(id, "/join"));
export const raceLeave = (id) => call("POST", races(id, "/leave"));
export const raceStart = (id) => call("POST", races(id, "/start"));
/** The next race with the same racers: made by the first who asks, joined by the others. */
export const raceAgain = (id) => call("POST", races(id, "/again"));
/** Once finished: {deck, racers: [{player, moves, status, score}]}. */
export const raceReplays = (id) => call("GET", races(id, "/replays"));
