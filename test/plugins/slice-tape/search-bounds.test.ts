// recall_search's costs are bounded (ST-33, issue 32 item 14): a search costs one pass per query
// term over every document, and the query is the model's and the log grows for days, so 30,000
// terms over 9.8 MB of logged output took 3.1 s. Only the first MAX_SEARCH_TERMS distinct terms are
// searched, documents newest first while their work fits MAX_SEARCH_WORK, and the page says what
// either cap left out.

import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/host/index.js';
import { MAX_SEARCH_TERMS, MAX_SEARCH_WORK, search, SHOWN_QUERY_CHARS } from '../../../src/plugins/slice-tape/search.js';
import { engineText } from '../../../src/plugins/slice-tape/text.js';
import { callTool, tapeHost } from './support.js';

/** A turn with one tool result per text, oldest first (result seqs 3, 5, 7, …). */
function log(texts: readonly string[]): SessionEvent[] {
  const events: SessionEvent[] = [
    { seq: 0, type: 'turn/start', data: { turn: 1 } },
    { seq: 1, type: 'user/message', data: { id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } } },
  ] as unknown as SessionEvent[];
  texts.forEach((text, i) => {
    const callId = `c${i}`;
    events.push(
      { seq: events.length, type: 'tool/call', data: { turn: 1, step: 1, callId, name: 'read', arguments: '{}' } } as unknown as SessionEvent,
      { seq: events.length + 1, type: 'tool/result', data: { turn: 1, step: 1, message: { id: `m${i}`, role: 'user', content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }] }], source: { kind: 'tool', callId } } } } as unknown as SessionEvent,
    );
  });
  return events;
}

const terms = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}q`).join(' ');

describe('item 14: recall_search is bounded', () => {
  it(`ST-33 item 14: a query of 30,000 terms searches its first ${MAX_SEARCH_TERMS} distinct terms, and the page says so`, () => {
    const events = log(['has w3q here', 'has w40q here']);
    const outcome = search(events, terms(30_000), 'auto', ['tool_output'], 5, engineText);
    expect(outcome.bounds).toEqual({ terms: 30_000, searchedTerms: MAX_SEARCH_TERMS, skippedDocuments: 0, skippedChars: 0 });
    // w40q is beyond the first 32: only the result with w3q is a hit.
    expect(outcome.hits.map((h) => h.seq)).toEqual([3]);
  });

  it('ST-33 item 14: documents are searched newest first while their work fits the budget; the page names what was left out', () => {
    // With 32 terms a character costs 33 units: the newer result fits, the older one no longer does.
    const perChar = MAX_SEARCH_TERMS + 1;
    const newer = 'w0q '.padEnd(Math.floor(MAX_SEARCH_WORK / perChar) - 1000, 'x');
    const older = 'w1q '.padEnd(2000, 'y');
    const outcome = search(log([older, newer]), terms(MAX_SEARCH_TERMS), 'auto', ['tool_output'], 5, engineText);
    expect(outcome.bounds).toEqual({ terms: MAX_SEARCH_TERMS, searchedTerms: MAX_SEARCH_TERMS, skippedDocuments: 1, skippedChars: 2000 });
    expect(outcome.hits.map((h) => h.seq)).toEqual([5]);
    // One term leaves room for both.
    expect(search(log([older, newer]), 'w1q', 'auto', ['tool_output'], 5, engineText).hits.map((h) => h.seq)).toEqual([3]);
  });

  it('ST-33 item 14: the page says which caps applied and repeats at most 200 characters of the query', async () => {
    const host = tapeHost();
    await host.run('the word is zebra', [{ text: 'noted' }]);
    const query = `zebra ${terms(80)}`;
    const page = await callTool(host, 'recall_search', { query });
    const shown = JSON.stringify(query.slice(0, SHOWN_QUERY_CHARS));
    expect(page).toEqual({
      isError: false,
      text: [
        `[recall_search ${shown}… · 1 hit(s) over kinds user, assistant, context, tool_input, tool_error, tool_output · only the first ${MAX_SEARCH_TERMS} of its 81 distinct terms were searched · historical record; each hit ends with the call that returns its original]`,
        '- turn 1 [user] the word is zebra → recall_turn({"turn":"1","view":"dialogue"})',
      ].join('\n'),
    });
  });
});
