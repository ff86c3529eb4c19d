// The page: pick a hand, your seat, the calls before yours and the score, ask the server (POST api/hand/stream),
// show the advice, its charts and the tables. Controls come from GET api/rules: the page shows an input only when
// the API takes it; the calls offered come from POST api/calls (only the legal ones).

import {DECK, pretty, readHand, suitSymbol} from './cards.js';
import {barChart, gauge, heatmap} from './charts.js';
import {amount, estimate, percent, points, seconds, thousands} from './format.js';

const $ = (id) => document.getElementById(id);
const HAND_SIZE = 9;
const state = {api: null, request: null, tables: null, tablesBy: null, callsAsked: 0};

// -- building elements --------------------------------------------------------------------------------

function make(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function table(target, headers, rows) {
  target.replaceChildren(
    make('thead', {}, make('tr', {}, ...headers.map((h) => make('th', {scope: 'col'}, h)))),
    make('tbody', {}, ...rows.map((row) => make('tr', row.attrs ?? {}, ...row.cells.map((c) => make('td', {}, c))))),
  );
}

function show(id, visible) {
  $(id).hidden = !visible;
}

async function getJson(url, options = {}) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
  if (!response.ok) throw new Error(body.error ?? `the server answered ${response.status}`);
  return body;
}

// -- the card picker ----------------------------------------------------------------------------------

