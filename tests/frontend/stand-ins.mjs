// Stand-ins the socket tests share (not a test file itself: node --test runs *.test.mjs).

/** localStorage over a Map, holding `entries` to begin with. */
export function standInStorage(entries = []) {
  const store = new Map(entries);
  return {
    getItem: (key) => (store.has(key) ? store.get(key) : null),
    setItem: (key, value) => store.set(key, String(value)),
    removeItem: (key) => store.delete(key),
  };
}

/** Every FakeSocket made, in order; a test empties it before it starts. */
export const sockets = [];

/**
 * A stand-in WebSocket: remembers its URL and what was sent (parsed), and lets the test play
 * the server: emit("open"), receive(message), close().
 */
export class FakeSocket {
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.listeners = {};
    sockets.push(this);
  }
  addEventListener(kind, listener) { (this.listeners[kind] ??= []).push(listener); }
  emit(kind, data) { for (const listener of this.listeners[kind] ?? []) listener(data); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.emit("close", {}); }
  receive(message) { this.emit("message", { data: JSON.stringify(message) }); }
}
