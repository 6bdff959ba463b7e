// A page each language writes as its own list of blocks, [kind, content]: kind is the element
// ("p", "h2", …), content its text, or for "ul" and "ol" the items' texts. Foursquare's and
// Spite & Malice's rules pages are written so.

import { h } from "../lib/dom.js";

export function blockNodes(blocks) {
  return blocks.map(([kind, content]) => {
    if (kind === "ul" || kind === "ol") return h(kind, {}, content.map((item) => h("li", {}, item)));
    return h(kind, {}, content);
  });
}