function buildPicker() {
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
function syncPicker() {
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

// -- the options panel, from GET api/rules --------------------------------------------------------------

function field(labelText, input, help = null) {
  const check = input.type === 'checkbox';
  const label = make('label', {class: check ? 'check' : '', title: help ?? ''});
  if (check) label.append(input, labelText);
  else label.append(labelText, input);
  return label;
}

function select(name, choices, value) {
  return make('select', {name}, ...choices.map(([v, text]) => make('option', {value: String(v), selected: String(v) === String(value)}, text)));
}

function buildOptions(api) {
  const body = $('options-body');
  const fields = new Set(api.hand.fields);
  body.replaceChildren();
  const play = [];
  if (fields.has('trump')) {
    play.push(field('Trump', select('trump', [['', 'chosen after the kitty'],
      ...api.hand.trumps.map((s) => [s, `${suitSymbol(s)} ${{S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'}[s]}`])], ''),
      'Fix the trump suit, or let the player choose it after taking the kitty'));
  }
  if (fields.has('policy')) {
    play.push(field('Players', select('policy', api.policies.map((p) => [p, p]), 'heuristic'),
      'How all four seats bid and play'));
  }
  if (play.length) body.append(make('h3', {}, 'Play'), ...play);
  const sim = [];
  if (fields.has('samples')) {
    const max = api.hand.max_samples;
    const choices = [...new Set([20000, api.hand.default_samples, max].filter((n) => n <= max))].sort((a, b) => a - b);
    sim.push(field('Deals to simulate', select('samples', choices.map((n) => [n, thousands(n)]),
      Math.min(api.hand.default_samples, max)), 'More deals: smaller standard errors, longer wait'));
  }
  if (fields.has('seed')) {
    sim.push(field('Seed', make('input', {type: 'number', name: 'seed', min: '0', step: '1', value: '1'}),
      'The same seed gives the same numbers'));
  }
  if (sim.length) body.append(make('h3', {}, 'Simulation'), ...sim);
  if (fields.has('rules')) {
    body.append(make('h3', {}, 'House rules'));
    for (const option of api.options) {
      let input;
      if (option.kind === 'bool') input = make('input', {type: 'checkbox', checked: option.default});
      else if (option.kind === 'choice') input = select('', option.choices.map((c) => [c, c]), option.default);
      else input = make('input', {type: 'number', min: String(option.min ?? ''), max: String(option.max ?? ''), step: '1',
                                  value: String(option.default)});
      input.dataset.rule = option.name;
      body.append(field(option.name.replaceAll('_', ' '), input, option.help));
    }
  }
}

function ruleValue(input) {
  if (input.type === 'checkbox') return input.checked;
  if (input.type === 'number') return input.value === '' ? null : Number(input.value);
  return input.value;
}

// The rule options that differ from the defaults.
function changedRules() {
  const rules = {};
  for (const input of $('options-body').querySelectorAll('[data-rule]')) {
    const option = state.api.options.find((o) => o.name === input.dataset.rule);
    const value = ruleValue(input);
    if (value !== option.default) rules[option.name] = value;
  }
  return rules;
}

// The score as given, or null when both boxes are empty (the command line's default, 0-0, then applies).
function givenScore() {
  const us = $('score-us').value.trim();
  const them = $('score-them').value.trim();
  if (us === '' && them === '') return null;
  return [us === '' ? 0 : Number(us), them === '' ? 0 : Number(them)];
}

// The request for api/hand: only the fields the API takes, rules only where they differ from the defaults.
function handRequest() {
  const fields = new Set(state.api.hand.fields);
  const body = {cards: $('cards').value.trim()};
  const named = (name) => $('options-body').querySelector(`[name="${name}"]`);
  const position = $('position').value;
  if (fields.has('trump') && named('trump').value && !position) body.trump = named('trump').value;
  if (fields.has('policy') && named('policy').value !== 'heuristic') body.policy = named('policy').value;
  if (fields.has('samples')) body.samples = Number(named('samples').value);
  if (fields.has('seed') && named('seed').value !== '') body.seed = Number(named('seed').value);
  const score = givenScore();
  if (fields.has('score') && score) body.score = score;
  if (fields.has('position') && position) {
    body.position = Number(position);
    body.auction = [...$('calls').querySelectorAll('select')].map((s) => callValue(s.value));
  }
  const rules = changedRules();
  if (Object.keys(rules).length) body.rules = rules;
  return body;
}

// -- your seat and the calls before yours ---------------------------------------------------------------

const PLACE_NAMES = ['the opener', 'second', 'third', 'the dealer'];

function callValue(text) {
  return /^\d+$/.test(text) ? Number(text) : text;
}

function callLabel(call) {
  return call === 'pass' ? 'pass' : call === 'moon' ? 'moon' : `bid ${call}`;
}

// One select per call before yours (seat - 1 of them), each offering only the calls legal after the ones before
// it (POST api/calls, under the rules chosen); a call that is no longer legal becomes the first legal one.
async function refreshCalls() {
  const box = $('calls');
  const seat = Number($('position').value || 0);
  const before = [...box.querySelectorAll('select')].map((s) => callValue(s.value)).slice(0, Math.max(seat - 1, 0));
  const asked = ++state.callsAsked;
  document.body.dataset.calls = 'asking';
  if (!seat) {
    box.replaceChildren();
    document.body.dataset.calls = 'ready';
    return;
  }
  let answer;
  try {
    answer = await getJson('api/calls', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({auction: before, rules: changedRules()})});
  } catch (error) {
    showError(error.message);
    return;
  }
  if (asked !== state.callsAsked) return;  // a newer change is on its way
  const made = [...answer.auction];
  while (made.length < seat - 1) made.push(answer.legal[made.length]?.[0] ?? 'pass');
  if (made.length !== answer.auction.length) {  // new selects: ask again for the calls legal after them
    fillCalls(box, made, answer.legal);
    return refreshCalls();
  }
  fillCalls(box, made, answer.legal);
  const yours = answer.legal[seat - 1] ?? [];
  box.append(make('p', {class: 'hint', id: 'your-calls'}, `Your turn (${PLACE_NAMES[seat - 1]}): ` +
    `${yours.map(callLabel).join(', ')}. Each is played out on deals that fit the calls before you.`));
  document.body.dataset.calls = 'ready';
}

// The selects of the calls before yours, kept where they are (only their choices change) while the seat stays.
function fillCalls(box, made, legal) {
  const kept = [...box.querySelectorAll('select')];
  const selects = made.map((call, i) => {
    const choices = (legal[i] ?? [call]).map(String);
    let input = kept[i];
    if (!input) {
      input = select(`call-${i + 1}`, [], '');
      input.addEventListener('change', refreshCalls);
    }
    if ([...input.options].map((o) => o.value).join() !== choices.join()) {
      input.replaceChildren(...choices.map((c) => make('option', {value: c}, callLabel(c))));
    }
    input.value = String(call);
    return input;
  });
  box.replaceChildren(...selects.map((input, i) => field(
    `${i === 0 ? 'The opener' : `Seat ${i + 1}${i + 1 === 4 ? ' (dealer)' : ''}`} called`, input,
    `The call made at seat ${i + 1}, before yours`)));
}

// -- asking for advice ----------------------------------------------------------------------------------

function progress(done, total, stage = 'hand') {
  show('progress', true);
  const bar = $('progress-bar');
  if (done > 0 && total) bar.value = done / total;
  else bar.removeAttribute('value');  // indeterminate until the first slice, and while deals are sought
  let text = 'Waiting for the simulator…';
  if (stage === 'auction') {
    text = `Playing every call on deals that fit the calls before you: ${thousands(done)} deals tried`;
  } else if (done > 0) {
    text = `Simulating your hand: ${thousands(done)} of ${thousands(total)} deals`;
  }
  $('progress-text').textContent = text;
}

function showError(message) {
  $('error').textContent = message;
  show('error', true);
}

async function advise(event) {
  event.preventDefault();
  state.request?.abort();  // a newer question replaces an older one; the server stops the old analysis
  const controller = new AbortController();
  state.request = controller;
  const clicked = performance.now();
  show('error', false);
  progress(0, 1);
  $('advise').disabled = true;
  bringAnswerIntoView();
  try {
    const response = await fetch('api/hand/stream', {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(handRequest()),
      signal: controller.signal,
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.error ?? `the server answered ${response.status}`);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.progress) progress(message.progress.done, message.progress.total, message.progress.stage);
        else if (message.error) throw new Error(message.error);
        else if (message.result) {
          show('progress', false);
          render(message.result, message.seconds, givenScore() !== null);
          document.body.dataset.adviceMs = String(Math.round(performance.now() - clicked));
        }
      }
    }
  } catch (error) {
    if (error.name !== 'AbortError') showError(error.message);
  } finally {
    if (state.request === controller) {
      state.request = null;
      show('progress', false);
      $('advise').disabled = false;
    }
  }
}

