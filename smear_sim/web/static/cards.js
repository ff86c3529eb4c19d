// The 54 cards and the card notation of the command line (smear_sim/core/cards.py): a rank (2-10, T, J, Q, K,
// A) then a suit (S H D C or ♠ ♥ ♦ ♣), case-insensitive, or HJ / LJ for the jokers; cards separated by spaces
// or commas. The page reads typed cards with it only to light up the picker: the server reads the request.

export const SUITS = [
  {letter: 'S', symbol: '♠', name: 'spades', red: false},
  {letter: 'H', symbol: '♥', name: 'hearts', red: true},
  {letter: 'D', symbol: '♦', name: 'diamonds', red: true},
  {letter: 'C', symbol: '♣', name: 'clubs', red: false},
];
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const SUIT_ALIASES = {S: 'S', H: 'H', D: 'D', C: 'C', '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C'};
const RANK_ALIASES = Object.fromEntries([...RANKS.map((r) => [r, r]), ['T', '10']]);

// Picker order: each suit from the ace down, then the jokers.
export const DECK = [
  ...SUITS.flatMap((suit) => [...RANKS].reverse().map((rank) => ({
    name: rank + suit.letter, rank, suit,
    title: `${{A: 'ace', K: 'king', Q: 'queen', J: 'jack'}[rank] ?? rank} of ${suit.name}`,
  }))),
  {name: 'HJ', rank: 'HJ', suit: null, title: 'high joker'},
  {name: 'LJ', rank: 'LJ', suit: null, title: 'low joker'},
];

// The canonical name of one typed card ('th' -> '10H', 'a♠' -> 'AS'), or null if it is not a card.
export function cardName(token) {
  const text = token.trim().toUpperCase();
  if (text === 'HJ' || text === 'LJ') return text;
  const rank = RANK_ALIASES[text.slice(0, -1)];
  const suit = SUIT_ALIASES[text.slice(-1)];
  return rank && suit ? rank + suit : null;
}

export function tokens(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}

// {cards: canonical names in order, unknown: tokens that are not cards, repeated: names typed twice}
export function readHand(text) {
  const cards = [];
  const unknown = [];
  const repeated = [];
  for (const token of tokens(text)) {
    const name = cardName(token);
    if (name === null) unknown.push(token);
    else if (cards.includes(name)) repeated.push(name);
    else cards.push(name);
  }
  return {cards, unknown, repeated};
}

// Suit symbols for people: 'AH' -> 'A♥', 'HJ' -> 'HJ'.
export function pretty(name) {
  const suit = SUITS.find((s) => s.letter === name.slice(-1));
  return name === 'HJ' || name === 'LJ' || !suit ? name : name.slice(0, -1) + suit.symbol;
}

export function suitSymbol(letter) {
  return SUITS.find((s) => s.letter === letter)?.symbol ?? letter;
}
