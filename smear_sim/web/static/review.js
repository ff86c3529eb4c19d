// The review view: a hand record, a game record or a trace (pasted, uploaded, or a game saved by the practice
// table), graded by the server (POST api/review/stream: its progress, then `smear-sim review --json`'s object and
// each hand's tricks as `smear-sim score` gives them). Shown trick by trick with the marks, the better action at
// each marked decision, the totals per seat and team and the luck. The rules stay on the server: the tricks, their
// leaders and winners come from it.

import {pretty, suitSymbol} from './cards.js';
import {$, getJson, make, messages, table} from './dom.js';
import {engineWords, fetchWhenReady, watchEngine} from './engine.js';

const MARK_SIGNS = {doubtful: '?!', bad: '?', 'very bad': '??'};

export function actionText(action) {
  if (Array.isArray(action)) return action.map(pretty).join(' ');
  if (typeof action === 'string' && action.length === 1) return suitSymbol(action);
  if (typeof action === 'string' && /^[0-9JQKA]+[SHDC]$|^[HL]J$/.test(action)) return pretty(action);
  return String(action);
}

function percent(x) {
  return `${(100 * x).toFixed(1)}%`;
}

// '-1.20 ± 0.35'; with a standard error of 0 the value alone, as the command line shows it ('± 0.0%' would claim a
// precision measured, where none was).
function withError(value, se, format) {
  return se > 0 ? `${format(value)} ± ${format(se)}` : format(value);
}

function markBadge(decision) {
  if (!decision?.mark) return null;
  return make('span', {class: `mark mark-${decision.mark.replace(' ', '-')}`, title: decision.mark},
    MARK_SIGNS[decision.mark] ?? '?');
}

function better(decision) {
  if (!decision?.mark) return null;
  return make('span', {class: 'better'},
    ` better: ${actionText(decision.best)} (costs ${percent(decision.cost.win)} of the game, ` +
    `${decision.cost.points.toFixed(2)} points)`);
}

// One hand of the review: the calls, trump and keeps, then each trick, each decision with its mark.
function renderHand(hand, decisions, seatName) {
  const key = (d) => `${d.decision}/${d.decision === 'card' ? d.taken : d.seat}`;
  const graded = new Map(decisions.map((d) => [key(d), d]));
  const {hand: record, result} = hand;
  const box = make('section', {class: 'review-hand', dataset: {record: String(hand.record), deal: String(hand.deal)}});
  box.append(make('h3', {}, `Hand ${hand.deal + 1}${hand.record ? ` of record ${hand.record + 1}` : ''}: ` +
    `${seatName(record.dealer)} deals at ${record.scores_before.join('–')}`));
  const calls = make('ol', {class: 'review-calls'});
  record.bids.forEach((call, i) => {
    const seat = (record.dealer + 1 + i) % 4;
    const d = graded.get(`call/${seat}`);
    calls.append(make('li', {}, `${seatName(seat)}: ${actionText(call)} `, markBadge(d), better(d)));
  });
  box.append(make('p', {class: 'hint'}, 'The calls'), calls);
  if (result.bidder === null) {
    box.append(make('p', {}, 'All four passed: the hand was thrown in.'));
    return box;
  }
  const trump = graded.get(`trump/${result.bidder}`);
  box.append(make('p', {}, `${seatName(result.bidder)} bid ${actionText(result.bid)} and named trump ` +
    `${suitSymbol(result.trump)} `, markBadge(trump), better(trump)));
  const keeps = make('ul', {class: 'review-keeps'});
  for (let seat = 0; seat < 4; seat++) {
    const d = graded.get(`keep/${seat}`);
    if (d) keeps.append(make('li', {}, `${seatName(seat)} kept ${actionText(d.taken)} `, markBadge(d), better(d)));
  }
  if (keeps.children.length) box.append(keeps);
  const rows = result.tricks.map((trick, t) => ({
    attrs: {dataset: {trick: String(t + 1)}},
    cells: [String(t + 1), ...trick.cards.map((card, i) => {
      const d = graded.get(`card/${card}`);
      return make('span', {}, `${seatName((trick.leader + i) % 4)} ${pretty(card)}`, markBadge(d), better(d));
    }), seatName(trick.winner)],
  }));
  const tricks = make('table', {class: 'review-tricks'});
  table(tricks, ['Trick', 'Lead', '2nd', '3rd', '4th', 'Won by'], rows);
  box.append(make('div', {class: 'scroll'}, tricks));
  const made = result.made === null ? '' : result.made ? ', made' : ', set';
  box.append(make('p', {}, `Points ${result.points.join('–')}${made}${result.moon ? ' (moon)' : ''}; ` +
    `the score ${result.scores_after.join('–')}${result.winner !== null ? `: team ${result.winner} wins the game` : ''}.`));
  return box;
}

