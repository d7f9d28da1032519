/**
 * The fold inspector: load a transcript, fold it in a Web Worker, scrub call by call through what
 * the model would have seen, and see what each fold kept (through its receipt) and what it cost.
 */
import { resolveCeiling } from '../../src/budget/index.ts';
import type { FoldReceipt, ProviderMessage } from '../../src/index.ts';
import { PRICE_TABLE } from '../../src/tokens/index.ts';
import { EpisodesPanel } from './episodes-panel.ts';
import { openEpisodeStore } from './episodes/open-store.ts';
import { FoldClient } from './fold-client.ts';
import {
  DEFAULT_SETTINGS,
  type CallSummary,
  type CallView,
  type FoldResult,
  type FoldSettings,
  type ViewItem,
} from './fold/protocol.ts';
import { InputError, readInput, type LoadedHistory } from './load/read-input.ts';
import { element, clear, formatCost, formatTokens, messageNumber, messageRange } from './ui/dom.ts';
import { renderCostChart, renderTimeline, moveCursor } from './ui/charts.ts';
import { messageRole, messageText } from './ui/message-text.ts';
import { applyStoredTheme, toggleTheme } from './ui/theme.ts';
import { RawList } from './ui/raw-list.ts';

applyStoredTheme(document.getElementById('theme-button') as HTMLButtonElement);

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  error: $('error'),
  source: $('source-line'),
  fileInput: $<HTMLInputElement>('file-input'),
  sample: $<HTMLSelectElement>('sample-select'),
  pasteButton: $<HTMLButtonElement>('paste-button'),
  pasteDialog: $<HTMLDialogElement>('paste-dialog'),
  pasteText: $<HTMLTextAreaElement>('paste-text'),
  theme: $<HTMLButtonElement>('theme-button'),
  ceiling: $<HTMLInputElement>('ceiling'),
  landingWhy: $('landing-why'),
  model: $<HTMLSelectElement>('model'),
  ttl: $<HTMLInputElement>('ttl'),
  spacing: $<HTMLInputElement>('spacing'),
  recall: $<HTMLSelectElement>('recall'),
  remoteOn: $<HTMLInputElement>('remote-on'),
  remoteUrl: $<HTMLInputElement>('remote-url'),
  remoteToken: $<HTMLInputElement>('remote-token'),
  progress: $<HTMLProgressElement>('progress'),
  progressText: $('progress-text'),
  scrubber: $<HTMLInputElement>('scrubber'),
  callNumber: $('call-number'),
  callCount: $('call-count'),
  timeline: $<HTMLCanvasElement>('timeline'),
  timelineCursor: $('timeline-cursor'),
  costChart: $<HTMLCanvasElement>('cost-chart'),
  costCursor: $('cost-cursor'),
  callNumbers: $('call-numbers'),
  strategyBody: $('strategy-table').querySelector('tbody') as HTMLTableSectionElement,
  priceModel: $('price-model'),
  viewList: $<HTMLOListElement>('view-list'),
  viewSummary: $('view-summary'),
  rawList: $('raw-list'),
  rawSummary: $('raw-summary'),
  drop: $('drop-overlay'),
};

interface State {
  loaded: LoadedHistory | null;
  result: FoldResult | null;
  call: number;
  view: CallView | null;
}
const state: State = { loaded: null, result: null, call: 1, view: null };
/** Set when a history was just loaded: its first result opens at its landing call, not where the last file was. */
let landing = true;

const client = new FoldClient({
  progress(done, total, phase) {
    ui.progress.max = Math.max(1, total);
    ui.progress.value = done;
    ui.progressText.textContent = total ? `${phase} ${done} / ${total} calls` : `${phase}…`;
  },
  result(result) {
    state.result = result;
    itemNodes.clear();
    ui.progress.value = ui.progress.max;
    ui.progressText.textContent = `folded ${result.calls.length} calls in ${result.foldMilliseconds} ms${result.remote ? ` by ${result.remote}` : ''}`;
    document.body.dataset.folded = 'true';
    showResult();
  },
  view(view) {
    state.view = view;
    renderView(view);
  },
  error(message) {
    ui.progressText.textContent = 'failed';
    showError(message);
  },
});

