// The hint engine's first-use warm-up (GET api/warmup; smear_sim/web/warmup.py): after the server starts it compiles
// the kernels of the hints and the reviews. A hint or a review asked meanwhile waits for it: say so, with its stages.

import {getJson, make} from './dom.js';

const POLL_MS = 1000;

// 'Preparing the hint engine (first use): the card hints, 2 of 3…'
export function engineWords(status) {
  const words = status.words.charAt(0).toUpperCase() + status.words.slice(1);
  return status.stage ? `${words}: ${status.stage}, ${status.done + 1} of ${status.total}…` : `${words}…`;
}

// The words with a bar of the stages done, as a paragraph.
export function engineNote(status) {
  return make('p', {class: 'hint engine'}, make('progress', {max: status.total, value: status.done}), ' ',
    engineWords(status));
}

// Ask api/warmup now and every second until the engine is ready or the returned stop() is called; `shown(status)`
// hears each answer, the last one ready. body[data-hint-engine] says 'preparing' or 'ready' (for the tests).
export function watchEngine(shown) {
  let stopped = false;
  (async () => {
    while (!stopped) {
      let status;
      try {
        status = await getJson('api/warmup');
      } catch {
        return;  // an older server, or none: the answer itself will say what went wrong
      }
      if (stopped) return;
      document.body.dataset.hintEngine = status.ready ? 'ready' : 'preparing';
      shown(status);
      if (status.ready) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return () => {
    stopped = true;
  };
}

// fetch(), asked again while the server answers 503 with Retry-After (its own warm-up, the first seconds after it
// starts): the engine's note says meanwhile that it is preparing.
export async function fetchWhenReady(url, options) {
  for (;;) {
    const response = await fetch(url, options);
    const retry = Number(response.headers.get('Retry-After'));
    if (response.status !== 503 || !retry) return response;
    await new Promise((resolve) => setTimeout(resolve, 1000 * retry));
    options.signal?.throwIfAborted();
  }
}