// The whole review: each hand, then the totals per seat and team, then the luck.
export function renderReview(target, head, review, seatName = (s) => `Seat ${s}`) {
  target.replaceChildren();
  for (const hand of head.hands) {
    const mine = review.decisions.filter((d) => d.record === hand.record && d.deal === hand.deal);
    target.append(renderHand(hand, mine, seatName));
  }
  const totals = make('table', {id: 'review-totals'});
  const row = (name, t) => ({cells: [name, String(t.decisions), t.cost.points.toFixed(2), percent(t.cost.win),
    String(t.errors.doubtful), String(t.errors.bad), String(t.errors['very bad'])]});
  table(totals, ['Who', 'Decisions', 'Cost (points)', 'Cost (P(win))', '?!', '?', '??'],
    [...review.seats.map((t) => row(seatName(t.seat), t)), ...review.teams.map((t) => row(`Team ${t.team}`, t))]);
  target.append(make('h3', {}, 'Totals'), make('div', {class: 'scroll'}, totals));
  if (review.luck) {
    const luck = make('table', {id: 'review-luck'});
    table(luck, ['Team', 'Luck (points)', 'Luck (P(win))'],
      review.luck.teams.map((t) => ({cells: [`Team ${t.team}`, withError(t.points, t.points_se, (x) => x.toFixed(2)),
        withError(t.win, t.win_se, percent)]})));
    target.append(make('h3', {}, 'Luck: what the cards dealt were worth against an average deal'),
      make('div', {class: 'scroll'}, luck));
  }
  const marked = review.decisions.filter((d) => d.mark).length;
  target.append(make('p', {class: 'hint'}, `${review.decisions.length} decisions graded, ${marked} marked, ` +
    `${review.samples ?? 'precise'} worlds a decision (seed ${review.seed}).`));
}

// Ask for the review of `record` (an object or a list), showing the progress in `progress`; resolves to
// {head, review} or throws with the server's one-line message.
export async function streamReview(record, samples, progress, signal, kinds = '') {
  const body = {record, samples};
  if (kinds) body.kinds = kinds;  // the kinds of decision graded; all of them unless said
  // While the hint engine prepares (its first use after the server starts), the progress says so.
  let graded = [0, null];
  let engine = null;
  const stop = watchEngine((status) => {
    engine = status.ready ? null : status;
    progress(...graded, engine);
  });
  try {
    const response = await fetchWhenReady('api/review/stream', {
      method: 'POST', headers: {'Content-Type': 'application/json'}, signal, body: JSON.stringify(body),
    });
    let head = null;
    for await (const message of messages(response)) {
      if (message.hands) head = message;
      else if (message.progress) {
        graded = [message.progress.done, message.progress.total];
        progress(...graded, engine);
      } else if (message.result) return {head, review: message.result};
    }
  } finally {
    stop();
  }
  throw new Error('the review stopped before its answer came');
}

// The review's progress in `bar` and `text`: the decisions graded, or while the hint engine prepares (`engine`, its
// status), that.
export function showProgress(bar, text, done, total, engine = null) {
  bar.hidden = false;
  if (engine) {
    bar.value = engine.done / engine.total;
    text.textContent = engineWords(engine);
    return;
  }
  if (total) bar.value = done / total;
  text.textContent = total ? `Grading decision ${Math.min(done + 1, total)} of ${total}…` : 'Reviewing…';
}

// A pasted or uploaded text: one JSON object (a hand or game record) or JSONL lines of them.
function readRecords(text) {
  const trimmed = text.trim();
  if (!trimmed) throw new Error('Paste a hand record, a game record or a trace, or pick a saved game.');
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed.split('\n').filter((line) => line.trim()).map((line, i) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`line ${i + 1} is not JSON: a trace holds one record a line`);
      }
    });
  }
}

let running = null;

async function review(record) {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const out = $('review-out');
  $('review-error').hidden = true;
  document.body.dataset.review = 'running';
  out.replaceChildren();
  try {
    const {head, review: result} = await streamReview(record, Number($('review-samples').value),
      (done, total, engine) => showProgress($('review-progress'), $('review-progress-text'), done, total, engine), controller.signal,
      $('review-kinds').value);
    renderReview(out, head, result);
    document.body.dataset.review = 'done';
  } catch (error) {
    if (error.name === 'AbortError') return;
    $('review-error').textContent = error.message;
    $('review-error').hidden = false;
    document.body.dataset.review = 'error';
  } finally {
    if (running === controller) {
      running = null;
      $('review-progress').hidden = true;
      $('review-progress-text').textContent = '';
    }
  }
}

export async function loadGames() {
  const select = $('review-games');
  try {
    const {games} = await getJson('api/games');
    select.replaceChildren(make('option', {value: ''}, games.length ? 'Pick a saved game' : 'No saved games yet'),
      ...games.map((g) => make('option', {value: g.name},
        `${new Date(1000 * g.modified).toLocaleString()}: ${g.hands ?? '?'} hands` +
        `${g.scores ? `, ${g.scores.join('–')}` : ''}${g.bots ? ` vs ${g.bots}` : ''}`)));
  } catch (error) {
    select.replaceChildren(make('option', {value: ''}, `Cannot list the saved games: ${error.message}`));
  }
}

export function buildReview() {
  $('review-go').addEventListener('click', () => {
    try {
      review(readRecords($('review-text').value));
    } catch (error) {
      $('review-error').textContent = error.message;
      $('review-error').hidden = false;
    }
  });
  $('review-open').addEventListener('click', async () => {
    const name = $('review-games').value;
    if (!name) return;
    try {
      const record = await getJson(`api/games/${encodeURIComponent(name)}`);
      delete record.practice;  // the table's own notes: not part of the game record
      $('review-text').value = JSON.stringify(record);
      review(record);
    } catch (error) {
      $('review-error').textContent = error.message;
      $('review-error').hidden = false;
    }
  });
  $('review-file').addEventListener('change', async () => {
    const file = $('review-file').files[0];
    if (file) $('review-text').value = await file.text();
  });
}