const episodes = new EpisodesPanel(
  openEpisodeStore,
  $('episode-list'),
  $<HTMLInputElement>('episode-search'),
  $<HTMLButtonElement>('episodes-clear'),
  showError,
);

// ── errors ───────────────────────────────────────────────────────────────────────────────
function showError(message: string): void {
  ui.error.textContent = message;
  ui.error.hidden = false;
}
function clearError(): void {
  ui.error.hidden = true;
  ui.error.textContent = '';
}

// ── loading ──────────────────────────────────────────────────────────────────────────────
/** Set for the history `warpfold inspect --proxy` opened: it ends with the proxy's latest call, not answered yet. */
let pendingCall = false;

async function loadText(text: string, name: string, pending = false): Promise<void> {
  try {
    const loaded = await readInput(text, name);
    clearError();
    // a partly damaged file still loads; what was skipped is said, with its line
    if (loaded.notes.length)
      showError(
        `Loaded ${name}, skipping ${loaded.notes.length} record${loaded.notes.length === 1 ? '' : 's'}:\n${loaded.notes.slice(0, 8).join('\n')}${loaded.notes.length > 8 ? `\n… and ${loaded.notes.length - 8} more` : ''}`,
      );
    pendingCall = pending;
    useHistory(loaded);
  } catch (error) {
    const detail =
      error instanceof InputError
        ? `Could not load ${name} — ${error.where}: ${error.problem}`
        : `Could not load ${name} — ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    showError(detail);
  }
}

function useHistory(loaded: LoadedHistory): void {
  state.loaded = loaded;
  state.result = null;
  state.view = null;
  state.call = 1;
  landing = true;
  const parts = [`${loaded.name} · ${loaded.format} · ${loaded.messages.length} messages`];
  if (loaded.source) parts.push(`source ${loaded.source}`);
  if (loaded.license) parts.push(`licence ${loaded.license}`);
  ui.source.textContent = parts.join(' · ');
  ui.source.title = ui.source.textContent;
  renderRaw(loaded.messages);
  runFold();
  // episodes are harvested in a task of their own, after the history went to the worker
  setTimeout(
    () =>
      episodes.harvest(loaded.messages, loaded.name).catch((error: unknown) => showError(`Episodes: ${String(error)}`)),
    0,
  );
}

async function loadSample(path: string, pending = false): Promise<void> {
  const response = await fetch(path);
  if (!response.ok) return showError(`Could not fetch the sample ${path}: ${response.status}`);
  await loadText(await response.text(), path.split('/').pop() ?? path, pending);
}

ui.fileInput.addEventListener('change', async () => {
  const file = ui.fileInput.files?.[0];
  if (file) await loadText(await file.text(), file.name);
  ui.fileInput.value = '';
});
ui.sample.addEventListener('change', () => {
  if (ui.sample.value) void loadSample(ui.sample.value);
});
ui.pasteButton.addEventListener('click', () => {
  ui.pasteText.value = '';
  ui.pasteDialog.showModal();
  ui.pasteText.focus();
});
ui.pasteDialog.addEventListener('close', () => {
  if (ui.pasteDialog.returnValue === 'load') void loadText(ui.pasteText.value, 'pasted text');
});
let dragDepth = 0;
window.addEventListener('dragenter', (event) => {
  event.preventDefault();
  dragDepth++;
  ui.drop.hidden = false;
});
window.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) ui.drop.hidden = true;
});
window.addEventListener('dragover', (event) => event.preventDefault());
window.addEventListener('drop', async (event) => {
  event.preventDefault();
  dragDepth = 0;
  ui.drop.hidden = true;
  const file = event.dataTransfer?.files?.[0];
  if (file) await loadText(await file.text(), file.name);
  else {
    const text = event.dataTransfer?.getData('text/plain');
    if (text) await loadText(text, 'dropped text');
  }
});
// pasting straight onto the page (outside a field) loads too
window.addEventListener('paste', (event) => {
  const target = event.target as HTMLElement;
  if (target.closest('input, textarea, dialog')) return;
  const text = event.clipboardData?.getData('text/plain');
  if (text) void loadText(text, 'pasted text');
});

// ── controls ─────────────────────────────────────────────────────────────────────────────
const MODELS = [
  'claude-opus-5-5',
  'claude-opus-4-5',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
  'gpt-5-codex',
  'gpt-5',
  'gpt-4.1',
  'gemini-3-pro',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
];
// `warpfold inspect` opens the page with the ceiling and prices its report uses for the file
const opened = new URLSearchParams(location.search);
const openedPrice = opened.get('price');
const customPrice = openedPrice && PRICE_TABLE[openedPrice] ? openedPrice : DEFAULT_SETTINGS.priceModel;
const openedCeiling = Number(opened.get('ceiling'));
if (openedCeiling >= 1000) ui.ceiling.value = String(Math.floor(openedCeiling));
ui.model.append(
  element(
    'option',
    { value: '' },
    `the ceiling typed here, ${customPrice === DEFAULT_SETTINGS.priceModel ? "the benchmark's sonnet-class" : customPrice} prices`,
  ),
  ...MODELS.map((model) => element('option', { value: model }, model)),
);
const engineOf = (model: string) =>
  model.startsWith('claude') ? 'claude' : model.startsWith('gemini') ? 'gemini' : 'openai';

function currentSettings(): FoldSettings {
  const model = ui.model.value;
  let ceiling = Number(ui.ceiling.value) || DEFAULT_SETTINGS.ceiling;
  // the ceiling rule of `warpfold report` and the gateway: the model's budget, at most 200,000, unless one is typed
  if (model && ui.ceiling.dataset.fromModel === model)
    ceiling = resolveCeiling({ model, engine: engineOf(model) }).tokens;
  return {
    ceiling: Math.max(1000, Math.floor(ceiling)),
    priceModel: model && PRICE_TABLE[model] ? model : customPrice,
    freezeTtlSeconds: Math.max(1, Number(ui.ttl.value) || DEFAULT_SETTINGS.freezeTtlSeconds),
    recall: ui.recall.value as FoldSettings['recall'],
    secondsBetweenCalls: Math.max(0, Number(ui.spacing.value) || 0),
    ...(pendingCall ? { pendingCall: true } : {}),
  };
}

function runFold(): void {
  if (!state.loaded) return;
  let settings: FoldSettings;
  try {
    settings = currentSettings();
  } catch (error) {
    return showError(`Settings: ${error instanceof Error ? error.message : String(error)}`);
  }
  ui.priceModel.textContent = settings.priceModel;
  ui.progress.value = 0;
  ui.progressText.textContent = 'starting…';
  document.body.dataset.folded = 'false';
  const remote =
    ui.remoteOn.checked && ui.remoteUrl.value ? { url: ui.remoteUrl.value, token: ui.remoteToken.value } : undefined;
  client.fold(state.loaded.messages, settings, remote);
}

let rerun: ReturnType<typeof setTimeout> | undefined;
const scheduleRun = () => {
  clearTimeout(rerun);
  rerun = setTimeout(runFold, 250);
};
ui.model.addEventListener('change', () => {
  const model = ui.model.value;
  if (model) {
    ui.ceiling.value = String(resolveCeiling({ model, engine: engineOf(model) }).tokens);
    ui.ceiling.dataset.fromModel = model;
  }
  scheduleRun();
});
ui.ceiling.addEventListener('input', () => {
  delete ui.ceiling.dataset.fromModel;
  scheduleRun();
});
for (const control of [ui.ttl, ui.spacing, ui.recall, ui.remoteOn, ui.remoteUrl, ui.remoteToken])
  control.addEventListener('change', scheduleRun);
ui.theme.addEventListener('click', () => {
  toggleTheme(ui.theme);
  if (state.result) showResult();
});
let resizing: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => state.result && showResult(), 150);
});

// ── result, scrubbing ────────────────────────────────────────────────────────────────────
function showResult(): void {
  const result = state.result;
  if (!result) return;
  const count = result.calls.length;
  ui.scrubber.max = String(Math.max(1, count));
  ui.scrubber.disabled = count === 0;
  ui.callCount.textContent = String(count);
  const settings = currentSettings();
  renderTimeline(ui.timeline, result.calls, settings.ceiling, (call) => selectCall(call));
  renderCostChart(ui.costChart, result.strategies);
  if (landing) {
    const firstFold = result.calls.find((call) => call.epochReason !== null);
    ui.landingWhy.textContent = firstFold
      ? `Opened at call ${firstFold.call}: its first fold.`
      : `Opened at call ${count}, the last: this session never folds under ${formatTokens(settings.ceiling)} tokens.`;
  }
  const start = landing ? landingCall(result.calls) : state.call;
  landing = false;
  selectCall(Math.min(Math.max(1, start), count), true);
}

/** Where a freshly loaded session opens: its first fold (call 1 has nothing folded yet), or its last call when it never folds. */
function landingCall(calls: readonly CallSummary[]): number {
  const firstFold = calls.find((call) => call.epochReason !== null);
  return firstFold ? firstFold.call : calls.length;
}

let paintFrame = 0;

function selectCall(call: number, force = false): void {
  const result = state.result;
  if (!result?.calls.length) return;
  const clamped = Math.min(Math.max(1, call), result.calls.length);
  if (clamped === state.call && !force) return;
  state.call = clamped;
  ui.scrubber.value = String(clamped);
  ui.callNumber.textContent = String(clamped);
  // steps faster than frames paint once, at the newest call
  if (!paintFrame) paintFrame = requestAnimationFrame(paintCall);
}

function paintCall(): void {
  paintFrame = 0;
  const result = state.result;
  if (!result) return;
  const call = state.call;
  moveCursor(ui.timelineCursor, call, result.calls.length);
  moveCursor(ui.costCursor, call, result.calls.length);
  renderNumbers(result.calls[call - 1], result);
  showRawUpTo(result.calls[call - 1].historyLength);
  client.requestView(call);
}

ui.scrubber.addEventListener('input', () => selectCall(Number(ui.scrubber.value)));
function nextEpoch(from: number, direction: 1 | -1): number {
  const calls = state.result?.calls ?? [];
  for (let call = from + direction; call >= 1 && call <= calls.length; call += direction)
    if (calls[call - 1].epochReason) return call;
  return from;
}
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  if (
    target.closest('input:not([type=range]), textarea, select, dialog') ||
    event.altKey ||
    event.ctrlKey ||
    event.metaKey
  )
    return;
  if (!state.result) return;
  const steps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, j: 1, k: -1, PageDown: 10, PageUp: -10 };
  let next: number | undefined;
  if (event.key in steps) next = state.call + steps[event.key];
  else if (event.key === 'Home') next = 1;
  else if (event.key === 'End') next = state.result.calls.length;
  else if (event.key === 'e') next = nextEpoch(state.call, 1);
  else if (event.key === 'E') next = nextEpoch(state.call, -1);
  if (next === undefined) return;
  event.preventDefault();
  selectCall(next);
});

// ── numbers ──────────────────────────────────────────────────────────────────────────────
function renderNumbers(call: CallSummary, result: FoldResult): void {
  const settings = currentSettings();
  const rows: Array<[string, string, string]> = [
    ['history', `${call.historyLength} messages`, 'history-length'],
    ['view', `${call.viewMessages} messages`, 'view-messages'],
    ['prompt tokens (o200k)', formatTokens(call.viewTokens), 'view-tokens'],
    ['ceiling', formatTokens(settings.ceiling), 'ceiling'],
    ['raw history tokens', formatTokens(call.rawTokens), 'raw-tokens'],
    ['saved', call.rawTokens ? `${(100 - (100 * call.viewTokens) / call.rawTokens).toFixed(1)}%` : '–', 'saved'],
    ['shared prefix', `${call.sharedPrefixMessages} msgs · ${formatTokens(call.sharedPrefixTokens)}`, 'shared-prefix'],
    [
      'cache',
      call.cacheHot
        ? 'hot (prefix reused)'
        : call.epochReason
          ? `epoch: ${call.epochReason}${call.merged ? ' (merge)' : ''}`
          : 'cold',
      'cache-state',
    ],
    ['cache reads', formatTokens(call.cachedTokens), 'cached-tokens'],
    ['this call', `$${formatCost(call.cost)}`, 'call-cost'],
    ['bands · cards', `${call.bands} · ${call.recallCardsResident}`, 'bands'],
  ];
  clear(ui.callNumbers);
  for (const [term, value, id] of rows)
    ui.callNumbers.append(element('dt', {}, term), element('dd', { 'data-testid': id }, value));
  clear(ui.strategyBody);
  const index = call.call - 1;
  for (const series of result.strategies) {
    ui.strategyBody.append(
      element(
        'tr',
        { 'data-strategy': series.name },
        element('td', {}, element('span', { class: 'dot', style: `background: var(--s-${series.name})` }), series.name),
        element('td', { 'data-testid': `tokens-${series.name}` }, formatTokens(series.tokens[index])),
        element('td', { 'data-testid': `cost-${series.name}` }, formatCost(series.cumulativeCost[index])),
        element('td', { 'data-testid': `cache-${series.name}` }, `${series.cacheHitPercent[index].toFixed(1)}`),
        element('td', { 'data-testid': `retention-${series.name}` }, `${series.retentionPercent[index].toFixed(1)}%`),
      ),
    );
  }
}

// ── raw history ──────────────────────────────────────────────────────────────────────────
const rawList = new RawList(ui.rawList, $('raw-detail'));

function renderRaw(messages: readonly ProviderMessage[]): void {
  rawList.load(messages);
  ui.rawSummary.textContent = `(${messages.length} messages)`;
}

/** Shows the messages the call had seen; the list is virtual, so this costs the same for any history. */
function showRawUpTo(length: number): void {
  rawList.showFirst(length);
  ui.rawSummary.textContent = `(${length} of ${state.loaded?.messages.length ?? 0} messages seen by this call)`;
}

function revealRaw(index: number): void {
  rawList.reveal(index);
}

// ── the view at a call ───────────────────────────────────────────────────────────────────
function receiptOf(item: Extract<ViewItem, { kind: 'band' }>): FoldReceipt | undefined {
  return item.receipt >= 0 ? state.result?.receipts[item.receipt] : undefined;
}

/** Rendered view items by identity: consecutive calls share most of their view, so scrubbing moves nodes instead of building them. */
const itemNodes = new Map<string, HTMLLIElement>();
const ITEM_CACHE_LIMIT = 3_000;

function itemKey(item: ViewItem): string {
  if (item.kind === 'raw') return `raw:${item.index}`;
  if (item.kind === 'band') return item.receipt >= 0 ? `band:${item.receipt}:${item.band}` : `band:${item.text}`;
  return `${item.kind}:${item.text}`;
}

function itemNode(item: ViewItem, loaded: LoadedHistory): HTMLLIElement {
  const key = itemKey(item);
  let li = itemNodes.get(key);
  if (li) return li;
  li = element('li', { class: item.kind === 'band' ? 'band' : '', 'data-kind': item.kind });
  const marks = element('span', { class: 'marks' });
  if (item.kind === 'raw') {
    const message = loaded.messages[item.index];
    const text = messageText(message);
    li.append(
      element(
        'div',
        { class: 'item-head' },
        element('span', { class: 'role' }, `${messageRole(message)}`),
        element(
          'button',
          { type: 'button', class: 'link', 'data-raw': String(item.index), title: 'show in the raw history' },
          `raw #${messageNumber(item.index)}`,
        ),
        marks,
        element('span', { class: 'tokens' }, `${formatTokens(item.tokens)} tok`),
      ),
      element('pre', { class: 'item-text mono' }, text.length > 400 ? `${text.slice(0, 400)}…` : text),
    );
  } else if (item.kind === 'band') {
    li.append(renderBand(item, marks));
  } else {
    const label = {
      ack: 'acknowledgement',
      seed: 'rebirth seed',
      card: 'recall card',
      synthetic: 'clipped message',
      clipped: 'clipped message',
    }[item.kind];
    li.append(
      element(
        'div',
        { class: 'item-head' },
        element('span', { class: 'role' }, label),
        item.kind === 'card' ? element('span', { class: 'badge card' }, 'recall') : '',
        marks,
        element('span', { class: 'tokens' }, `${formatTokens(item.tokens)} tok`),
      ),
      element('pre', { class: 'item-text mono' }, item.text.length > 500 ? `${item.text.slice(0, 500)}…` : item.text),
    );
  }
  if (itemNodes.size >= ITEM_CACHE_LIMIT) itemNodes.clear();
  itemNodes.set(key, li);
  return li;
}

