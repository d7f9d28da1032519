/**
 * The dialect-parity bench: real chat sessions converted into Responses items and AI SDK
 * messages convert back unchanged, and folding them in their own dialect gives folds of the same
 * size and retention as folding the chat session.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SESSIONS, dialectMarkdown, DIALECT_NAMES, runDialects, type DialectReport } from '../dialects.ts';
import { SessionConverter } from '../dialects/convert-session.ts';
import { loadSessions } from '../corpus/load-sessions.ts';
import { renderedMessage } from '../../src/baselines/message-tokens.ts';
import { detectDialect } from '../../src/messages/index.ts';

const sessions = loadSessions(BUNDLED_SESSIONS);

describe('session conversion', () => {
  it.each(['openai-responses', 'ai-sdk'] as const)(
    'every bundled session converts into %s and back to the same rendering',
    (dialect) => {
      expect(sessions.length).toBeGreaterThan(4);
      for (const session of sessions) {
        const converter = new SessionConverter(dialect);
        const converted = converter.toDialect(session.messages);
        expect(detectDialect(converted as never), session.file).toBe(dialect);
        expect(converter.toChat(converted).map(renderedMessage).join(''), session.file).toBe(
          session.messages.map(renderedMessage).join(''),
        );
        // a growing history reuses the converted objects of the messages it already had
        const shorter = converter.toDialect(session.messages.slice(0, Math.floor(session.messages.length / 2)));
        shorter.slice(0, -1).forEach((item, index) => expect(item).toBe(converted[index]));
      }
    },
  );
});

describe('dialect parity on real sessions', () => {
  let report: DialectReport;
  let rows: DialectReport['ceilings'][number]['rows'];
  beforeAll(() => {
    report = runDialects({
      only: [
        'tau-airline-gpt-4o-task02-trial1',
        'sweagent-gpt4-pydicom__pydicom-1458',
        'msa-ds-chat-test-django__django-10914',
      ],
      ceilings: [8_000],
    });
    rows = report.ceilings[0].rows;
  }, 120_000);

  it("folds every dialect under the ceiling with the chat folds' size and retention", () => {
    expect(rows.openai.calls).toBeGreaterThan(50);
    for (const dialect of DIALECT_NAMES) {
      const row = rows[dialect];
      expect(row.errors, dialect).toBe(0);
      expect(row.overCeilingCalls, dialect).toBe(0);
      expect(row.calls, dialect).toBe(rows.openai.calls);
      expect(row.viewTokensVsChat, dialect).toBeGreaterThan(0.95);
      expect(row.viewTokensVsChat, dialect).toBeLessThan(1.05);
      expect(Math.abs((row.retentionPercent ?? 0) - (rows.openai.retentionPercent ?? 0)), dialect).toBeLessThanOrEqual(
        1,
      );
      expect(
        Math.abs((row.farContextPercent ?? 0) - (rows.openai.farContextPercent ?? 0)),
        dialect,
      ).toBeLessThanOrEqual(5);
      expect(row.identicalViewPercent, dialect).toBeGreaterThan(40);
    }
    expect(rows.openai.identicalViewPercent).toBe(100);
  });

  it('reports a table', () => {
    expect(dialectMarkdown(report)).toMatch(/^# Dialect parity[\s\S]*\| 8,000 \| openai-responses \|/);
  });
});
