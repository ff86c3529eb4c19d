// The options panel, built from GET api/rules (only the inputs the API takes), and the request it makes.

import {suitSymbol} from './cards.js';
import {thousands} from './format.js';
import {$, make, state} from './dom.js';
import {callValue} from './calls.js';

export function field(labelText, input, help = null) {
  const check = input.type === 'checkbox';
  const label = make('label', {class: check ? 'check' : '', title: help ?? ''});
  if (check) label.append(input, labelText);
  else label.append(labelText, input);
  return label;
}

export function select(name, choices, value) {
  return make('select', {name}, ...choices.map(([v, text]) => make('option', {value: String(v), selected: String(v) === String(value)}, text)));
}

export function buildOptions(api) {
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
    if (api.presets?.length) {
      const preset = select('preset', api.presets.map((p) => [p.name, p.name]), api.presets[0].name);
      preset.addEventListener('change', () => applyPreset(api, preset.value));
      body.append(field('preset', preset, 'A rule set by name: sets the options below'));
    }
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

// Set every rule input to the preset's value, or the option's default where the preset leaves it.
function applyPreset(api, name) {
  const rules = api.presets.find((p) => p.name === name)?.rules ?? {};
  for (const input of $('options-body').querySelectorAll('[data-rule]')) {
    const option = api.options.find((o) => o.name === input.dataset.rule);
    const value = rules[option.name] ?? option.default;
    if (input.type === 'checkbox') input.checked = value;
    else input.value = String(value);
  }
  $('options-body').querySelector('[data-rule]')?.dispatchEvent(new Event('change', {bubbles: true}));  // the calls follow
}

function ruleValue(input) {
  if (input.type === 'checkbox') return input.checked;
  if (input.type === 'number') return input.value === '' ? null : Number(input.value);
  return input.value;
}

// The rule options that differ from the defaults.
export function changedRules() {
  const rules = {};
  for (const input of $('options-body').querySelectorAll('[data-rule]')) {
    const option = state.api.options.find((o) => o.name === input.dataset.rule);
    const value = ruleValue(input);
    if (value !== option.default) rules[option.name] = value;
  }
  return rules;
}

// The score as given, or null when both boxes are empty (the command line's default, 0-0, then applies).
export function givenScore() {
  const us = $('score-us').value.trim();
  const them = $('score-them').value.trim();
  if (us === '' && them === '') return null;
  return [us === '' ? 0 : Number(us), them === '' ? 0 : Number(them)];
}

// The request for api/hand: only the fields the API takes, rules only where they differ from the defaults.
export function handRequest() {
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
