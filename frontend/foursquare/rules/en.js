// The rules page in English (docs/RULES.md, told to a player).

export default [
  ["p", "Foursquare is a patience game for one, by Wil Su: a little Poker Squares, a little Reversi, a little Lights Out. You lay cards into a grid of at most four by four piles. You win as soon as all sixteen piles are there and every one of them shows its face. The fewer cards you need, the better your score."],
  ["h2", "The cards"],
  ["ul", [
    "A deck of 40: ace to ten in each of the four suits. There are no jacks, queens or kings.",
    "Only the rank matters: the ace is 1, then 2 up to 10. Suits are just decoration.",
    "The shuffled deck is the stock. You turn its cards up one at a time.",
  ]],
  ["h2", "Your turn"],
  ["ol", [
    "The top card of the stock is your current card.",
    "Place it face up on top of a pile that has fewer than four cards, or on an empty cell right beside a pile (sharing an edge, not just a corner), as long as all the piles still fit inside a four-by-four square.",
    "Your very first card can go anywhere: it starts the grid.",
  ]],
  ["p", "Only the top card of a pile counts; whatever is underneath is out of play. Putting a card on a face-down pile simply covers it, and the pile shows your new face-up card."],
  ["h2", "The grid floats"],
  ["p", "There is no fixed board. The four-by-four square settles as you play: any place is fine as long as all the piles fit inside four rows and four columns. The cells where your card may go are highlighted on the screen."],
  ["h2", "Turning cards over"],
  ["p", "When you put down a card, look along its row and then along its column, each on its own:"],
  ["ul", [
    "Take the other piles in that line whose top card is face up.",
    "If there are none, or if your card is higher than all of them, or lower than all of them, turn over the top card of every other pile in that line: face-up cards go face down and face-down cards come face up.",
    "Otherwise nothing in that line turns over.",
  ]],
  ["p", "The fine print:"],
  ["ul", [
    "Face-down cards are never compared, because you cannot see them. So when every other card in a line is face down, the line turns over.",
    "A tie spoils it: a 6 beside another face-up 6 is neither the highest nor the lowest, so that line stays as it is.",
    "The card you just placed never turns over itself.",
    "The row and the column are judged on the same picture, the grid right after your card landed, so it does not matter which you look at first.",
  ]],
  ["h2", "Winning and losing"],
  ["p", "After every card, in this order:"],
  ["ol", [
    "You lose if more than four piles show a face-down card. The face-down meter warns you when you are on four.",
    "You win if all sixteen cells are filled and every pile is face up. Your score is the number of cards left in the stock: 24 is the best possible, and a win with the very last card scores 0.",
    "You lose if that was the fortieth card and you have not won.",
  ]],
  ["p", "You can never get stuck: there is always somewhere to play. There is no passing and no taking back."],
  ["h2", "What you see"],
  ["p", "You see the current card, how many cards each pile holds, the top card of every face-up pile, which piles are face down and how many cards are left in the stock. You never see the order of the stock or what a face-down card is. When the game is over, the whole deal is revealed in the replay."],
  ["h2", "The daily"],
  ["ul", [
    "Each day everyone plays the same deal, chosen by the date where you are. You get one go, and the server checks every move.",
    "Wins are ranked by score; a higher score (more cards left) ranks higher.",
    "Practice deals and past dailies from the archive are for fun and never ranked. Finish a practice deal to send a friend the same cards as a challenge.",
  ]],
  ["h2", "Playing with a keyboard"],
  ["p", "Tab to the grid, move between cells with the arrow keys, and press Enter or Space on a highlighted cell to place the card. A screen reader hears each placement, what turned over and the face-down count."],
];
