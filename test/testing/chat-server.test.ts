// The scripted OpenAI-compatible model of the real-DSH driver (src/testing/real-dsh/chat-server.ts):
// it answers agent steps from the script, in order, also when told to take its time as a real model does.

import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedChatServer } from '../../src/testing/index.js';

const open: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Posts one agent-step request and returns the streamed text deltas. */
async function ask(base: string): Promise<string> {
  const response = await fetch(`${base}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [], tools: [], stream: true }) });
  const body = await response.text();
  return body.split('\n').filter((l) => l.startsWith('data: {')).map((l) => (JSON.parse(l.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '').join('');
}

describe('ScriptedChatServer', () => {
  it('answers agent steps from the script, in order, with or without a latency', async () => {
    for (const latencyMs of [0, 20]) {
      const server = new ScriptedChatServer({ latencyMs });
      open.push(server);
      const base = await server.listen();
      server.load([{ text: 'one' }, { text: 'two' }]);
      expect(await ask(base)).toBe('one');
      expect(await ask(base)).toBe('two');
      expect(server.requests).toHaveLength(2);
      expect(server.errors).toEqual([]);
    }
  });

  it('issue 30: a responder answers every agent step after the loaded answers, from the request, until it is cleared', async () => {
    const server = new ScriptedChatServer();
    open.push(server);
    const base = await server.listen();
    server.load([{ text: 'scripted' }]);
    let seen = 0;
    server.respond((request) => ({ text: `answer ${++seen} to ${request.messages.length} messages` }));
    expect([await ask(base), await ask(base), await ask(base)]).toEqual(['scripted', 'answer 1 to 0 messages', 'answer 2 to 0 messages']);
    expect(server.remaining).toBe(0);
    server.reset();
    await ask(base);
    expect(server.errors).toEqual(['scripted model: no answer left for agent request 4']);
  });

  it('refuses a latency that is not a finite number of at least 0, naming it', () => {
    expect(() => new ScriptedChatServer({ latencyMs: -1 })).toThrow('scripted model: latencyMs is -1; it must be a finite number of at least 0');
    expect(() => new ScriptedChatServer({ latencyMs: Number.NaN })).toThrow('scripted model: latencyMs is NaN; it must be a finite number of at least 0');
  });
});
