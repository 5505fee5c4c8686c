// The console's charts as plain SVG, built with DOM calls (never markup from data): a line chart
// of values over time and a bar chart of counts. Each carries its numbers as text too (an
// accessible label and a caption), so the figure is readable without the drawing.
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 480;
const HEIGHT = 140;
const PAD = { left: 44, right: 8, top: 8, bottom: 20 };

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

export interface Series {
  name: string;
  /** One value per point; undefined leaves a gap. */
  values: (number | undefined)[];
  colour: string;
}

/** Lines over equally spaced points (`labels`, e.g. bucket ends), with the largest value marked on the axis. */
export function lineChart(title: string, labels: string[], series: Series[], format: (value: number) => string): HTMLElement {
  const all = series.flatMap((line) => line.values.filter((value): value is number => value !== undefined));
  const max = Math.max(1, ...all);
  const x = (index: number) => PAD.left + (index * (WIDTH - PAD.left - PAD.right)) / Math.max(1, labels.length - 1);
  const y = (value: number) => HEIGHT - PAD.bottom - (value / max) * (HEIGHT - PAD.top - PAD.bottom);
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': `${title}: ${summary(series, format)}`, class: 'chart' });
  chart.append(
    svg('line', { x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom, class: 'axis' }),
    svg('text', { x: 2, y: PAD.top + 8, class: 'tick' }, format(max)),
    svg('text', { x: 2, y: HEIGHT - PAD.bottom, class: 'tick' }, format(0)),
    svg('text', { x: PAD.left, y: HEIGHT - 4, class: 'tick' }, shortTime(labels[0])),
    svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 4, class: 'tick', 'text-anchor': 'end' }, shortTime(labels.at(-1))),
  );
  for (const line of series) {
    // A gap (no value) ends one path and starts the next, so an empty bucket is not drawn as zero.
    let path = '';
    let drawing = false;
    line.values.forEach((value, index) => {
      if (value === undefined) {
        drawing = false;
        return;
      }
      path += `${drawing ? 'L' : 'M'}${x(index).toFixed(1)} ${y(value).toFixed(1)} `;
      drawing = true;
    });
    if (path !== '') chart.append(svg('path', { d: path.trim(), fill: 'none', stroke: line.colour, 'stroke-width': 2 }));
    line.values.forEach((value, index) => {
      if (value !== undefined) chart.append(svg('circle', { cx: x(index).toFixed(1), cy: y(value).toFixed(1), r: 2.5, fill: line.colour }));
    });
  }
  const legend = h('p', { class: 'legend' }, ...series.map((line) => h('span', { attrs: { style: `color:${line.colour}` }, text: `● ${line.name} ` })));
  return h('figure', {}, h('figcaption', { text: title }), chart, legend, h('p', { class: 'chart-text', text: summary(series, format) }));
}

/** Horizontal bars, one per label. */
export function barChart(title: string, bars: { label: string; count: number }[]): HTMLElement {
  if (bars.length === 0) return h('figure', {}, h('figcaption', { text: title }), h('p', { class: 'chart-text', text: 'None in this window.' }));
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const rowHeight = 22;
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${bars.length * rowHeight + 4}`, role: 'img', 'aria-label': `${title}: ${bars.map((bar) => `${bar.label} ${bar.count}`).join(', ')}`, class: 'chart' });
  bars.forEach((bar, index) => {
    const top = index * rowHeight + 2;
    chart.append(
      svg('text', { x: 0, y: top + 14, class: 'tick' }, bar.label),
      svg('rect', { x: 120, y: top, width: Math.max(2, (bar.count / max) * (WIDTH - 170)), height: rowHeight - 6, fill: '#c2410c' }),
      svg('text', { x: 124 + Math.max(2, (bar.count / max) * (WIDTH - 170)), y: top + 14, class: 'tick' }, String(bar.count)),
    );
  });
  return h('figure', {}, h('figcaption', { text: title }), chart);
}

function summary(series: Series[], format: (value: number) => string): string {
  return series
    .map((line) => {
      const values = line.values.filter((value): value is number => value !== undefined);
      if (values.length === 0) return `${line.name}: no data`;
      return `${line.name}: latest ${format(values.at(-1)!)}, highest ${format(Math.max(...values))}`;
    })
    .join('; ');
}

function shortTime(iso: string | undefined): string {
  if (iso === undefined) return '';
  const date = new Date(iso);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** 950 ms, 12 s, 3.5 min, 2.1 h. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