// On a phone the answer is below the cards: bring it up (once it is tall enough to scroll to).
function bringAnswerIntoView() {
  const answer = $('result').closest('.panel');
  if (answer.getBoundingClientRect().top > window.innerHeight / 2) answer.scrollIntoView({block: 'start'});
}

// -- the answer -----------------------------------------------------------------------------------------

// {call, headline, detail}: what to call, in words, from P(win the game) and the points of the JSON.

function callWords(call) {
  return call === 'pass' ? 'Pass' : call === 'moon' ? 'Shoot the moon' : `Bid ${call}`;
}

function callingWords(call) {
  return call === 'pass' ? 'passing' : call === 'moon' ? 'shooting the moon' : `bidding ${call}`;
}

function pointsThan(a, b) {
  const d = a.ev - b.ev;
  const se = Math.hypot(a.ev_se ?? 0, b.ev_se ?? 0);
  const size = amount(d, se);
  if (Number(size) === 0) return `as many points as ${callingWords(b.call ?? b.bid)}`;
  return `${size} points ${d > 0 ? 'more' : 'fewer'} than ${callingWords(b.call ?? b.bid)}`;
}

// With a seat: the call of highest P(win) among every legal call, pass included (the JSON's recommended_call).
function auctionAdvice(data) {
  const same = (a, b) => String(a) === String(b);
  const best = data.calls.find((c) => same(c.call, data.recommended_call));
  const pass = data.calls.find((c) => c.call === 'pass');
  const reference = best.call !== 'pass' && pass ? pass
    : data.calls.find((c) => data.advice && same(c.call, data.advice.next_best));
  let headline = `${callWords(best.call)}: wins the game ${percent(best.win)} of the time`;
  if (reference) headline += `, ${pointsThan(best, reference)}`;
  let detail = '';
  if (data.advice) {
    const gain = data.advice.win_gain;
    detail = `The next best call, ${callingWords(data.advice.next_best)}, wins ${amount(100 * gain, 100 * data.advice.win_gain_se)} ` +
      `percentage points less often (± ${amount(100 * data.advice.win_gain_se, 100 * data.advice.win_gain_se)}, ` +
      'the same deals played both ways).';
  }
  const auction = data.auction;
  detail += ` Your seat: ${data.position} (${PLACE_NAMES[data.position - 1]})` +
    (auction.before.length ? `, after ${auction.before.map(callLabel).join(', ')}` : '') +
    `; score ${auction.score[0]}–${auction.score[1]}.`;
  return {call: String(best.call), headline, detail};
}

