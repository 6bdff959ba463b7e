// Keeps a race's screen current: a WebSocket to /ws/races/<id> on this origin (the browser
// cannot set headers, so the token goes in the first message, never in the URL). It hands on
// the whole race (`ready`, `race`) and each racer's progress (`progress`). A dropped socket is
// tried again with backoff; while there is none, the race is read (GET /races/{id}) every few
// seconds instead, which holds every racer's progress, so nothing is missed either way.

import { liveSocket, socketUrl } from "../../lib/live-socket.js";
import * as raceApi from "./api.js";

const BACKOFF = [1000, 2000, 4000, 8000, 15000];
const POLL_MS = 2000;

/**
 * Follows race `id`. onRace(race) gets the whole race (the socket's `ready` and `race`, or a
 * poll); onProgress({player, progress, board}) one racer's move; onState(state) "live",
 * "polling" or "reconnecting". Returns {stop, refresh}: refresh() reads the race now.
 */
export function followRace(id, { onRace, onProgress = () => {}, onState = () => {}, pollMs = POLL_MS, WebSocketClass = globalThis.WebSocket } = {}) {
  let stopped = false;
  let state = null;
  let pollTimer = null;
  let reading = false;

  const setState = (value) => {
    if (value === state) return;
    state = value;
    onState(value);
  };

  async function read() {
    if (stopped || reading) return;
    reading = true;
    try {
      const race = await raceApi.race(id);
      if (!stopped) onRace(race);
    } catch {
      // Lost on the network too: the next read or the socket catches up.
    } finally {
      reading = false;
    }
  }

  function startPolling() {
    if (pollTimer) return;
    read();
    pollTimer = setInterval(() => { if (state !== "live") read(); }, pollMs);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  const socket = liveSocket({
    url: () => socketUrl(`/ws/races/${encodeURIComponent(id)}`),
    backoff: BACKOFF,
    WebSocketClass,
    onLive: () => { stopPolling(); setState("live"); },
    onDown: (value) => { setState(value); startPolling(); },
    onMessage: (data) => {
      if (data.type === "ready" || data.type === "race") {
        if (data.race) onRace(data.race);
      } else if (data.type === "progress") onProgress(data);
    },
  });
  if (!WebSocketClass) { setState("polling"); startPolling(); }

  return {
    stop() {
      stopped = true;
      stopPolling();
      socket.stop();
    },
    refresh: () => read(),
    get state() { return state; },
  };
}
