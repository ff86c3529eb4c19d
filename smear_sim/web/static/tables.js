// The tables view: what to call by seat, the match-equity heatmap and the bid tables, from GET api/tables, for the
// rule set chosen (the results folder, or a report under other rules in one of its subfolders).

import {heatmap} from './charts.js';
import {amount, estimate, percent, points, thousands} from './format.js';
import {$, getJson, make, show, state, table} from './dom.js';
import {select} from './options.js';

const TABLE_VALUES = {
  bid_up_to: 'bid up to',
  points: 'points won',
  moon: 'moon success',
};

function tableValueOptions(bids) {
  return [['bid_up_to', TABLE_VALUES.bid_up_to], ...bids.map((b) => [`make${b}`, `P(make ${b})`]),
    ['points', TABLE_VALUES.points], ['moon', TABLE_VALUES.moon]];
}

export async function loadTables() {
  const by = [...$('table-by').querySelectorAll('input:checked')].map((i) => i.value);
  if (!by.length) return;
  const variant = $('table-variant').value;
  const key = `${by.join(',')}|${variant}`;
  // the same rule set without a bid table: nothing to regroup
  if (state.tables && !state.tables.bid_table && state.tablesBy && state.tables.variant === variant) return;
  show('tables-error', false);
  try {
    if (state.tablesBy !== key) {
      const query = `by=${encodeURIComponent(by.join(','))}${variant ? `&variant=${encodeURIComponent(variant)}` : ''}`;
      state.tables = await getJson(`api/tables?${query}`);
      state.tablesBy = key;
    }
    renderTables(state.tables);
  } catch (error) {
    $('tables-error').textContent = error.message;
    show('tables-error', true);
  }
}

// The rule sets the results folder holds: the folder itself and the reports in its subfolders (round points...).
function renderVariants(variants = []) {
  const choice = $('table-variant');
  const names = variants.map((v) => v.name);
  if ([...choice.options].map((o) => o.value).join('|') !== names.join('|')) {
    const chosen = choice.value;
    choice.replaceChildren(...variants.map((v) => make('option', {value: v.name}, v.label)));
    choice.value = names.includes(chosen) ? chosen : (names[0] ?? '');
  }
  $('variant-choice').hidden = variants.length < 2;
}

function renderTables(data) {
  renderVariants(data.variants);
  renderPositions(data.by_position);
  renderCount(data.count);
  renderEquity(data.equity);
  for (const part of [$('bid-panel'), ...document.querySelectorAll('[data-part="bid"]')]) part.hidden = !data.bid_table;
  if (data.bid_table) renderBidTables(data);
}

// What to call by seat: one grid per place (rows: hand strength, columns: the standing call), as by_position.md.
function renderPositions(positions) {
  $('positions-panel').hidden = !positions;
  if (!positions) return;
  const place = $('position-place');
  if (!place.dataset.ready) {
    place.dataset.ready = 'true';
    place.addEventListener('change', () => renderPositions(state.tables?.by_position));
  }
  const places = positions.charts.map((c) => c.place);
  if ([...place.options].map((o) => o.textContent).join('|') !== places.join('|')) {
    const chosen = Number(place.value || 0);
    place.replaceChildren(...places.map((p, i) => make('option', {value: String(i)}, p)));
    place.value = String(chosen < places.length ? chosen : 0);
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

// The count for the rules chosen: its weights, what each call needs with your score in the first band (as at 0–0)
// and how often its call is the equity bidder's, as the report's section shows them.
function renderCount(count) {
  $('count-panel').hidden = !count;
  if (!count) return;
  table($('count-weights'), ['card', 'points'], count.weights.map((w) => ({cells: [w.label, String(w.points)]})));
  const band = count.bands[0];
  $('count-band').textContent = `What each call needs with your score ${band.us}, as at 0–0 (a cell lists each call ` +
    'and the count it needs); count.md in the results folder has every score.';
  table($('count-needs'), ['place', 'standing', ...band.columns.map((c) => `theirs ${c}`)],
    band.rows.map((r) => ({cells: [r.place, r.standing, ...r.cells]})));
  const all = count.accuracy?.all;
  const start = count.accuracy?.['0-0'];
  $('count-source').hidden = !all || !start;
  $('count-accuracy').hidden = !all || !start;
  if (!all || !start) return;
  const pp = (cost) => `${(100 * cost).toFixed(2).replace('-', '−')} pp`;
  $('count-source').textContent = 'How often the count\'s call is the equity bidder\'s, over the scores of whole ' +
    'games and at 0–0, and the P(win the game) it costs per turn against the best call of the bidder\'s tables ' +
    `(the ${count.variant} count).`;
  const row = (label, parts) => ({cells: [label, ...parts.map((p) => `${(100 * p.agree).toFixed(1)}%`),
    ...parts.map((p) => pp(p.cost))]});
  table($('count-accuracy'), ['place', 'same call, all scores', 'same call, 0–0', 'P(win) cost per turn, all scores',
    'P(win) cost per turn, 0–0'], [row('every place', [all, start]),
    ...Object.keys(all.by_place).map((place) => row(place, [all.by_place[place], start.by_place[place]]))]);
}

// The match-equity table: P(win the game) by both scores, for the team dealing next chosen.
function renderEquity(equity) {
  $('equity-panel').hidden = !equity;
  if (!equity) return;
  const select = $('equity-dealer');
  if (!select.dataset.ready) {
    select.dataset.ready = 'true';
    select.addEventListener('change', () => renderEquity(state.tables?.equity));
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
  const values = tableValueOptions(bids);
  if ([...valueSelect.options].map((o) => o.value).join('|') !== values.map(([v]) => v).join('|')) {
    const chosen = valueSelect.value;  // the bids differ from one rule set to another (up to 4, or 7)
    valueSelect.replaceChildren(...values.map(([v, t]) => make('option', {value: v}, t)));
    if (values.some(([v]) => v === chosen)) valueSelect.value = chosen;
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

export function buildTableControls(choices) {
  const box = $('table-by');
  for (const [name, help] of Object.entries(choices)) {
    const input = make('input', {type: 'checkbox', value: name, checked: name === 'trumps' || name === 'top'});
    input.addEventListener('change', loadTables);
    box.append(make('label', {title: help}, input, name));
  }
  $('table-value').addEventListener('change', () => state.tables && renderBidTables(state.tables));
  $('table-variant').addEventListener('change', loadTables);
}