// Without a seat: the hand as the bidder; the bid of highest P(win) at the score (the JSON's game view).
function handAdvice(data) {
  const game = data.game;
  const numeric = data.bids.filter((b) => b.bid !== 'moon');
  if (game.moon_pays) {
    const moon = data.bids.find((b) => b.bid === 'moon');
    const best = numeric.find((b) => b.bid === game.best_bid);
    return {
      call: 'moon',
      headline: `Shoot the moon: wins the game ${percent(moon.win)} of the time, ${pointsThan(moon, best)}`,
      detail: `It succeeds ${percent(moon.make)} of the time; bidding ${best.bid} wins the game ${percent(best.win)} of the time.`,
    };
  }
  const best = numeric.find((b) => b.bid === game.best_bid);
  const next = numeric.find((b) => b.bid === game.best_bid + 1);
  let detail = `P(make ${best.bid}) ${percent(best.make)}.`;
  if (data.bid_up_to === null) detail += ' Every bid loses points on average: pass if you can.';
  else if (data.bid_up_to !== best.bid) detail += ` In points alone you could go up to ${data.bid_up_to}.`;
  if (next) detail += ` Bidding ${next.bid} wins the game ${percent(next.win)} of the time (P(make) ${percent(next.make)}).`;
  detail += ` The hand is valued as the bidder, at ${game.score[0]}–${game.score[1]}: give your seat and the calls ` +
    'before yours to weigh passing too.';
  return {
    call: String(best.bid),
    headline: `Bid ${best.bid}: wins the game ${percent(best.win)} of the time, EV ${points(best.ev, best.ev_se)} points`,
    detail,
  };
}

// The moon: at the score (P(win the game)) when one is given, else in points.
function moonVerdict(data, atScore) {
  const moon = data.bids.find((b) => b.bid === 'moon');
  const rate = estimate(data.moon.success, data.moon.se, {scale: 100, unit: '%'});
  if (atScore) {
    const game = data.game;
    const even = estimate(game.moon_break_even, game.moon_break_even_se, {scale: 100, unit: '%'});
    const [us, them] = game.score;
    return {
      needed: game.moon_break_even, pays: game.moon_pays,
      verdict: `At ${us}–${them}, shooting the moon ${game.moon_pays ? 'pays' : 'does not pay'}: it succeeds ${rate} ` +
        `of the time and wins the game ${percent(moon.win)} of the time; it beats the best bid from a success rate ` +
        `of ${even}.`,
    };
  }
  const numeric = data.bids.filter((b) => b.bid !== 'moon');
  const target = data.rules.target;
  // In points the moon's EV is (2p - 1) * target; it pays once that beats the best numeric bid's EV.
  const needed = Math.min(Math.max((Math.max(...numeric.map((b) => b.ev)) / target + 1) / 2, 0), 1);
  return {
    needed, pays: data.moon.pays,
    verdict: `In points, shooting the moon ${data.moon.pays ? 'pays' : 'does not pay'}: it succeeds ${rate} of the ` +
      `time, and ${data.moon.pays ? 'needs' : 'would need'} ${percent(needed)}. Give the score to judge it in games won.`,
  };
}