const SHARED_BADGE = () =>
  element('span', { class: 'badge hot', title: 'byte-identical to the previous call' }, 'shared');
const SEALED_BADGE = () =>
  element(
    'span',
    { class: 'badge epoch', title: 'last message of the sealed prefix: the cache breakpoint' },
    'sealed boundary',
  );

/** Main-thread time one view render may spend building new item nodes; the rest are built in the frames after. */
const BUILD_BUDGET_MS = 8;
let pendingBuild = 0;

function markItem(li: HTMLLIElement, position: number, call: CallSummary): void {
  const shared = position < call.sharedPrefixMessages;
  const boundary = call.sealedBoundary === position;
  li.classList.toggle('shared', shared);
  li.classList.toggle('boundary', boundary);
  li.dataset.position = String(position);
  const marks = li.querySelector('.marks');
  if (
    marks &&
    (marks.childElementCount !== Number(shared) + Number(boundary) ||
      marks.textContent !== `${shared ? 'shared' : ''}${boundary ? 'sealed boundary' : ''}`)
  )
    marks.replaceChildren(...(shared ? [SHARED_BADGE()] : []), ...(boundary ? [SEALED_BADGE()] : []));
}

function renderView(view: CallView): void {
  const result = state.result;
  const loaded = state.loaded;
  if (!result || !loaded || view.call !== state.call) return;
  cancelAnimationFrame(pendingBuild);
  const call = result.calls[view.call - 1];
  const list = ui.viewList;
  const started = performance.now();
  const nodes: HTMLLIElement[] = [];
  const seen = new Set<HTMLLIElement>();
  const later: Array<[number, ViewItem, HTMLLIElement]> = [];
  view.items.forEach((item, position) => {
    let li = itemNodes.get(itemKey(item));
    if (!li && performance.now() - started > BUILD_BUDGET_MS) {
      // a jump to a far call brings many new items: a placeholder now, the item in a later frame
      const placeholder = element(
        'li',
        { class: 'pending', 'data-kind': item.kind, 'data-position': String(position) },
        element('span', { class: 'muted' }, '…'),
      );
      later.push([position, item, placeholder]);
      nodes.push(placeholder);
      return;
    }
    li ??= itemNode(item, loaded);
    // the same message twice in one view (never expected) gets a node of its own
    if (seen.has(li)) li = li.cloneNode(true) as HTMLLIElement;
    seen.add(li);
    markItem(li, position, call);
    nodes.push(li);
  });
  list.replaceChildren(...nodes);
  ui.viewSummary.textContent = `(call ${view.call}: ${view.items.length} messages, ${formatTokens(call.viewTokens)} tokens)`;
  const build = () => {
    pendingBuild = 0;
    if (state.call !== view.call) return;
    const frameStart = performance.now();
    while (later.length && performance.now() - frameStart < BUILD_BUDGET_MS) {
      const [position, item, placeholder] = later.shift() as [number, ViewItem, HTMLLIElement];
      const li = itemNode(item, loaded);
      markItem(li, position, call);
      placeholder.replaceWith(li);
    }
    if (later.length) pendingBuild = requestAnimationFrame(build);
    else list.dataset.call = String(view.call);
  };
  if (later.length) pendingBuild = requestAnimationFrame(build);
  else list.dataset.call = String(view.call);
}

