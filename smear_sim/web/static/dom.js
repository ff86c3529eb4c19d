// The page's shared pieces: its state, finding and building elements, and asking the server for JSON.

export const $ = (id) => document.getElementById(id);
export const HAND_SIZE = 9;
export const state = {api: null, request: null, tables: null, tablesBy: null, callsAsked: 0};

export function make(tag, attrs = {}, ...children) {
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

export function table(target, headers, rows) {
  target.replaceChildren(
    make('thead', {}, make('tr', {}, ...headers.map((h) => make('th', {scope: 'col'}, h)))),
    make('tbody', {}, ...rows.map((row) => make('tr', row.attrs ?? {}, ...row.cells.map((c) => make('td', {}, c))))),
  );
}

export function show(id, visible) {
  $(id).hidden = !visible;
}

export async function getJson(url, options = {}) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
  if (!response.ok) throw new Error(body.error ?? `the server answered ${response.status}`);
  return body;
}

// The messages of a streamed answer (one JSON object a line: progress, then the result), as they come. A refused
// request or an error line throws with the server's one-line message.
export async function* messages(response) {
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.error ?? `the server answered ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.error) throw new Error(message.error);
      yield message;
    }
  }
}

export function showError(message) {
  $('error').textContent = message;
  show('error', true);
}