function render(data, elapsed, atScore) {
  const words = data.calls ? auctionAdvice(data) : handAdvice(data);
  const bids = data.bids.filter((b) => b.bid !== 'moon');
  const moon = data.bids.find((b) => b.bid === 'moon');
  $('advice').textContent = words.headline;
  $('advice').dataset.call = words.call;
  $('advice-detail').textContent = words.detail + (data.misdeal_callable
    ? ' This hand holds only 3s to 9s: you may call a misdeal instead.' : '');

  const percentAxis = (v) => `${Math.round(100 * v)}%`;
  const options = data.calls ? data.calls.map((c) => ({label: c.call === 'pass' ? 'pass' : String(c.call), row: c, call: c.call}))
    : data.bids.map((b) => ({label: String(b.bid), row: b, call: b.bid}));
  $('chart-win-caption').textContent = data.calls
    ? `Chance of winning the game with each call, at ${data.auction.score.join('–')}`
    : `Chance of winning the game with each bid, at ${data.game.score.join('–')}`;
  barChart($('chart-win'), {
    label: $('chart-win-caption').textContent, max: 1, format: percent, axisFormat: percentAxis,
    bars: options.map((o) => ({label: o.label, value: o.row.win, se: o.row.win_se,
      cls: String(o.call) === words.call ? 'good' : 'neutral'})),
  });
  barChart($('chart-make'), {
    label: 'Chance of making each bid', max: 1, format: percent, axisFormat: percentAxis,
    bars: [...bids, ...(moon ? [moon] : [])].map((b) => ({
      label: b.bid === 'moon' ? 'moon' : `bid ${b.bid}`, value: b.make, se: b.make_se,
      cls: b.bid === 'moon' ? 'muted' : (b.ev >= 0 ? 'good' : 'bad'),
    })),
  });
  barChart($('chart-points'), {
    label: 'Distribution of the points your team wins', max: 0.5, format: percent, axisFormat: percentAxis,
    bars: data.points.distribution.map((p, k) => ({label: String(k), value: p, se: data.points.distribution_se[k]})),
  });
  if (moon) {
    const {needed, pays, verdict} = moonVerdict(data, atScore);
    $('moon-verdict').textContent = verdict;
    $('moon-verdict').classList.toggle('pays', pays);
    gauge($('chart-moon'), {
      label: 'Moon success rate against the rate it needs', value: data.moon.success, se: data.moon.se,
      good: pays, mark: needed, valueLabel: `succeeds ${percent(data.moon.success)}`,
      markLabel: `pays above ${percent(needed)}`,
    });
  } else {
    $('moon-verdict').textContent = 'Moon bids are off under these rules.';
  }
  $('chart-moon').closest('figure').hidden = !moon;

  const callsTable = $('calls-table');
  callsTable.hidden = !data.calls;
  if (data.calls) {
    table(callsTable, ['Your call', 'P(win the game)', 'EV (points)', 'P(you declare)', 'P(make) if you do'],
      data.calls.map((c) => ({
        attrs: String(c.call) === words.call ? {class: 'best'} : {},
        cells: [callLabel(c.call), estimate(c.win, c.win_se, {scale: 100, unit: '%'}), estimate(c.ev, c.ev_se),
          estimate(c.declares, c.declares_se, {scale: 100, unit: '%'}),
          c.make === undefined ? '–' : estimate(c.make, c.make_se, {scale: 100, unit: '%'})],
      })));
  }
  table($('bids-table'), [data.calls ? 'As the bidder: bid' : 'Bid', 'P(make)', 'EV (points)', 'P(win the game)'],
    data.bids.map((b) => ({
      cells: [String(b.bid), estimate(b.make, b.make_se, {scale: 100, unit: '%'}), estimate(b.ev, b.ev_se),
        estimate(b.win, b.win_se, {scale: 100, unit: '%'})],
    })));
  const awards = Object.entries(data.awards).map(([name, p]) =>
    `${name.replace('_', ' ')} ${estimate(p, data.awards_se[name], {scale: 100, unit: '%'})}`);
  const trumps = Object.entries(data.trump.chosen).filter(([, p]) => p > 0).sort((a, b) => b[1] - a[1])
    .map(([suit, p]) => `${suitSymbol(suit)} ${percent(p)}`);
  $('wins').textContent = `As the bidder your team wins: ${awards.join(', ')}. ` +
    (data.trump.fixed ? `Trump fixed: ${suitSymbol(data.trump.fixed)}.` : `Trump named after the kitty: ${trumps.join(', ')}.`) +
    ` Points won on average: ${estimate(data.points.mean, data.points.se)}.`;
  const changed = Object.entries(data.rules).filter(([name, value]) =>
    state.api.options.find((o) => o.name === name)?.default !== value).map(([n, v]) => `${n}=${v}`);
  let sampled = `${thousands(data.samples)} deals simulated for the hand${data.stopped_by === 'precision' ? ' (precision reached)' : ''}`;
  if (data.auction) {
    const a = data.auction;
    sampled += `; for the calls, ${thousands(a.samples)} deals kept of ${thousands(a.deals)} tried ` +
      `(${estimate(a.acceptance, a.acceptance_se, {scale: 100, unit: '%'})} fit the calls before you)`;
  }
  $('meta').textContent = `${sampled}${elapsed ? `, in ${seconds(elapsed)}` : ''}; seed ${data.seed}, ${data.policy} play, ` +
    `rules: ${changed.length ? changed.join(', ') : 'the defaults'}; P(win) from a match-equity table of ` +
    `${thousands(data.game.equity_hands)} hands. Each figure ± one standard error. ` +
    'EV: your team\u2019s hand score minus the opponents\u2019 points; a moon counts as a won or lost game.';
  show('placeholder', false);
  show('result', true);
  bringAnswerIntoView();
}

