// A live socket on this origin, as both games hold one (a race's, a match's): the browser
// cannot set headers, so the token goes in the first message, never in the URL; the server
// answers `ready` once it has taken it. A dropped socket is tried again with backoff; after
// GIVE_UP sockets in a row that never became ready, only now and then. What keeps a screen
// current meanwhile (reading the race, polling the feed) is the caller's: onLive and onDown
// say when to stop and start it.

import * as api from "../api.js";

// After this many sockets in a row that never became ready, a socket is tried again only now
// and then.
export const GIVE_UP = 3;
const RETRY_SOCKET = 60000;

/** The socket URL of `path` on this origin: wss: on an https: page, ws: otherwise. */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * Opens a socket to url() (read anew each time, so it can carry a mark) and keeps one open.
 * onMessage(data) gets every message that parses, `ready` too, after onLive() has run for it;
 * onDown(state) runs when a socket drops or cannot be made: "reconnecting" when one was live
 * and it is not yet given up on, else "polling". backoff lists the waits (ms) before each try.
 * Without a WebSocketClass nothing opens: the caller polls alone. Returns {stop, failures}.
 */
export function liveSocket({ url, backoff, onMessage, onLive = () => {}, onDown = () => {}, WebSocketClass = globalThis.WebSocket }) {
  let socket = null;
  let stopped = false;
  let failures = 0; // sockets in a row that never became ready
  let everReady = false;
  let timer = null;

  function open() {
    if (stopped || !WebSocketClass) return;
    let ready = false;
    let opened;
    try {
      opened = new WebSocketClass(url());
    } catch {
      socket = null;
      lost(false);
      return;
    }
    socket = opened;
    opened.addEventListener("open", () => opened.send(JSON.stringify({ type: "auth", token: api.token() })));
    opened.addEventListener("message", (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.type === "ready") {
        ready = true;
        everReady = true;
        failures = 0;
        onLive();
      }
      onMessage(data);
    });
    opened.addEventListener("close", () => {
      if (socket === opened) socket = null;
      if (!stopped) lost(ready);
    });
  }

  function lost(wasReady) {
    if (!wasReady) failures += 1;
    const retry = failures >= GIVE_UP ? RETRY_SOCKET : backoff[Math.min(failures, backoff.length - 1)];
    // A socket that was live dropped ("reconnecting"), or none is to be had here yet ("polling").
    onDown(everReady && failures < GIVE_UP ? "reconnecting" : "polling");
    clearTimeout(timer);
    timer = setTimeout(() => { failures = Math.min(failures, GIVE_UP - 1); open(); }, retry);
  }

  open();

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    },
    get failures() { return failures; },
  };
}
