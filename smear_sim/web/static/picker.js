// The card picker: one button per card; clicking or typing a card lights it up.

import {DECK, pretty, readHand} from './cards.js';
import {$, HAND_SIZE, make} from './dom.js';

export function buildPicker() {
  const picker = $('picker');
  for (const card of DECK) {
    const joker = card.suit === null;
    const button = make('button', {
      type: 'button', class: `card${card.suit?.red ? ' red' : ''}${joker ? ' joker' : ''}`,
      'aria-pressed': 'false', title: card.title, 'aria-label': card.title, dataset: {card: card.name},
    }, make('span', {class: 'rank'}, card.rank), joker ? make('span', {}, '★') : make('span', {class: 'suit'}, card.suit.symbol));
    button.addEventListener('click', () => toggleCard(card.name));
    picker.append(button);
  }
}

function toggleCard(name) {
  const {cards} = readHand($('cards').value);
  const index = cards.indexOf(name);
  if (index >= 0) cards.splice(index, 1);
  else if (cards.length < HAND_SIZE) cards.push(name);
  $('cards').value = cards.join(' ');
  syncPicker();
}

// Light up the typed cards and say how many there are, or what cannot be read.
export function syncPicker() {
  const {cards, unknown, repeated} = readHand($('cards').value);
  const full = cards.length >= HAND_SIZE;
  for (const button of $('picker').children) {
    const held = cards.includes(button.dataset.card);
    button.setAttribute('aria-pressed', String(held));
    button.disabled = full && !held;
  }
  const status = $('hand-status');
  let problem = null;
  if (unknown.length) problem = `Not a card: ${unknown.join(', ')}. Write a rank then a suit (10H, TH, A♠), or HJ / LJ.`;
  else if (repeated.length) problem = `${repeated.join(', ')} appears twice.`;
  else if (cards.length > HAND_SIZE) problem = `${cards.length} cards: a hand has ${HAND_SIZE}.`;
  status.classList.toggle('bad', problem !== null);
  $('cards').setAttribute('aria-invalid', String(problem !== null));
  status.textContent = problem ?? (cards.length === HAND_SIZE
    ? `Your hand: ${cards.map(pretty).join(' ')}`
    : `${cards.length} of ${HAND_SIZE} cards${cards.length ? ': ' + cards.map(pretty).join(' ') : ''}.`);
}
