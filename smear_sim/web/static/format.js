// Numbers for people, with only the digits a sample supports (as smear_sim/core/stats.py does).

function leadingDigit(x) {
  return x > 0 && Number.isFinite(x) ? Number(x.toExponential()[0]) : 0;
}

function decimalsFor(se, significant) {
  if (!(se > 0) || !Number.isFinite(se)) return 4;
  return Math.max(0, Math.min(6, significant - 1 - Math.floor(Math.log10(se))));
}

function exact(x) {
  return String(Number(x.toFixed(4)));
}

// '2.988 ± 0.004', '90.8 ± 0.2%': one significant digit of the standard error (two when it starts with 1).
export function estimate(value, se, {scale = 1, unit = ''} = {}) {
  if (value === null || value === undefined) return '–';
  const v = value * scale;
  const s = (se ?? 0) * scale;
  if (!(s > 0)) return exact(v) + unit;
  const digits = decimalsFor(s, leadingDigit(s) === 1 ? 2 : 1);
  return `${v.toFixed(digits)} ± ${s.toFixed(digits)}${unit}`;
}

// A probability in whole percent for a sentence; '>99%' and '<1%' rather than a rounded certainty.
export function percent(p) {
  if (p === null || p === undefined) return '–';
  const whole = Math.round(100 * p);
  if (whole >= 100 && p < 1) return '>99%';
  if (whole <= 0 && p > 0) return '<1%';
  return `${whole}%`;
}

// Points for a sentence: '+2.5', '−0.9' (one decimal unless the error is larger).
export function points(value, se = 0) {
  if (value === null || value === undefined) return '–';
  const digits = se >= 0.05 ? 0 : 1;
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return text;
  return (value > 0 ? '+' : '−') + text;
}

export function thousands(n) {
  return Number(n).toLocaleString('en-US');
}

export function seconds(s) {
  return s < 1 ? `${Math.round(1000 * s)} ms` : `${s.toFixed(1)} s`;
}

// A size for a sentence ('4', '2.5'), no sign: at most the digits of one significant digit of its standard
// error, and at most one decimal.
export function amount(value, se) {
  if (value === null || value === undefined) return '–';
  return Math.abs(value).toFixed(Math.min(decimalsFor(se, 1), 1));
}
