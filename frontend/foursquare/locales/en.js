// Foursquare's strings that the first screen does not need, loaded (../strings.js) by the
// screens that do: a finished game's (the share text, its strip and key, a still board's
// description) and a challenge link's. They join the app's table (../../locales/) and are
// read with t().

export default {
  "board.coordinates_drawn": "Rows are counted from the top of this grid and columns from its start, as it is drawn.",
  "share.daily_name": "Foursquare #{number}",
  "share.practice_name": "Foursquare practice",
  "share.won": { one: "won · {n} left", other: "won · {n} left" },
  "share.lost": { one: "lost after {n} card", other: "lost after {n} cards" },
  "share.unfinished": { one: "unfinished · {n} card placed", other: "unfinished · {n} cards placed" },
  "share.strip_title": "What your share shows:",
  "share.strip_story": "a square for each card you placed, in order, coloured by how many piles were face down after it.",
  "share.strip_picture": "how the grid ended: a square for each face-up pile, each face-down pile and each empty place, never where they were.",
  "share.key_none": "no pile face down",
  "share.key_few": "{a} or {b} face down",
  "share.key_n": "{n} face down",
  "share.key_four": "{n} face down: one more loses",
  "share.key_lost": "{n} or more face down: lost",
  "share.key_up": "a face-up pile",
  "share.key_down": "a face-down pile",
  "share.key_empty": "an empty place",
  "challenge.title_open": "Can you win this deal?",
  "challenge.intro_open": "This link opens a deal someone shared with you: the same cards, in the same order.",
};
