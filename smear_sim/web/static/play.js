// The Play view: a practice table against three bots (smear_sim/web/practice.py). The server deals, knows the rules
// and lists the legal actions: the page shows only those (the calls, the suits, the keeps, the cards) and sends the
// one clicked. The bots move one request at a time (POST api/table/ID/bot), with the delay the person sets, so their
// calls and cards appear in turn. Hint asks POST api/table/ID/hint; tutor mode asks it before sending an action and
// warns when the action is marked bad or worse. After each hand the review streams in (review.js). The table's id
// is kept in the address (?table=ID) and in localStorage, so a reload finds the table again.

import {pretty, suitSymbol} from './cards.js';
import {$, getJson, make} from './dom.js';
import {engineNote, fetchWhenReady, watchEngine} from './engine.js';
import {actionText, renderReview, showProgress, streamReview} from './review.js';

const STORE = 'smear-sim-table';
const TUTOR = 'smear-sim-tutor';  // the Tutor setting, kept across reloads
const play = {table: null, busy: false, hint: null, selected: new Set(), pending: null, review: null, reviewing: null,
  epoch: 0};

// A table opened (new, or found again on loading the page) starts an epoch. A request made for an earlier table that
// answers afterwards is dropped, and the bots' loop of an earlier table stops: otherwise it would put the old table
// back in view, and while it waited (the bots' delay, or a server slow to answer) the person's clicks on the new table
// would be ignored as busy.
function newEpoch() {
  play.epoch += 1;
  play.busy = false;
}

// A hand's review runs on the server's simulator: stop it when the person moves on (a new table, the next hand), so
// that it does not hold up their hints.
function stopReview() {
  play.reviewing?.abort();
  play.reviewing = null;
}

// 'Partner (seat 0)', its spaces unbreakable: on a phone a line breaks before or after a name, never inside it.
const NBSP = '\u00a0';

