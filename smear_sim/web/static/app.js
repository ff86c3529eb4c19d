// The page: pick a hand, ask the server (POST api/hand/stream), show the advice, its charts and the bid tables.
// Controls come from GET api/rules: the page shows an input only when the API takes it.

import {DECK, pretty, readHand, suitSymbol} from './cards.js';
import {barChart, gauge, heatmap} from './charts.js';
import {estimate, percent, points, seconds, thousands} from './format.js';

const $ = (id) => document.getElementById(id);
const HAND_SIZE = 9;
const state = {api: null, request: null, tables: null, tablesBy: null};

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

// The request for api/hand: only the fields the API takes, rules only where they differ from the defaults.
function handRequest() {
  const fields = new Set(state.api.hand.fields);
  const body = {cards: $('cards').value.trim()};
  const named = (name) => $('options-body').querySelector(`[name="${name}"]`);
  if (fields.has('trump') && named('trump').value) body.trump = named('trump').value;
  if (fields.has('policy') && named('policy').value !== 'heuristic') body.policy = named('policy').value;
  if (fields.has('samples')) body.samples = Number(named('samples').value);
  if (fields.has('seed') && named('seed').value !== '') body.seed = Number(named('seed').value);
  const rules = {};
  for (const input of $('options-body').querySelectorAll('[data-rule]')) {
    const option = state.api.options.find((o) => o.name === input.dataset.rule);
    const value = ruleValue(input);
    if (value !== option.default) rules[option.name] = value;
  }
  if (Object.keys(rules).length) body.rules = rules;
  return body;
}

// -- asking for advice ----------------------------------------------------------------------------------