/** Closet identifiers shown before "show all". */
const CLOSET_SHOWN = 60;

/** Band lines shown before "show all": a band can hold hundreds. */
const BAND_LINES_SHOWN = 40;

function renderBand(item: Extract<ViewItem, { kind: 'band' }>, marks: HTMLElement): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const receipt = receiptOf(item);
  const band = receipt?.bands[item.band];
  const header = item.text.split('\n', 1)[0];
  fragment.append(
    element(
      'div',
      { class: 'item-head' },
      element('span', { class: 'role' }, 'fold band'),
      marks,
      element('span', { class: 'tokens' }, `${formatTokens(item.tokens)} tok`),
    ),
  );
  fragment.append(element('div', { class: 'mono' }, header));
  if (!band || !receipt) {
    fragment.append(element('pre', { class: 'item-text mono' }, item.text));
    return fragment;
  }
  const counts = { shown: 0, clipped: 0, counted: 0 };
  for (const call of band.toolCalls) counts[call.shown]++;
  fragment.append(
    element(
      'div',
      { class: 'receipt-meta', 'data-testid': 'receipt-meta' },
      `receipt: call ${receipt.call}, ${receipt.epochReason}${receipt.merged ? ' (merge)' : ''} · ${messageRange(band.messages[0], band.messages[1])} · ${formatTokens(band.tokensBefore)} → ${formatTokens(band.tokensAfter)} tokens · tool calls ${counts.shown} shown, ${counts.clipped} clipped, ${counts.counted} counted · ${band.identifiers.length} identifiers · ${band.rawDigest}`,
    ),
  );
  const lines = element('ul', { class: 'band-lines' });
  const addLines = (from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const line = band.lines[index];
      const button = element(
        'button',
        {
          type: 'button',
          class: 'line',
          'aria-expanded': 'false',
          'data-line': String(index),
          'data-kind': line.kind,
          'data-message': String(line.messageIndex),
          title: `from raw message #${messageNumber(line.messageIndex)}: click to expand`,
        },
        line.text,
      );
      lines.append(element('li', {}, button));
    }
  };
  addLines(0, Math.min(band.lines.length, BAND_LINES_SHOWN));
  const more =
    band.lines.length > BAND_LINES_SHOWN
      ? element('button', { type: 'button', class: 'more' }, `show all ${band.lines.length} lines`)
      : null;
  if (more)
    more.onclick = () => {
      more.remove();
      addLines(BAND_LINES_SHOWN, band.lines.length);
    };
  lines.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest('button.line') as HTMLButtonElement | null;
    if (!button) return;
    const line = band.lines[Number(button.dataset.line)];
    const open = button.getAttribute('aria-expanded') === 'true';
    const next = button.nextElementSibling;
    if (open) {
      next?.remove();
      button.setAttribute('aria-expanded', 'false');
      return;
    }
    const message = state.loaded?.messages[line.messageIndex];
    if (!message) return;
    const turn = element(
      'div',
      { class: 'raw-turn mono', 'data-testid': 'raw-turn', 'data-index': String(line.messageIndex) },
      element(
        'div',
        { class: 'item-head' },
        element('span', { class: 'role' }, `raw #${messageNumber(line.messageIndex)} ${messageRole(message)}`),
        element('button', { type: 'button', 'data-raw': String(line.messageIndex) }, 'show in raw history'),
      ),
      messageText(message),
    );
    button.after(turn);
    button.setAttribute('aria-expanded', 'true');
  });
  fragment.append(lines);
  if (more) fragment.append(more);
  const closet = band.identifiers.filter((identifier) => identifier.via === 'closet');
  if (closet.length) {
    const box = element(
      'div',
      { class: 'closet', role: 'list', 'aria-label': 'Coordinate Closet' },
      element('span', { class: 'muted' }, '⌖ closet'),
    );
    const add = (from: number, to: number) => {
      for (const identifier of closet.slice(from, to))
        box.append(
          element(
            'button',
            {
              type: 'button',
              role: 'listitem',
              'data-raw': String(identifier.messageIndex),
              title: `${identifier.kind}, from raw message #${messageNumber(identifier.messageIndex)}`,
            },
            identifier.value,
          ),
        );
    };
    add(0, CLOSET_SHOWN);
    if (closet.length > CLOSET_SHOWN) {
      const more = element('button', { type: 'button', class: 'more' }, `+${closet.length - CLOSET_SHOWN} more`);
      more.onclick = () => {
        more.remove();
        add(CLOSET_SHOWN, closet.length);
      };
      box.append(more);
    }
    fragment.append(box);
  }
  return fragment;
}

// every "show in raw" link, in the view and in expanded turns
ui.viewList.addEventListener('click', (event) => {
  const target = (event.target as HTMLElement).closest('[data-raw]') as HTMLElement | null;
  if (target) revealRaw(Number(target.dataset.raw));
});

// ── start ────────────────────────────────────────────────────────────────────────────────
const initial = new URLSearchParams(location.search).get('sample') ?? 'samples/pydicom-901.json';
if (initial !== 'none') void loadSample(initial, new URLSearchParams(location.search).get('pending') === '1');
