// The page: pick a hand, your seat, the calls before yours and the score, ask the server (POST api/hand/stream),
// show the advice, its charts and the tables. Controls come from GET api/rules: the page shows an input only when
// the API takes it; the calls offered come from POST api/calls (only the legal ones).

import {thousands} from './format.js';
import {bringAnswerIntoView, render} from './answer.js';
import {$, getJson, messages, show, showError, state} from './dom.js';
import {buildOptions, givenScore, handRequest} from './options.js';
import {buildPicker, syncPicker} from './picker.js';
import {refreshCalls} from './seat.js';
import {buildTableControls, loadTables} from './tables.js';
import {buildPlay, resumeTable} from './play.js';
import {buildReview, loadGames} from './review.js';

// -- asking for advice ----------------------------------------------------------------------------------

function progress(done, total, stage = 'hand') {
  show('progress', true);
  const bar = $('progress-bar');
  if (done > 0 && total) bar.value = done / total;
  else bar.removeAttribute('value');  // indeterminate until the first slice, and while deals are sought
  let text = 'Waiting for the simulator…';
  if (stage === 'warming') {
    text = 'Warming up the simulator (once, after the server starts): your question follows in a moment…';
  } else if (stage === 'equity') {
    text = `Valuing the game at this score: ${thousands(done)} of ${thousands(total)} hands`;
  } else if (stage === 'auction') {
    text = `Playing every call on deals that fit the calls before you: ${thousands(done)} deals tried`;
  } else if (done > 0) {
    text = `Simulating your hand: ${thousands(done)} of ${thousands(total)} deals`;
  }
  $('progress-text').textContent = text;
}

// POST api/hand/stream; while the server warms up it answers 503 with Retry-After at once: say so, and ask again.
async function ask(body, signal) {
  for (;;) {
    const response = await fetch('api/hand/stream', {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body), signal,
    });
    const retry = Number(response.headers.get('Retry-After'));
    if (response.status !== 503 || !retry) return response;
    document.body.dataset.warming = 'true';
    progress(0, 1, 'warming');
    await new Promise((resolve) => setTimeout(resolve, 1000 * retry));
    signal.throwIfAborted();
  }
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
    for await (const message of messages(await ask(handRequest(), controller.signal))) {
      if (message.progress) progress(message.progress.done, message.progress.total, message.progress.stage);
      else if (message.result) {
        show('progress', false);
        render(message.result, message.seconds, givenScore() !== null);
        document.body.dataset.adviceMs = String(Math.round(performance.now() - clicked));
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


// -- views and start ------------------------------------------------------------------------------------

function showView(id) {
  for (const tab of document.querySelectorAll('.tab')) {
    const current = tab.dataset.view === id;
    if (current) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
    $(tab.dataset.view).hidden = !current;
  }
  if (id === 'tables-view' && !state.tablesBy) loadTables();
  if (id === 'review-view') loadGames();
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
  buildPlay(state.api);
  buildReview();
  if (await resumeTable()) showView('play-view');  // a table in the address or kept from before: back to it
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