function seatName(seat) {
  const me = play.table?.seat ?? 0;
  return ['You', 'Left', 'Partner', 'Right'][(seat - me + 4) % 4] + `${NBSP}(seat${NBSP}${seat})`;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function call(path, body = {}) {
  return getJson(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
}

function setError(message) {
  $('play-error').textContent = message ?? '';
  $('play-error').hidden = !message;
}

function remember(id) {
  const url = new URL(window.location.href);
  if (id) {
    localStorage.setItem(STORE, id);
    url.searchParams.set('table', id);
  } else {
    localStorage.removeItem(STORE);
    url.searchParams.delete('table');
  }
  history.replaceState(null, '', url);
}

// -- drawing the table -------------------------------------------------------------------------------------

function render() {
  const t = play.table;
  $('play-table').hidden = !t;
  if (!t) return;
  const team = t.seat % 2;
  $('play-status').textContent = `Game seed ${t.seed}, hand ${t.hand_number} (deal seed ${t.deal_seed}); ` +
    `${seatName(t.dealer)} deals. Score: your team ${t.scores[team]}, theirs ${t.scores[1 - team]} ` +
    `(to ${t.target}). Bots: ${t.bots}.${t.rules.round_points ? ' Round points.' : ''}`;
  $('play-bot-cost').textContent = t.bot_ms === null ? t.bot_cost : `${t.bot_cost}; the last bot's turn took ` +
    `${t.bot_ms} ms on the server.`;
  // The trick in progress; once it is complete (and until the next card) the last trick stays on the felt, so
  // that its fourth card is seen.
  const last = t.tricks.length ? t.tricks[t.tricks.length - 1] : null;
  const trick = t.trick?.cards.length ? t.trick : last;
  for (let seat = 0; seat < 4; seat++) {
    const box = $(`play-seat-${(seat - t.seat + 4) % 4}`);
    const place = t.bids.length > (seat - t.dealer + 3) % 4 ? t.bids[(seat - t.dealer + 3) % 4] : null;
    const card = trick ? trick.cards[(seat - trick.leader + 4) % 4] : null;
    box.dataset.seat = String(seat);
    box.classList.toggle('turn', t.turn?.seat === seat);
    box.replaceChildren(
      make('span', {class: 'who'}, seatName(seat) + (t.bidder === seat ? ` ·${NBSP}bid${NBSP}${t.bid}` : '') +
        (t.dealer === seat ? ` ·${NBSP}dealer` : '')),
      make('span', {class: 'said'}, place === null ? '' : `called ${actionText(place)}`),
      make('span', {class: 'played', dataset: {card: card ?? ''}}, card ? pretty(card) : ''),
    );
  }
  // Trump in large type, and under it, while the last trick stays on the felt, who took it: the middle of the felt is
  // a third of a phone's width.
  $('play-trump').replaceChildren(...(t.trump ? [make('span', {class: 'trump'}, `Trump${NBSP}${suitSymbol(t.trump)}`)]
    : []), ...(t.trump && trick && trick === last ? [' ', make('span', {class: 'taken'},
    `trick ${t.tricks.length} to ${seatName(last.winner)}`)] : []));
  renderPrompt(t);
  renderHand(t);
  $('play-tricks').replaceChildren(...t.tricks.map((trick, i) => make('li', {},
    `${i + 1}: ${trick.cards.map((c, k) => `${pretty(c)}${(trick.leader + k) % 4 === t.seat ? '*' : ''}`).join(' ')}` +
    ` → ${seatName(trick.winner)}`)));
  $('play-over').hidden = !t.hand_over;
  if (t.hand_over) renderResult(t);
  $('play-hint').disabled = !t.turn?.yours || play.busy;
  document.body.dataset.play = t.hand_over ? 'over' : t.turn?.yours ? 'yours' : 'bots';
  document.body.dataset.tableStep = String(t.step);
}

function renderPrompt(t) {
  const actions = $('play-actions');
  actions.replaceChildren();
  if (t.hand_over) {
    $('play-prompt').textContent = '';
    return;
  }
  if (!t.turn.yours) {
    const word = {call: 'calling', trump: 'naming trump', keep: 'keeping', card: 'playing'}[t.turn.decision];
    $('play-prompt').textContent = `${seatName(t.turn.seat)} is ${word}…`;
    return;
  }
  const decision = t.turn.decision;
  $('play-prompt').textContent = {call: 'Your call:', trump: 'Name trump:', keep: 'Choose the six cards you keep, ' +
    'then keep them:', card: 'Your card: click one of the lit cards.'}[decision];
  if (decision === 'call' || decision === 'trump') {
    for (const action of t.legal) {
      const button = make('button', {type: 'button', class: 'action', dataset: {action: String(action)}},
        decision === 'trump' ? suitSymbol(action) : actionText(action));
      button.addEventListener('click', () => choose(action));
      actions.append(button);
    }
  } else if (decision === 'keep') {
    const button = make('button', {type: 'button', id: 'play-keep', class: 'action'}, 'Keep these six');
    button.addEventListener('click', () => choose(matchingKeep(t)));
    actions.append(button);
  }
}

// The legal keep the selected cards make, or null: the page only compares with the server's list.
function matchingKeep(t) {
  const chosen = [...play.selected].sort().join(' ');
  return t.legal.find((keep) => [...keep].sort().join(' ') === chosen) ?? null;
}

function renderHand(t) {
  const hand = $('play-hand');
  const cards = t.held ?? t.hand;
  const decision = t.turn?.yours ? t.turn.decision : null;
  if (decision === 'keep' && play.selected.size === 0) {
    // The cards every legal keep holds are kept whatever the choice: start from them.
    for (const card of t.legal[0]) if (t.legal.every((keep) => keep.includes(card))) play.selected.add(card);
  }
  hand.replaceChildren(...cards.map((card) => {
    const red = /[HD]$/.test(card);
    const button = make('button', {type: 'button', class: `card${red ? ' red' : ''}`, dataset: {card},
      'aria-pressed': String(decision === 'keep' && play.selected.has(card))}, pretty(card));
    if (decision === 'card') {
      button.disabled = !t.legal.includes(card);
      button.addEventListener('click', () => choose(card));
    } else if (decision === 'keep') {
      button.addEventListener('click', () => {
        if (play.selected.has(card)) play.selected.delete(card);
        else play.selected.add(card);
        render();
      });
    } else {
      button.disabled = true;
    }
    return button;
  }));
  if (decision === 'keep') $('play-keep').disabled = matchingKeep(t) === null;
}

function renderResult(t) {
  const r = t.result;
  const team = t.seat % 2;
  let text;
  if (r.bidder === null) text = 'All four passed: the hand is thrown in.';
  else {
    text = `${seatName(r.bidder)} bid ${r.bid} in ${suitSymbol(r.trump)} and ${r.made ? 'made it' : 'was set'}` +
      `${r.moon ? ' (moon)' : ''}. Points: your team ${r.points[team]}, theirs ${r.points[1 - team]}. `;
  }
  text += ` Score: your team ${r.scores_after[team]}, theirs ${r.scores_after[1 - team]}.`;
  if (t.game_over) text += t.winner === team ? ' Your team wins the game!' : ' Their team wins the game.';
  $('play-result').textContent = text;
  $('play-saved').textContent = t.save_error ?? (t.saved ? `Saved as ${t.saved}.` : '');
  $('play-next').hidden = t.game_over;
}

// -- the person's actions, the bots' moves -----------------------------------------------------------------

async function choose(action) {
  if (play.busy || action === null) return;
  const t = play.table;
  const epoch = play.epoch;
  if ($('play-tutor').checked) {
    play.busy = true;
    render();
    try {
      const hint = await askHint(action);
      if (play.epoch !== epoch) return;
      const mark = hint.taken?.mark;
      if (mark === 'bad' || mark === 'very bad') {
        play.pending = action;
        $('play-tutor-text').textContent = `Tutor: ${actionText(action)} is ${mark} here: it costs ` +
          `${(100 * hint.taken.win).toFixed(1)}% of the game (${hint.taken.points.toFixed(2)} points) against ` +
          `${actionText(hint.best)}.`;
        $('play-tutor-box').hidden = false;
        document.body.dataset.tutor = 'warned';
        return;
      }
    } catch (error) {
      if (play.epoch === epoch) setError(error.message);
    } finally {
      if (play.epoch === epoch) {
        play.busy = false;
        render();
      }
    }
    if (play.epoch !== epoch || play.pending !== null) return;
  }
  await send(t, action);
}

async function send(t, action) {
  play.busy = true;
  const epoch = play.epoch;
  try {
    const table = await call(`api/table/${t.id}/act`, {action, step: t.step});
    if (play.epoch !== epoch) return;
    play.table = table;
    play.selected.clear();
    clearHint();
    setError(null);
  } catch (error) {
    if (play.epoch === epoch) setError(error.message);
  } finally {
    if (play.epoch === epoch) play.busy = false;
  }
  if (play.epoch !== epoch) return;
  render();
  runBots();
}

async function runBots() {
  if (play.busy) return;
  play.busy = true;
  const epoch = play.epoch;
  try {
    while (play.table && !play.table.hand_over && !play.table.turn.yours) {
      const t = play.table;
      await sleep(Number($('play-delay').value));
      if (play.epoch !== epoch || play.table !== t) return;
      const sent = performance.now();
      const table = await call(`api/table/${t.id}/bot`, {step: t.step});
      if (play.epoch !== epoch) return;
      play.table = table;
      render();
      (window.botTimes ??= []).push(performance.now() - sent);  // a bot's turn on screen, for benchmarks/web.py
    }
  } catch (error) {
    if (play.epoch === epoch) setError(error.message);
  } finally {
    if (play.epoch === epoch) {
      play.busy = false;
      render();
    }
  }
  if (play.epoch === epoch && play.table?.hand_over) reviewHand(play.table);
}

function clearHint() {
  play.hint = null;
  $('play-hint-box').replaceChildren();
}

// The table's hint (for `action`: its cost too, as the tutor asks; `into`: the element that says the engine prepares,
// the hint box by default). While the hint engine prepares (its first use
// after the server starts) the hint box says so; what it showed before comes back once the engine is ready.
async function askHint(action = null, into = null) {
  const t = play.table;
  const body = {samples: Number($('play-hint-samples').value), step: t.step};
  if (action !== null) body.action = action;
  const box = into ?? $('play-hint-box');  // `into`: where the note goes, leaving the net's table in view
  const before = [...box.childNodes];
  let noted = false;
  const stop = watchEngine((status) => {
    if (!status.ready) box.replaceChildren(engineNote(status));
    else if (noted) box.replaceChildren(...before);
    noted = !status.ready;
  });
  try {
    const response = await fetchWhenReady(`api/table/${t.id}/hint`,
      {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const answer = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
    if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
    return answer;
  } finally {
    stop();
    if (noted) box.replaceChildren(...before);
  }
}

// The net's values of the person's decision (POST api/table/ID/hint with evaluator "net"): milliseconds on the
// server, outside the simulator's turns, so they show at once, even while a review runs. Null with the reason when
// the net has no value here (a call the equity tables settled nothing for, or no net on the server).
async function askNetHint(t) {
  try {
    const response = await fetch(`api/table/${t.id}/hint`, {method: 'POST',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify({evaluator: 'net', step: t.step})});
    const answer = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
    return response.ok ? {hint: answer} : {error: answer.error ?? `the server answered ${response.status}`};
  } catch (error) {
    return {error: error.message};
  }
}

// An action as a key that matches the same action in the net's answer and the search's (a keep in any order).
function actionKey(action) {
  return Array.isArray(action) ? [...action].sort().join(' ') : String(action);
}

function keepText(a, t) {
  return a.keep && t.turn.decision === 'trump' ? ` (keep ${actionText(a.keep)})` : '';
}

function percentOrDash(x) {
  return x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`;
}

// The net's table: each action's P(win) by the net and its cost against the net's best.
function netTable(t, net) {
  const rows = net.actions.map((a, i) => make('tr', {dataset: {action: JSON.stringify(a.action)}},
    make('td', {}, actionText(a.action) + keepText(a, t)),
    make('td', {}, percentOrDash(a.win)),
    make('td', {}, i === 0 ? 'best' : percentOrDash(net.costs[i].win)),
    make('td', {}, net.costs[i].mark ?? '')));
  return make('table', {id: 'play-hint-net'},
    make('thead', {}, make('tr', {}, ...['Action', 'Net P(win)', 'Cost', 'Mark'].map((h) => make('th', {}, h)))),
    make('tbody', {}, ...rows));
}

// The search's table, with the net's P(win) of each action beside it when the net gave one.
function searchTable(t, hint, net) {
  const byNet = new Map((net?.actions ?? []).map((a) => [actionKey(a.action), a.win]));
  const rows = hint.actions.map((a, i) => make('tr', {dataset: {action: JSON.stringify(a.action)}},
    make('td', {}, actionText(a.action) + keepText(a, t)),
    make('td', {}, `${(100 * a.win).toFixed(1)}%`),
    make('td', {}, a.points.toFixed(2)),
    make('td', {}, i === 0 ? 'best' : `${(100 * hint.costs[i].win).toFixed(1)}%, ${hint.costs[i].points.toFixed(2)} pts`),
    make('td', {}, hint.costs[i].mark ?? ''),
    ...(net ? [make('td', {class: 'net'}, percentOrDash(byNet.get(actionKey(a.action))))] : [])));
  const heads = ['Action', 'P(win)', 'Points', 'Cost', 'Mark', ...(net ? ['Net P(win)'] : [])];
  return make('table', {id: 'play-hint-table'},
    make('thead', {}, make('tr', {}, ...heads.map((h) => make('th', {}, h)))), make('tbody', {}, ...rows));
}

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

// A hint: the net's values first, drawn as soon as they come (milliseconds), then the search's, played out over
// worlds (about a second), with the net's beside them. body[data-net-hint-ms] is the click to the net's table on
// screen, body[data-hint-ms] the click to the search's (benchmarks/web.py --hint reads both).
async function showHint() {
  const t = play.table;
  const box = $('play-hint-box');
  const started = performance.now();
  delete document.body.dataset.netHintMs;
  delete document.body.dataset.hintMs;
  box.replaceChildren(make('p', {class: 'hint'}, 'Valuing every legal action…'));
  $('play-hint').disabled = true;
  try {
    const {hint: net, error: netError} = await askNetHint(t);
    if (play.table !== t) return;
    const coming = make('p', {class: 'hint', id: 'play-hint-coming'}, 'The search’s values are coming…');
    if (net) {
      box.replaceChildren(make('div', {class: 'scroll'}, netTable(t, net)),
        make('p', {class: 'hint'}, `The net’s values, ${Math.round(performance.now() - started)} ms.`), coming);
      await nextFrame();
      document.body.dataset.netHintMs = String(Math.round(performance.now() - started));
    } else {
      box.replaceChildren(make('p', {class: 'hint'}, `No net values: ${netError}`), coming);
      document.body.dataset.netHintMs = 'none';
    }
    const hint = await askHint(null, coming);
    if (play.table !== t) return;
    box.replaceChildren(make('div', {class: 'scroll'}, searchTable(t, hint, net)),
      make('p', {class: 'hint'}, `${hint.samples} worlds, ${Math.round(performance.now() - started)} ms` +
        (net ? `; the net’s values first, in ${document.body.dataset.netHintMs} ms.` : '.')));
    document.body.dataset.hintMs = String(Math.round(performance.now() - started));
  } catch (error) {
    box.replaceChildren(make('p', {class: 'bad'}, error.message));
  } finally {
    render();
  }
}

async function reviewHand(t) {
  if (play.review === t.step) return;
  play.review = t.step;
  stopReview();
  const controller = new AbortController();
  play.reviewing = controller;
  const out = $('play-review');
  out.replaceChildren();
  document.body.dataset.handReview = 'running';
  try {
    const {head, review} = await streamReview(t.record, Number($('play-review-samples').value),
      (done, total, engine) => showProgress($('play-review-progress'), $('play-review-text'), done, total, engine),
      controller.signal);
    renderReview(out, head, review, seatName);
    document.body.dataset.handReview = 'done';
  } catch (error) {
    if (error.name === 'AbortError') return;
    out.replaceChildren(make('p', {class: 'bad'}, `The review failed: ${error.message}`));
    document.body.dataset.handReview = 'error';
  } finally {
    if (play.reviewing === controller) {
      play.reviewing = null;
      $('play-review-progress').hidden = true;
      $('play-review-text').textContent = '';
    }
  }
}

// The rules the Play view's select offers: the presets (GET api/rules `presets`), each as the options it sets.
const RULES = {};

function offerPresets(presets = []) {
  const menu = $('play-rules');
  menu.replaceChildren(...presets.map((p, i) => make('option', {value: p.name, selected: i === 0, title: p.about},
    i === 0 ? `${p.name} (the default rules)` : p.name)));
  for (const p of presets) RULES[p.name] = p.rules;
}

// A new table. Without `same`, from the options; with it (a table), the same bots and rules as that table's, so
// that "play this deal again" and "same deal, seat" replay the deal as it was dealt.
async function newTable(seed, seat, same = null) {
  setError(null);
  stopReview();
  const body = same ? {seat, bots: same.bots, rules: same.rules}
    : {seat, bots: $('play-bots').value, rules: RULES[$('play-rules').value]};
  if (seed !== null) body.seed = seed;
  try {
    play.table = await call('api/table', body);
  } catch (error) {
    setError(error.message);
    return;
  }
  newEpoch();
  clearHint();
  play.selected.clear();
  play.review = null;
  $('play-review').replaceChildren();
  remember(play.table.id);
  $('play-setup-details').open = false;  // the table in view, the options one click away
  render();
  runBots();
}

export async function resumeTable() {
  const id = new URL(window.location.href).searchParams.get('table') ?? localStorage.getItem(STORE);
  if (!id) return false;
  try {
    play.table = await getJson(`api/table/${encodeURIComponent(id)}`);
  } catch (error) {
    remember(null);
    setError(`${error.message}`);
    return true;
  }
  newEpoch();
  remember(play.table.id);
  $('play-setup-details').open = false;
  render();
  if (play.table.hand_over) reviewHand(play.table);
  else runBots();
  return true;
}

// The bots menu: the players the registry offers as bots (GET api/rules `bots`) that the menu does not list yet
// go in before the search players, each by its name, with what it is as the option's title.
function offerBots(bots) {
  const menu = $('play-bots');
  const listed = new Set([...menu.options].map((o) => o.value.split(':')[0]));
  const searchers = [...menu.options].find((o) => o.value.includes(':')) ?? null;
  for (const bot of bots ?? []) {
    if (listed.has(bot.name)) continue;
    menu.insertBefore(make('option', {value: bot.name, title: bot.summary}, bot.name), searchers);
  }
}

export function buildPlay(api = {}) {
  offerBots(api.bots);
  offerPresets(api.presets);
  $('play-new').addEventListener('click', async () => {
    const seed = $('play-seed').value.trim();
    const left = play.table;
    await newTable(seed === '' ? null : Number(seed), Number($('play-seat').value));
    // A new game leaves the table before it: close it, so that it frees its slot on the server (its finished
    // hands stay saved). The deal's replays keep theirs, as the person may go back to it.
    if (left && play.table && play.table.id !== left.id) {
      fetch(`api/table/${encodeURIComponent(left.id)}`, {method: 'DELETE'}).catch(() => {});
    }
  });
  $('play-hint').addEventListener('click', showHint);
  $('play-tutor').checked = localStorage.getItem(TUTOR) === 'on';
  $('play-tutor').addEventListener('change', () => localStorage.setItem(TUTOR, $('play-tutor').checked ? 'on' : 'off'));
  $('play-next').addEventListener('click', async () => {
    const t = play.table;
    stopReview();
    try {
      play.table = await call(`api/table/${t.id}/next`, {step: t.step});
      clearHint();
      play.selected.clear();
      $('play-review').replaceChildren();
      render();
      runBots();
    } catch (error) {
      setError(error.message);
    }
  });
  $('play-again').addEventListener('click', () => newTable(play.table.deal_seed, play.table.seat, play.table));
  $('play-other-seat').addEventListener('click',
    () => newTable(play.table.deal_seed, Number($('play-switch').value), play.table));
  $('play-take-back').addEventListener('click', () => {
    play.pending = null;
    $('play-tutor-box').hidden = true;
    document.body.dataset.tutor = 'taken back';
  });
  $('play-anyway').addEventListener('click', () => {
    const action = play.pending;
    play.pending = null;
    $('play-tutor-box').hidden = true;
    if (action !== null) send(play.table, action);
  });
  $('play-bots').addEventListener('change', () => {
    const name = $('play-bots').value;
    $('play-bots-cost').textContent = /^(pimc|expert)/.test(name)
      ? 'A search player: each of its cards plays out sampled deals double dummy (up to a second or more a card).'
      : name === 'net' ? 'The learned player: each decision reads the net, in milliseconds.'
        : 'A fast player: its turns take milliseconds.';
  });
}
