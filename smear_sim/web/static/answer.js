// The answer: the advice in words, then its charts and tables, from the JSON of POST api/hand.

import {suitSymbol} from './cards.js';
import {barChart, gauge} from './charts.js';
import {amount, estimate, percent, points, seconds, thousands} from './format.js';
import {$, make, show, state, table} from './dom.js';
import {PLACE_NAMES, callLabel} from './calls.js';

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

export function render(data, elapsed, atScore) {
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
  // With a seat, only the bids that are legal calls there (after a 2, no bid 2).
  const legal = data.calls ? new Set(data.calls.map((c) => String(c.call))) : null;
  barChart($('chart-make'), {
    label: 'Chance of making each bid', max: 1, format: percent, axisFormat: percentAxis,
    bars: [...bids, ...(moon ? [moon] : [])].filter((b) => !legal || legal.has(String(b.bid))).map((b) => ({
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

// On a phone the answer is below the cards: bring it up (once it is tall enough to scroll to).
export function bringAnswerIntoView() {
  const answer = $('result').closest('.panel');
  if (answer.getBoundingClientRect().top > window.innerHeight / 2) answer.scrollIntoView({block: 'start'});
}
