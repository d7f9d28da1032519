/**
 * Two hand-drawn charts (prompt size per call against the ceiling with epoch, recall and cache
 * markers; cumulative cost per strategy), painted once per fold on a canvas. While scrubbing
 * only a cursor element moves, which costs the page no layout or repaint of the charts.
 */
import type { CallSummary, StrategySeries } from '../fold/protocol.ts';

const MARK_BAND = 16;

function prepare(canvas: HTMLCanvasElement): { context: CanvasRenderingContext2D; width: number; height: number } {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 800;
  const height = canvas.clientHeight || 100;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext('2d') as CanvasRenderingContext2D;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  return { context, width, height };
}

const color = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

/** The view and the ceiling fill at least this share of the chart, however long the raw history grows. */
const VIEW_HEADROOM = 1.4;

/**
 * The timeline's vertical scale: the raw history when it stays within twice the view's scale;
 * otherwise the view's (ceiling and view with headroom), the raw bars clipped at the top, so a
 * 137k-token session does not squash the ceiling and the view into a line at the bottom.
 */
export function timelineScale(
  calls: readonly Pick<CallSummary, 'rawTokens' | 'viewTokens'>[],
  ceiling: number,
): { top: number; rawClipped: boolean } {
  let view = ceiling;
  let raw = 0;
  for (const call of calls) {
    view = Math.max(view, call.viewTokens);
    raw = Math.max(raw, call.rawTokens);
  }
  const viewTop = view * VIEW_HEADROOM;
  if (raw * 1.05 > viewTop * 2) return { top: viewTop, rawClipped: true };
  return { top: Math.max(viewTop, raw * 1.05), rawClipped: false };
}

export function renderTimeline(
  canvas: HTMLCanvasElement,
  calls: readonly CallSummary[],
  ceiling: number,
  onPick: (call: number) => void,
): void {
  const { context, width, height } = prepare(canvas);
  const count = Math.max(1, calls.length);
  const step = width / count;
  const { top, rawClipped } = timelineScale(calls, ceiling);
  // raw bars above the scale are drawn to its top: what they reach is said in a label instead
  const y = (tokens: number) => height - (Math.min(tokens, top) / top) * (height - MARK_BAND);
  context.fillStyle = color('--raw');
  calls.forEach((call, i) =>
    context.fillRect(i * step, y(call.rawTokens), Math.max(step, 0.5), height - y(call.rawTokens)),
  );
  canvas.dataset.ceilingHeight = ((height - y(ceiling)) / height).toFixed(3);
  canvas.dataset.rawClipped = String(rawClipped);
  context.fillStyle = color('--view');
  calls.forEach((call, i) =>
    context.fillRect(i * step + step * 0.1, y(call.viewTokens), Math.max(step * 0.8, 0.5), height - y(call.viewTokens)),
  );
  context.strokeStyle = color('--ceiling');
  context.lineWidth = 1.5;
  context.beginPath();
  context.moveTo(0, y(ceiling));
  context.lineTo(width, y(ceiling));
  context.stroke();
  calls.forEach((call, i) => {
    const x = i * step;
    if (call.epochReason) {
      context.fillStyle = color(call.epochReason === 'hard-epoch' ? '--hard' : '--epoch');
      context.fillRect(x, 0, Math.max(step, 1.5), 5);
    }
    if (call.recallCardsAdded) {
      context.fillStyle = color('--card');
      context.fillRect(x, 6, Math.max(step, 1.5), 4);
    }
    if (call.cacheHot) {
      context.fillStyle = color('--hot');
      context.fillRect(x + step * 0.25, 11, Math.max(step * 0.5, 0.8), 3);
    }
  });
  if (rawClipped) {
    const peak = Math.max(...calls.map((call) => call.rawTokens));
    context.fillStyle = color('--muted');
    context.font = '11px system-ui, sans-serif';
    context.textAlign = 'right';
    context.fillText(
      `raw history above the scale: up to ${Math.round(peak).toLocaleString('en-US')} tokens ↑`,
      width - 6,
      MARK_BAND + 12,
    );
    context.textAlign = 'left';
  }
  const epochs = calls.filter((call) => call.epochReason).length;
  canvas.setAttribute(
    'aria-label',
    `Prompt size of ${calls.length} calls against a ${ceiling.toLocaleString('en-US')}-token ceiling; ${epochs} epochs, ${calls.filter((call) => call.cacheHot).length} cache-hot calls`,
  );
  canvas.onclick = (event) => {
    const box = canvas.getBoundingClientRect();
    onPick(Math.floor(((event.clientX - box.left) / box.width) * count) + 1);
  };
}

export function renderCostChart(canvas: HTMLCanvasElement, strategies: readonly StrategySeries[]): void {
  const { context, width, height } = prepare(canvas);
  const count = Math.max(1, strategies[0]?.cumulativeCost.length ?? 1);
  const top =
    Math.max(1e-9, ...strategies.map((series) => series.cumulativeCost[series.cumulativeCost.length - 1] ?? 0)) * 1.08;
  for (const series of [...strategies].reverse()) {
    context.strokeStyle = color(`--s-${series.name}`);
    context.lineWidth = series.name === 'warpfold' ? 2.5 : 1.5;
    context.beginPath();
    series.cumulativeCost.forEach((cost, i) => {
      const x = ((i + 0.5) / count) * width;
      const y = height - 2 - (cost / top) * (height - 16);
      if (i === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    });
    context.stroke();
  }
  context.fillStyle = color('--muted');
  context.font = '11px system-ui, sans-serif';
  context.fillText(`cumulative cost, $0 – $${top.toFixed(3)}`, 6, 12);
  canvas.setAttribute(
    'aria-label',
    `Cumulative cost per strategy over ${count} calls: ${strategies.map((series) => `${series.name} $${(series.cumulativeCost[series.cumulativeCost.length - 1] ?? 0).toFixed(4)}`).join(', ')}`,
  );
}

/** Moves the cursor over a chart: a transform on one element, no layout. */
export function moveCursor(cursor: HTMLElement, call: number, count: number): void {
  cursor.style.transform = `translateX(${((call - 1) / Math.max(1, count)) * 100}cqw)`;
  cursor.style.width = `max(2px, ${100 / Math.max(1, count)}cqw)`;
}
