/**
 * The browser chat example: how a chat app in a page embeds warpfold. The raw history and the
 * session's saved state live in IndexedDB, stored through `warpfold/storage/indexeddb`; before every model call `FoldSession` folds the
 * history and the request marks Anthropic cache breakpoints at the sealed boundary and at the end.
 * With a pasted key the page calls Anthropic directly (the key stays in this page's memory);
 * without one it replays a recorded Claude Code session, call by call.
 */
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { createIndexedDbStore, type IndexedDbStorage } from '../../src/storage/indexeddb.ts';
import type { JsonValue } from '../../src/storage/index.ts';
import { readTranscript } from '../../src/transcripts/index.ts';
import { markAnthropicBreakpoints, type AnthropicRequest } from './chat/breakpoints.ts';
import { clear, element, formatTokens, messageNumber } from './ui/dom.ts';
import { messageRole, messageText } from './ui/message-text.ts';
import { applyStoredTheme, toggleTheme } from './ui/theme.ts';

const RECORDED_SESSION = 'samples/claude-code-57bb5674.jsonl';
/** The page's database, laid out by `warpfold/storage/indexeddb`; the conversation is one stored session. */
export const CHAT_DATABASE = 'warpfold-chat-store';
export const CHAT_SESSION_ID = 'chat';
/** Where earlier builds kept the conversation with raw IndexedDB; read once, moved, then deleted. */
const LEGACY_DATABASE = 'warpfold-chat';
/** Version of the stored conversation record; a record of another version is migrated or dropped, never misread. */
const RECORD_VERSION = 1;

interface StoredConversation {
  readonly version: typeof RECORD_VERSION;
  readonly messages: ProviderMessage[];
  /** Index of the next recorded message to replay; null once the user talks to the model live. */
  readonly replayAt: number | null;
  /** `session.snapshot()` after the last call, so a reload resumes the fold byte for byte. */
  readonly session: string | null;
  readonly ceiling: number;
  readonly lastRequest: AnthropicRequest | null;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  error: $('error'),
  key: $<HTMLInputElement>('api-key'),
  model: $<HTMLInputElement>('model'),
  ceiling: $<HTMLInputElement>('ceiling'),
  step: $<HTMLButtonElement>('replay-step'),
  all: $<HTMLButtonElement>('replay-all'),
  reset: $<HTMLButtonElement>('reset'),
  status: $('status'),
  history: $<HTMLOListElement>('history'),
  historyCount: $('history-count'),
  request: $<HTMLOListElement>('request'),
  requestSummary: $('request-summary'),
  composer: $<HTMLFormElement>('composer'),
  prompt: $<HTMLTextAreaElement>('prompt'),
  theme: $<HTMLButtonElement>('theme-button'),
};
applyStoredTheme(ui.theme);
ui.theme.addEventListener('click', () => toggleTheme(ui.theme));

let storage: IndexedDbStorage;
let recorded: ProviderMessage[] = [];
let conversation: StoredConversation;
let session: FoldSession;

function showError(message: string): void {
  ui.error.textContent = message;
  ui.error.hidden = !message;
}

function emptyConversation(ceiling: number): StoredConversation {
  return { version: RECORD_VERSION, messages: [], replayAt: 0, session: null, ceiling, lastRequest: null };
}

function readStored(value: unknown): StoredConversation | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Partial<StoredConversation>;
  if (record.version !== RECORD_VERSION || !Array.isArray(record.messages)) return null;
  return record as StoredConversation;
}

function newSession(ceiling: number, restored: string | null): FoldSession {
  const options = { pressureCeiling: ceiling };
  if (restored) {
    try {
      return new FoldSession({ ...options, restoredState: restored });
    } catch (error) {
      // a saved state this build cannot read: fold afresh rather than misread it
      showError(
        `The saved fold state could not be restored (${error instanceof Error ? error.message : String(error)}); folding afresh.`,
      );
    }
  }
  return new FoldSession(options);
}

