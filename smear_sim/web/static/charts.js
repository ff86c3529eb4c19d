// Charts as inline SVG: bars with standard-error whiskers, a gauge, a heatmap. No library, nothing fetched.

const NS = 'http://www.w3.org/2000/svg';

function el(parent, tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  parent.appendChild(node);
  return node;
}

function reset(svg, width, height, label) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('aria-label', label);
}

function niceStep(span) {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

// bars: [{label, value, se, cls}]; the y range covers [min, max] and every bar, with zero on the axis.
export function barChart(svg, {bars, min = 0, max = null, format, axisFormat = format, label}) {
  const width = 320;
  const height = 190;
  const margin = {left: 40, right: 8, top: 18, bottom: 24};
  reset(svg, width, height, label);
  const values = bars.map((b) => b.value ?? 0);
  let lo = Math.min(min, 0, ...values);
  let hi = Math.max(max ?? 0, 0, ...values);
  if (hi === lo) hi = lo + 1;
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step + 1e-9) * step;
  hi = Math.ceil(hi / step - 1e-9) * step;
  if (Math.min(...values) < 0 && Math.min(...values) - lo < 0.15 * (hi - lo)) lo -= step;  // room for the label
  const y = (v) => margin.top + (height - margin.top - margin.bottom) * (hi - v) / (hi - lo);
  for (let t = lo; t <= hi + step / 2; t += step) {
    el(svg, 'line', {x1: margin.left, x2: width - margin.right, y1: y(t), y2: y(t), class: t === 0 ? 'axis' : 'grid'});
    el(svg, 'text', {x: margin.left - 4, y: y(t) + 4, 'text-anchor': 'end', class: 'muted'}, axisFormat(t));
  }
  const slot = (width - margin.left - margin.right) / bars.length;
  const barWidth = Math.min(46, slot * 0.62);
  bars.forEach((bar, i) => {
    const cx = margin.left + slot * (i + 0.5);
    el(svg, 'text', {x: cx, y: height - 6, 'text-anchor': 'middle'}, bar.label);
    if (bar.value === null || bar.value === undefined) return;
    const top = y(Math.max(bar.value, 0));
    const bottom = y(Math.min(bar.value, 0));
    el(svg, 'rect', {x: cx - barWidth / 2, y: top, width: barWidth, height: Math.max(bottom - top, 0.5),
                     class: bar.cls ?? 'neutral', rx: 2});
    const se = bar.se ?? 0;
    if (y(bar.value - se) - y(bar.value + se) > 2) {  // a whisker only where it shows
      el(svg, 'line', {x1: cx, x2: cx, y1: y(bar.value + se), y2: y(bar.value - se), class: 'whisker'});
    }
    const below = bar.value < 0;
    el(svg, 'text', {x: cx, y: below ? bottom + 13 : top - 4, 'text-anchor': 'middle'}, format(bar.value));
  });
}

// A 0-100% track with the estimate as a bar and a dashed mark (e.g. the break-even rate).
export function gauge(svg, {value, se, mark, markLabel, valueLabel, good, label}) {
  const width = 320;
  const height = 110;
  const left = 12;
  const right = width - 12;
  const x = (p) => left + (right - left) * Math.min(Math.max(p, 0), 1);
  reset(svg, width, height, label);
  el(svg, 'text', {x: left, y: 16}, valueLabel);
  el(svg, 'rect', {x: left, y: 26, width: right - left, height: 30, rx: 4, fill: '#e8edf0'});
  el(svg, 'rect', {x: left, y: 26, width: Math.max(x(value) - left, 1), height: 30, rx: 4, class: good ? 'good' : 'bad'});
  if (se > 0 && x(value + se) - x(value - se) > 2) {
    el(svg, 'line', {x1: x(value - se), x2: x(value + se), y1: 41, y2: 41, class: 'whisker'});
  }
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    el(svg, 'text', {x: x(p), y: 74, 'text-anchor': p === 0 ? 'start' : p === 1 ? 'end' : 'middle', class: 'muted'},
       `${100 * p}%`);
  }
  if (mark !== null && mark !== undefined) {
    el(svg, 'line', {x1: x(mark), x2: x(mark), y1: 20, y2: 62, class: 'mark'});
    const anchor = mark > 0.75 ? 'end' : mark < 0.25 ? 'start' : 'middle';
    el(svg, 'text', {x: x(mark), y: 98, 'text-anchor': anchor}, markLabel);
  }
}

function mix(a, b, t) {
  const pa = a.match(/\w\w/g).map((h) => parseInt(h, 16));
  const pb = b.match(/\w\w/g).map((h) => parseInt(h, 16));
  return `rgb(${pa.map((v, i) => Math.round(v + (pb[i] - v) * t)).join(',')})`;
}

// cells: Map 'x|y' -> {value (0..1 for the colour), text, title, faint}; xs and ys in display order.
export function heatmap(svg, {xs, ys, cells, xTitle, yTitle, label}) {
  const cell = {w: 34, h: 22};
  const margin = {left: 56, top: 30, right: 6, bottom: 8};
  const width = margin.left + cell.w * xs.length + margin.right;
  const height = margin.top + cell.h * ys.length + margin.bottom;
  reset(svg, width, height, label);
  svg.style.maxWidth = `${Math.round(width * 1.3)}px`;
  el(svg, 'text', {x: margin.left, y: 11, class: 'muted'}, `${xTitle} →`);
  el(svg, 'text', {x: 2, y: margin.top - 4, class: 'muted'}, `${yTitle} ↓`);
  xs.forEach((xv, i) => {
    el(svg, 'text', {x: margin.left + cell.w * (i + 0.5), y: margin.top - 4, 'text-anchor': 'middle'}, String(xv));
  });
  ys.forEach((yv, j) => {
    const top = margin.top + cell.h * j;
    el(svg, 'text', {x: margin.left - 6, y: top + cell.h / 2 + 4, 'text-anchor': 'end'}, String(yv));
    xs.forEach((xv, i) => {
      const c = cells.get(`${xv}|${yv}`);
      if (!c) return;
      const fill = c.value === null ? '#f4f6f7' : mix('f1f6f2', '1f5f43', c.value);
      const rect = el(svg, 'rect', {x: margin.left + cell.w * i + 1, y: top + 1, width: cell.w - 2, height: cell.h - 2,
                                    fill, rx: 2, opacity: c.faint ? 0.45 : 1});
      el(rect, 'title', {}, c.title);
      el(svg, 'text', {x: margin.left + cell.w * (i + 0.5), y: top + cell.h / 2 + 4, 'text-anchor': 'middle',
                       class: 'cell-label', style: `fill: ${c.value !== null && c.value > 0.55 ? '#fff' : '#1d2327'}`}, c.text);
    });
  });
}
