/**
 * The sessions of the cross-runtime replay, as JSON module imports so every runtime loads them
 * the same way (Vite in Node, Chromium and workerd; Deno natively): no file system needed.
 */
import claudeCode from '../fixtures/sessions/claudecode-console-bookminder-day008-s1.json' with { type: 'json' };
import sweBenchChat from '../fixtures/sessions/msa-ds-chat-dev-pydicom__pydicom-901.json' with { type: 'json' };
import sweBenchReasoner from '../fixtures/sessions/msa-ds-reasoner-dev-sqlfluff__sqlfluff-2419.json' with {
  type: 'json',
};
import sweAgent from '../fixtures/sessions/sweagent-gpt4-pydicom__pydicom-1458.json' with { type: 'json' };
import tauBench from '../fixtures/sessions/tau-airline-gpt-4o-task02-trial1.json' with { type: 'json' };
import marathonAnthropic from '../fixtures/synthetic/marathon-anthropic.json' with { type: 'json' };
import marathonGemini from '../fixtures/synthetic/marathon-gemini.json' with { type: 'json' };
import marathonOpenai from '../fixtures/synthetic/marathon-openai.json' with { type: 'json' };
import marathonLongOpenai from '../fixtures/synthetic/marathon-long-openai.json' with { type: 'json' };
import outageAnthropic from '../fixtures/synthetic/outage-anthropic.json' with { type: 'json' };
import outageGemini from '../fixtures/synthetic/outage-gemini.json' with { type: 'json' };
import outageOpenai from '../fixtures/synthetic/outage-openai.json' with { type: 'json' };
import type { ProviderMessage } from '../../src/index.ts';
import type { ReplaySession } from './runtime-replay.ts';

const session = (file: { id: string; messages: unknown }): ReplaySession => ({
  id: file.id,
  messages: file.messages as ProviderMessage[],
});

export const REPLAY_SESSIONS: readonly ReplaySession[] = [
  session(claudeCode),
  session(sweBenchChat),
  session(sweBenchReasoner),
  session(sweAgent),
  session(tauBench),
  session(outageOpenai),
  session(outageAnthropic),
  session(outageGemini),
  session(marathonOpenai),
  session(marathonAnthropic),
  session(marathonGemini),
  session(marathonLongOpenai),
];