async function save(): Promise<void> {
  await storage.sessions.save(CHAT_SESSION_ID, conversation as unknown as JsonValue);
}

/** The conversation an earlier build kept in its own database, if there is one; the old database is deleted once read. */
async function legacyConversation(): Promise<StoredConversation | null> {
  if (
    typeof indexedDB.databases === 'function' &&
    !(await indexedDB.databases()).some((database) => database.name === LEGACY_DATABASE)
  )
    return null;
  const value = await new Promise<unknown>((resolve) => {
    const open = indexedDB.open(LEGACY_DATABASE);
    open.onerror = () => resolve(undefined);
    open.onsuccess = () => {
      const database = open.result;
      if (!database.objectStoreNames.contains('conversation')) {
        database.close();
        return resolve(undefined);
      }
      const read = database.transaction('conversation').objectStore('conversation').get('current');
      read.onsuccess = () => {
        database.close();
        resolve(read.result);
      };
      read.onerror = () => {
        database.close();
        resolve(undefined);
      };
    };
  });
  indexedDB.deleteDatabase(LEGACY_DATABASE);
  return readStored(value);
}

/** Folds the history, marks the breakpoints: the request the model would get. */
function prepareRequest(): AnthropicRequest {
  const outcome = session.prepare(conversation.messages);
  return markAnthropicBreakpoints(outcome, ui.model.value.trim() || 'claude-sonnet-4-5');
}

/** One recorded call: the messages up to the next assistant reply, a fold, then the recorded reply. */
async function replayStep(): Promise<boolean> {
  let at = conversation.replayAt;
  if (at === null || at >= recorded.length) return false;
  const messages = [...conversation.messages];
  // the user's message (and tool results) before the next reply
  do messages.push(recorded[at++]);
  while (at < recorded.length && (recorded[at] as { role?: string }).role !== 'assistant');
  conversation = { ...conversation, messages };
  const request = prepareRequest();
  if (at < recorded.length) messages.push(recorded[at++]);
  conversation = { ...conversation, messages, replayAt: at, session: session.snapshot(), lastRequest: request };
  await save();
  render();
  return at < recorded.length;
}

async function sendLive(text: string): Promise<void> {
  const key = ui.key.value.trim();
  conversation = {
    ...conversation,
    replayAt: null,
    messages: [...conversation.messages, { role: 'user', content: text }],
  };
  const request = prepareRequest();
  conversation = { ...conversation, session: session.snapshot(), lastRequest: request };
  await save();
  render();
  ui.status.textContent = 'waiting for the model…';
  const response = await fetch('https://api.anthropic.com/v1/messages', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    },
    body: JSON.stringify(request.body),
  });
  if (!response.ok) {
    ui.status.textContent = '';
    return showError(`Anthropic answered ${response.status}: ${(await response.text()).slice(0, 400)}`);
  }
  const reply = (await response.json()) as {
    content: unknown[];
    usage?: { input_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  };
  conversation = {
    ...conversation,
    messages: [...conversation.messages, { role: 'assistant', content: reply.content }],
  };
  await save();
  const usage = reply.usage;
  ui.status.textContent = usage
    ? `input ${usage.input_tokens} · cache read ${usage.cache_read_input_tokens ?? 0} · cache write ${usage.cache_creation_input_tokens ?? 0}`
    : '';
  render();
}