// -- the bid tables view --------------------------------------------------------------------------------

const TABLE_VALUES = {
  bid_up_to: 'bid up to',
  points: 'points won',
  moon: 'moon success',
};

function tableValueOptions(bids) {
  return [['bid_up_to', TABLE_VALUES.bid_up_to], ...bids.map((b) => [`make${b}`, `P(make ${b})`]),
    ['points', TABLE_VALUES.points], ['moon', TABLE_VALUES.moon]];
}

async function loadTables() {
  const by = [...$('table-by').querySelectorAll('input:checked')].map((i) => i.value);
  if (!by.length) return;
  const key = by.join(',');
  if (state.tables && !state.tables.bid_table && state.tablesBy) return;  // no bid table to regroup
  show('tables-error', false);
  try {
    if (state.tablesBy !== key) {
      state.tables = await getJson(`api/tables?by=${encodeURIComponent(key)}`);
      state.tablesBy = key;
    }
    renderTables(state.tables);
  } catch (error) {
    $('tables-error').textContent = error.message;
    show('tables-error', true);
  }
}

function renderTables(data) {
  renderPositions(data.by_position);
  renderEquity(data.equity);
  for (const part of [$('bid-panel'), ...document.querySelectorAll('[data-part="bid"]')]) part.hidden = !data.bid_table;
  if (data.bid_table) renderBidTables(data);
}

// What to call by seat: one grid per place (rows: hand strength, columns: the standing call), as by_position.md.
function renderPositions(positions) {
  $('positions-panel').hidden = !positions;
  if (!positions) return;
  const place = $('position-place');
  if (!place.options.length) {
    place.append(...positions.charts.map((c, i) => make('option', {value: String(i)}, c.place)));
    place.addEventListener('change', () => renderPositions(positions));
  }
  const chart = positions.charts[Number(place.value || 0)];
  const score = positions.score ? ` at ${positions.score[0]}–${positions.score[1]}` : '';
  $('positions-source').textContent = `The call most likely to win the game${score}, from ` +
    `${positions.deals ? thousands(positions.deals) + ' random deals' : 'random deals'}` +
    `${positions.seed !== undefined ? `, seed ${positions.seed}` : ''}${positions.policy ? `, ${positions.policy} play` : ''} ` +
    `(${positions.source}).`;
  table($('positions-table'), ['strength', ...chart.standings], chart.strengths.map((strength, i) => ({
    cells: [strength, ...chart.cells[i].map((call) => call)],
  })));
  for (const cell of $('positions-table').querySelectorAll('tbody td:not(:first-child)')) {
    if (cell.textContent === 'pass' || cell.textContent === 'moon') cell.className = `call-${cell.textContent}`;
  }
}

