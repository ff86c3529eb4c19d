// The calls of the auction as the page names them: the places at the table, a call's value for the API and its
// label. The seat's selects, the request and the answer all read them, so they live below all three.

export const PLACE_NAMES = ['the opener', 'second', 'third', 'the dealer'];

export function callValue(text) {
  return /^\d+$/.test(text) ? Number(text) : text;
}

export function callLabel(call) {
  return call === 'pass' ? 'pass' : call === 'moon' ? 'moon' : `bid ${call}`;
}
