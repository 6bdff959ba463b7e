// The Spite & Malice rules page in English (docs/SPITE_MALICE.md, told to a player).

export default [
  ["p", "Spite & Malice is a card game for two. Each of you has a pay-off pile of twenty cards, and whoever plays the last card of theirs onto the centre of the table first wins the game. Both of you build on the same three centre stacks, so every card you play helps or hinders your rival too."],
  ["h2", "The cards"],
  ["ul", [
    "Two ordinary decks shuffled together, without jokers: 104 cards.",
    "Only ranks matter, never suits. The ace counts 1, then 2 to 10, the jack 11 and the queen 12.",
    "Kings are wild: a king counts as whatever rank the stack it goes on needs next.",
  ]],
  ["h2", "The table"],
  ["ul", [
    "Your pay-off pile: twenty cards face down, with the top one turned face up. Only that top card can be played.",
    "Your hand: up to five cards, which only you see.",
    "Your four side stacks: empty at first. They fill with the cards you discard, face up and spread so every card shows.",
    "Three centre stacks, shared by both players, and the stock, face down, that you draw from.",
  ]],
  ["h2", "Your turn"],
  ["ol", [
    "Draw from the stock until you hold five cards.",
    "Play as many cards as you like onto the centre stacks: the top of your pay-off pile, the top card of any of your side stacks, or any card from your hand. When the top of your pay-off pile is played, the next card turns up.",
    "If you play every card in your hand, draw five more at once and keep going.",
    "End your turn by discarding one card from your hand onto one of your side stacks. Any card may go on any side stack, whatever is already there. Every turn ends with exactly one discard.",
  ]],
  ["h2", "The centre stacks"],
  ["ul", [
    "A centre stack starts with an ace and goes up one rank at a time: ace, 2, 3 and so on to the queen.",
    "A king can go on any centre stack in place of the rank it needs, even as the ace that starts it.",
    "A stack that reaches the queen is complete: its twelve cards are shuffled back into the stock and the place is empty again.",
  ]],
  ["h2", "What is never allowed"],
  ["ul", [
    "Moving a card from one side stack to another.",
    "Putting a card from your pay-off pile or a side stack onto a side stack: only a card from your hand can be discarded.",
    "Taking a card back from a centre stack, or touching your rival's piles.",
  ]],
  ["p", "Only the top card of a side stack can be played, and no play is ever forced: you may keep a card for later, or to block your rival."],
  ["h2", "Who starts"],
  ["p", "The player whose pay-off top card ranks higher takes the first turn (a king is highest). If both rank the same, the first seat starts: you against the computer, or whoever sent the invitation."],
  ["h2", "Winning and scoring"],
  ["ul", [
    "You win the game the moment you play the last card of your pay-off pile. You score one point for every card still left in your rival's pay-off pile.",
    "If a draw is needed when the stock is empty, the game is a tie and nobody scores. So is a game that reaches 300 turns, both players' counted together.",
    "A match is a series of games, each dealt afresh, and the first to reach its points wins it: 50 points, 25, or a single game.",
  ]],
  ["h2", "Playing here"],
  ["ul", [
    "Against a friend, each turn has a time limit: a minute, an hour, a day or three days. Letting it run out loses the match, as resigning does.",
    "The daily is one game against the computer on a deal that is the same for everyone that day. You have one go, and the day's board ranks the winners by their points.",
    "Ratings count only finished matches between people: matches against the computer and dailies never change them.",
  ]],
];
