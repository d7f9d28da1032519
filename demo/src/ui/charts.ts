/** Two hand-drawn SVG charts (prompt size per call, cumulative cost per strategy): drawn once per fold, a cursor moves while scrubbing. */
import type { CallSummary, StrategySeries } from '../fold/protocol.ts';
import { clear, svgElement } from './dom.ts';

const HEIGHT = 100;
const MARK_BAND = 14;

export function renderTimeline(svg: SVGSVGElement, calls: readonly CallSummary[], ceiling: number, onPick: (call: number) => void): void {
  clear(svg);
  const count = Math.max(1, calls.length);
  svg.setAttribute('viewBox', `0 0 ${count} ${HEIGHT}`);
  const top = Math.max(ceiling, ...calls.map((call) => Math.max(call.rawTokens, call.viewTokens))) * 1.05;
  const y = (tokens: number) => HEIGHT - (tokens / top) * (HEIGHT - MARK_BAND);
  const raw = svgElement('path', { fill: 'var(--raw)', d: calls.map((call, i) => `M${i} ${HEIGHT}V${y(call.rawTokens)}h1V${HEIGHT}z`).join('') });
  const view = svgElement('path', { fill: 'var(--view)', d: calls.map((call, i) => `M${i + 0.1} ${HEIGHT}V${y(call.viewTokens)}h0.8V${HEIGHT}z`).join('') });
  const limit = svgElement('line', { x1: 0, x2: count, y1: y(ceiling), y2: y(ceiling), stroke: 'var(--ceiling)', 'stroke-width': 1.5, 'vector-effect': 'non-scaling-stroke' });
  svg.append(raw, view, limit);
  const marks = svgElement('g');
  calls.forEach((call, i) => {
    if (call.epochReason) {
      const mark = svgElement('rect', { x: i, y: 0, width: 1, height: 5, fill: call.epochReason === 'hard-epoch' ? 'var(--hard)' : 'var(--epoch)', class: 'epoch-mark' });
      const title = svgElement('title');
      title.textContent = `call ${call.call}: epoch (${call.epochReason}${call.merged ? ', merge' : ''})`;
      mark.append(title);
      marks.append(mark);
    }
    if (call.recallCardsAdded) marks.append(svgElement('rect', { x: i + 0.2, y: 5.5, width: 0.6, height: 3.5, fill: 'var(--card)' }));
    if (call.cacheHot) marks.append(svgElement('rect', { x: i + 0.3, y: 10, width: 0.4, height: 2.5, fill: 'var(--hot)' }));
  });
  svg.append(marks);
  svg.append(svgElement('rect', { class: 'cursor', x: 0, y: 0, width: 1, height: HEIGHT, fill: 'var(--accent)', opacity: 0.35 }));
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    onPick(Math.floor(((event.clientX - box.left) / box.width) * count) + 1);
  };
}

export function renderCostChart(svg: SVGSVGElement, strategies: readonly StrategySeries[]): void {
  clear(svg);
  const count = Math.max(1, strategies[0]?.cumulativeCost.length ?? 1);
  const top = Math.max(1e-9, ...strategies.map((series) => series.cumulativeCost[series.cumulativeCost.length - 1] ?? 0)) * 1.05;
  svg.setAttribute('viewBox', `0 0 ${count} ${HEIGHT}`);
  for (const series of strategies) {
    const points = series.cumulativeCost.map((cost, i) => `${i + 0.5},${HEIGHT - (cost / top) * (HEIGHT - 4)}`).join(' ');
    const line = svgElement('polyline', { points, fill: 'none', stroke: `var(--s-${series.name})`, 'stroke-width': series.name === 'warpfold' ? 2.5 : 1.5, 'vector-effect': 'non-scaling-stroke', 'data-strategy': series.name });
    const title = svgElement('title');
    title.textContent = `${series.name}: $${(series.cumulativeCost[series.cumulativeCost.length - 1] ?? 0).toFixed(4)} over ${count} calls`;
    line.append(title);
    svg.append(line);
  }
  svg.append(svgElement('rect', { class: 'cursor', x: 0, y: 0, width: 1, height: HEIGHT, fill: 'var(--accent)', opacity: 0.25 }));
}

export function moveCursor(svg: SVGSVGElement, call: number, count: number): void {
  const cursor = svg.querySelector('.cursor');
  if (!cursor) return;
  cursor.setAttribute('x', String(call - 1));
  cursor.setAttribute('width', String(Math.max(1, count / 400)));
}