function progress(done, total) {
  show('progress', true);
  const bar = $('progress-bar');
  if (done > 0) bar.value = done / total;
  else bar.removeAttribute('value');  // indeterminate until the first slice is done
  $('progress-text').textContent = done > 0
    ? `Simulating: ${thousands(done)} of ${thousands(total)} deals`
    : 'Waiting for the simulator…';
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
        if (message.progress) progress(message.progress.done, message.progress.total);
        else if (message.error) throw new Error(message.error);
        else if (message.result) {
          show('progress', false);
          render(message.result, message.seconds);
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

// {call, headline, detail}: what to call, in words. Today: from the bids' P(make) and EV.
function advice(data) {
  const numeric = data.bids.filter((b) => b.bid !== 'moon');
  const lowest = numeric[0];
  if (data.moon.pays) {
    return {
      call: 'moon',
      headline: `Shoot the moon: it succeeds ${percent(data.moon.success)} of the time`,
      detail: `A won moon wins the game; that is worth ${points(data.moon.gain_over_best_bid, data.moon.ev_se)} points ` +
        `more than bidding ${lowest.bid} (EV ${points(lowest.ev, lowest.ev_se)}).`,
    };
  }
  if (data.bid_up_to === null) {
    return {
      call: 'pass',
      headline: 'Pass if you can: every bid loses points on average',
      detail: `Forced to bid? Bid ${lowest.bid}: P(make ${lowest.bid}) ${percent(lowest.make)}, ` +
        `EV ${points(lowest.ev, lowest.ev_se)} points.`,
    };
  }
  const best = numeric.find((b) => b.bid === data.bid_up_to);
  const next = numeric.find((b) => b.bid === data.bid_up_to + 1);
  let detail = `The lowest bid, ${lowest.bid}, has the highest EV (${points(lowest.ev, lowest.ev_se)} points): ` +
    `open there, and go up to ${best.bid} if the auction demands it.`;
  if (best === lowest) detail = `Bid ${best.bid} if you can get it.`;
  if (next) detail += ` Bidding ${next.bid} loses on average: P(make ${next.bid}) ${percent(next.make)}, EV ${points(next.ev, next.ev_se)}.`;
  else detail += ' That is every point at stake.';
  return {
    call: String(best.bid),
    headline: `Bid up to ${best.bid}: P(make ${best.bid}) ${percent(best.make)}, EV ${points(best.ev, best.ev_se)} points`,
    detail,
  };
}

function moonVerdict(data) {
  const numeric = data.bids.filter((b) => b.bid !== 'moon');
  const target = data.rules.target;
  // The moon's EV is (2p - 1) * target; it pays once that beats the best numeric bid's EV.
  const needed = Math.min(Math.max((numeric[0].ev / target + 1) / 2, 0), 1);
  const verdict = data.moon.pays
    ? `Shooting the moon pays: it succeeds ${estimate(data.moon.success, data.moon.se, {scale: 100, unit: '%'})} of the time, and needs ${percent(needed)}.`
    : `Shooting the moon does not pay: it succeeds ${estimate(data.moon.success, data.moon.se, {scale: 100, unit: '%'})} of the time, and would need ${percent(needed)}.`;
  return {needed, verdict};
}

function render(data, elapsed) {
  const words = advice(data);
  const bids = data.bids.filter((b) => b.bid !== 'moon');
  const moon = data.bids.find((b) => b.bid === 'moon');
  $('advice').textContent = words.headline;
  $('advice').dataset.call = words.call;
  $('advice-detail').textContent = words.detail + (data.misdeal_callable
    ? ' This hand holds only 3s to 9s: you may call a misdeal instead.' : '');

  const percentAxis = (v) => `${Math.round(100 * v)}%`;
  barChart($('chart-ev'), {
    label: 'Expected value of each bid', format: (v) => points(v), axisFormat: (v) => String(v),
    bars: bids.map((b) => ({label: `bid ${b.bid}`, value: b.ev, se: b.ev_se, cls: b.ev >= 0 ? 'good' : 'bad'})),
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
    const {needed, verdict} = moonVerdict(data);
    $('moon-verdict').textContent = verdict;
    $('moon-verdict').classList.toggle('pays', data.moon.pays);
    gauge($('chart-moon'), {
      label: 'Moon success rate against the rate it needs', value: data.moon.success, se: data.moon.se,
      good: data.moon.pays, mark: needed, valueLabel: `succeeds ${percent(data.moon.success)}`,
      markLabel: `pays above ${percent(needed)}`,
    });
  } else {
    $('moon-verdict').textContent = 'Moon bids are off under these rules.';
  }
  $('chart-moon').closest('figure').hidden = !moon;

  table($('bids-table'), ['Bid', 'P(make)', 'EV (points)'], data.bids.map((b) => ({
    cells: [String(b.bid), estimate(b.make, b.make_se, {scale: 100, unit: '%'}), estimate(b.ev, b.ev_se)],
  })));
  const awards = Object.entries(data.awards).map(([name, p]) =>
    `${name.replace('_', ' ')} ${estimate(p, data.awards_se[name], {scale: 100, unit: '%'})}`);
  const trumps = Object.entries(data.trump.chosen).filter(([, p]) => p > 0).sort((a, b) => b[1] - a[1])
    .map(([suit, p]) => `${suitSymbol(suit)} ${percent(p)}`);
  $('wins').textContent = `Your team wins: ${awards.join(', ')}. ` +
    (data.trump.fixed ? `Trump fixed: ${suitSymbol(data.trump.fixed)}.` : `Trump named after the kitty: ${trumps.join(', ')}.`) +
    ` Points won on average: ${estimate(data.points.mean, data.points.se)}.`;
  const changed = Object.entries(data.rules).filter(([name, value]) =>
    state.api.options.find((o) => o.name === name)?.default !== value).map(([n, v]) => `${n}=${v}`);
  $('meta').textContent = `${thousands(data.samples)} deals simulated${data.stopped_by === 'precision' ? ' (precision reached)' : ''}` +
    `${elapsed ? ` in ${seconds(elapsed)}` : ''}, seed ${data.seed}, ${data.policy} play, rules: ` +
    `${changed.length ? changed.join(', ') : 'the defaults'}. Each figure ± one standard error. ` +
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
  $('table-value').addEventListener('change', () => state.tables && renderTables(state.tables));
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
  document.body.dataset.ready = 'true';
}

start();