// The match-equity table: P(win the game) by both scores, for the team dealing next chosen.
function renderEquity(equity) {
  $('equity-panel').hidden = !equity;
  if (!equity) return;
  const select = $('equity-dealer');
  if (!select.dataset.ready) {
    select.dataset.ready = 'true';
    select.addEventListener('change', () => renderEquity(equity));
  }
  const d = equity.dealers.indexOf(select.value);
  const cells = new Map();
  const ys = [...equity.scores].reverse();
  let worst = 0;
  equity.scores.forEach((us, i) => equity.scores.forEach((them, j) => {
    const win = equity.win[d][i][j];
    const se = equity.win_se[d][i][j];
    if (win === null) return;
    worst = Math.max(worst, se ?? 0);
    cells.set(`${them}|${us}`, {value: win, text: String(Math.round(100 * win)),
      title: `you ${us}, they ${them}: P(win) ${estimate(win, se, {scale: 100, unit: '%'})}`});
  }));
  $('equity-caption').textContent = `P(win the game) in %, your score down and theirs across, ${select.value} dealing next`;
  $('equity-source').textContent = `Standard errors at most ${amount(100 * worst, 100 * worst)} percentage ` +
    `points; hover over a cell for its own (${equity.source}).`;
  heatmap($('equity'), {xs: equity.scores, ys, cells, xTitle: 'them', yTitle: 'us',
    label: $('equity-caption').textContent});
}

