// Your seat and the calls before yours: only the legal calls, from POST api/calls.

import {$, getJson, make, showError, state} from './dom.js';
import {PLACE_NAMES, callLabel, callValue} from './calls.js';
import {changedRules, field, select} from './options.js';

// One select per call before yours (seat - 1 of them), each offering only the calls legal after the ones before
// it (POST api/calls, under the rules chosen); a call that is no longer legal becomes the first legal one.
export async function refreshCalls() {
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