function render(): void {
  clear(ui.history);
  const fragment = document.createDocumentFragment();
  conversation.messages.forEach((message, index) => {
    const text = messageText(message);
    fragment.append(
      element(
        'li',
        { 'data-index': String(index) },
        element(
          'div',
          { class: 'item-head' },
          element('span', { class: 'role' }, `#${messageNumber(index)} ${messageRole(message)}`),
        ),
        element('pre', { class: 'item-text mono' }, text.length > 500 ? `${text.slice(0, 500)}…` : text),
      ),
    );
  });
  ui.history.append(fragment);
  // rows off screen are laid out at an estimated height (content-visibility), so scrollHeight is
  // not yet the real bottom: bring the newest row itself into view once it is laid out
  const newest = ui.history.lastElementChild;
  if (newest) requestAnimationFrame(() => newest.scrollIntoView({ block: 'end' }));
  ui.historyCount.textContent = `(${conversation.messages.length} messages)`;
  clear(ui.request);
  const request = conversation.lastRequest;
  if (!request) {
    ui.requestSummary.textContent = '(none yet)';
  } else {
    request.messages.forEach((message, index) => {
      const marked = request.breakpoints.includes(index);
      const text = messageText(message as ProviderMessage);
      ui.request.append(
        element(
          'li',
          { class: marked ? 'breakpoint' : '', 'data-breakpoint': String(marked) },
          element(
            'div',
            { class: 'item-head' },
            element('span', { class: 'role' }, `${messageRole(message as ProviderMessage)}`),
            marked ? element('span', { class: 'badge card' }, 'cache_control') : '',
          ),
          element('pre', { class: 'item-text mono' }, text.length > 400 ? `${text.slice(0, 400)}…` : text),
        ),
      );
    });
    ui.requestSummary.textContent = `(${request.messages.length} messages for ${conversation.messages.length} raw · ~${formatTokens(request.estimatedTokens)} tokens · breakpoints at ${request.breakpoints.join(', ') || 'none'}${request.cacheHot ? ' · prefix reused' : ''})`;
  }
  const replaying = conversation.replayAt !== null && conversation.replayAt < recorded.length;
  ui.step.disabled = ui.all.disabled = !replaying;
  if (!ui.status.textContent?.startsWith('input'))
    ui.status.textContent = replaying
      ? `replay: ${conversation.replayAt} of ${recorded.length} recorded messages`
      : conversation.replayAt === null
        ? 'live'
        : 'replay finished';
}

async function start(): Promise<void> {
  storage = createIndexedDbStore({ name: CHAT_DATABASE });
  const response = await fetch(RECORDED_SESSION);
  recorded = readTranscript(await response.text(), { fileName: RECORDED_SESSION }).messages;
  const ceiling = Number(ui.ceiling.value) || 6000;
  const stored = readStored((await storage.sessions.load(CHAT_SESSION_ID))?.state);
  const legacy = stored ? null : await legacyConversation();
  conversation = stored ?? legacy ?? emptyConversation(ceiling);
  if (legacy) await save();
  ui.ceiling.value = String(conversation.ceiling);
  session = newSession(conversation.ceiling, conversation.session);
  document.body.dataset.ready = 'true';
  render();
}

ui.step.addEventListener('click', () => void replayStep().catch((error: unknown) => showError(String(error))));
ui.all.addEventListener('click', async () => {
  ui.all.disabled = true;
  try {
    // one call per frame, so the page keeps painting while it replays
    while (await replayStep()) await new Promise((resolve) => requestAnimationFrame(resolve));
  } catch (error) {
    showError(String(error));
  }
});
ui.reset.addEventListener('click', async () => {
  const ceiling = Math.max(1000, Number(ui.ceiling.value) || 6000);
  conversation = emptyConversation(ceiling);
  session = newSession(ceiling, null);
  await save();
  showError('');
  render();
});
ui.composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = ui.prompt.value.trim();
  if (!text) return;
  // without a key nothing is sent: the typed message stays where it was, and the page says why
  if (!ui.key.value.trim())
    return showError(
      'Paste an Anthropic API key to talk to the model; without one, use Replay. Your message is still in the box.',
    );
  showError('');
  ui.prompt.value = '';
  sendLive(text).catch((error: unknown) =>
    showError(`The call failed: ${error instanceof Error ? error.message : String(error)}`),
  );
});

start().catch((error: unknown) =>
  showError(`The chat could not start: ${error instanceof Error ? error.message : String(error)}`),
);