function renderBidTables(data) {
  const bid = data.bid_table;
  const rules = bid.rules;
  const bids = Object.keys(bid.rows[0] ?? {}).filter((k) => /^make\d+$/.test(k)).map((k) => Number(k.slice(4)));
  const valueSelect = $('table-value');
  if (!valueSelect.options.length) {
    valueSelect.append(...tableValueOptions(bids).map(([v, t]) => make('option', {value: v}, t)));
  }
  const changed = Object.entries(rules).filter(([n, v]) => state.api.options.find((o) => o.name === n)?.default !== v);
  $('tables-source').textContent = `${thousands(bid.hands)} random deals, seed ${bid.seed}, ${bid.policy} play, rules: ` +
    `${changed.length ? changed.map(([n, v]) => `${n}=${v}`).join(', ') : 'the defaults'} (${data.source}). ` +
    `Groups of fewer than ${thousands(bid.min_count)} hands are faint (†) and get no bid.`;
  const features = data.features;
  // Each value's label comes from the server (one set of labels for every output of smear-sim).
  const labels = new Map(features.map((f) => [f.name, new Map(f.values.map((v, i) => [String(v), f.labels[i]]))]));
  const label = (name, value) => labels.get(name)?.get(String(value)) ?? String(value);

  const figure = $('heatmap-figure');
  if (features.length === 2) {
    const [fx, fy] = features;
    const value = valueSelect.value;
    const cells = new Map();
    const maxPoints = bids[bids.length - 1];  // the highest bid is every point at stake
    for (const row of bid.rows) {
      let shade;
      let text;
      if (value === 'bid_up_to') {
        shade = row.bid_up_to === null ? null : (row.bid_up_to - rules.min_bid + 1) / (maxPoints - rules.min_bid + 1);
        text = row.bid_up_to === null ? (row.reliable ? 'pass' : '') : String(row.bid_up_to);
      } else if (value === 'points') {
        shade = row.points / maxPoints;
        text = row.points.toFixed(1);
      } else {
        shade = row[value];
        text = percent(row[value]);
      }
      cells.set(`${label(fx.name, row[fx.name])}|${label(fy.name, row[fy.name])}`, {
        value: shade, text, faint: !row.reliable,
        title: `${fx.name} ${label(fx.name, row[fx.name])}, ${fy.name} ${label(fy.name, row[fy.name])}: ` +
          `${thousands(row.hands)} hands, ${TABLE_VALUES[value] ?? valueSelect.selectedOptions[0].text} ${text}`,
      });
    }
    $('heatmap-caption').textContent = `${valueSelect.selectedOptions[0].text} by ${fx.name} and ${fy.name}`;
    heatmap($('heatmap'), {
      xs: fx.values.map((v) => label(fx.name, v)), ys: fy.values.map((v) => label(fy.name, v)), cells,
      xTitle: fx.name, yTitle: fy.name, label: $('heatmap-caption').textContent,
    });
    figure.hidden = false;
  } else {
    figure.hidden = true;
  }

  const headers = [...features.map((f) => f.name), 'hands', 'points', ...bids.map((b) => `P(make ${b})`), 'bid up to', 'moon'];
  table($('bid-table'), headers, bid.rows.map((row) => ({
    attrs: row.reliable ? {} : {class: 'imprecise'},
    cells: [...features.map((f) => label(f.name, row[f.name])), thousands(row.hands) + (row.reliable ? '' : ' †'),
      estimate(row.points, row.points_se),
      ...bids.map((b) => estimate(row[`make${b}`], row[`make${b}_se`], {scale: 100, unit: '%'})),
      row.bid_up_to === null ? '' : String(row.bid_up_to), estimate(row.moon, row.moon_se, {scale: 100, unit: '%'})],
  })));
  const best = data.moon_table.rows.filter((row) => row.reliable).slice(0, 12);
  table($('moon-table'), [...features.map((f) => f.name), 'hands', 'moon succeeds', 'moon EV', 'best bid EV', 'pays'],
    best.map((row) => ({
      cells: [...features.map((f) => label(f.name, row[f.name])), thousands(row.hands),
        estimate(row.moon, row.moon_se, {scale: 100, unit: '%'}), estimate(row.moon_ev, row.moon_ev_se),
        estimate(row.best_numeric_ev, row.best_numeric_ev_se), row.moon_pays ? 'yes' : 'no'],
    })));
}

function buildTableControls(choices) {
  const box = $('table-by');
  for (const [name, help] of Object.entries(choices)) {
    const input = make('input', {type: 'checkbox', value: name, checked: name === 'trumps' || name === 'top'});
    input.addEventListener('change', loadTables);
    box.append(make('label', {title: help}, input, name));
  }
  $('table-value').addEventListener('change', () => state.tables && renderBidTables(state.tables));
}

// -- views and start ------------------------------------------------------------------------------------

function showView(id) {
  for (const tab of document.querySelectorAll('.tab')) {
    const current = tab.dataset.view === id;
    if (current) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
    $(tab.dataset.view).hidden = !current;
  }
  if (id === 'tables-view' && !state.tablesBy) loadTables();
}

async function start() {
  buildPicker();
  syncPicker();
  $('cards').addEventListener('input', syncPicker);
  $('hand-form').addEventListener('submit', advise);
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showView(tab.dataset.view));
  try {
    state.api = await getJson('api/rules');
  } catch (error) {
    showError(`Cannot reach the smear-sim server: ${error.message}`);
    return;
  }
  buildOptions(state.api);
  buildTableControls(state.api.table_features);
  const fields = new Set(state.api.hand.fields);
  $('game').hidden = !fields.has('position') && !fields.has('score');
  $('position').addEventListener('change', () => {
    const trump = $('options-body').querySelector('[name="trump"]');
    if (trump) trump.disabled = Boolean($('position').value);  // the declarer names trump on each deal
    refreshCalls();
  });
  $('options-body').addEventListener('change', (event) => {
    if (event.target.dataset.rule) refreshCalls();  // the legal calls follow the rules
  });
  document.body.dataset.ready = 'true';
}

start();
