// What the model receives from DSH's DeepSeek adapter for a request of the simulated host: the
// chat-completions `messages` and `tools` real DSH would send for the same system prompt, history
// and tool schemas. This makes requests of the two hosts comparable byte for byte (the
// differential test). The mapping, as DSH rc.8's adapter does it: the system prompt first; a user
// message's text blocks joined, then each of its tool results as its own `tool` message (empty
// output as `(no output)`); an assistant message's text, its reasoning as `reasoning_content` and
// its tool calls as `tool_calls`, the last two only when present.

import type { ContentBlock, Message } from '../host/message.js';
import type { ToolSchema } from '../host/tools.js';
import type { ChatMessage, ChatTool } from './real-dsh/chat-server.js';
import type { ModelRequest } from '../offline-host/model.js';

const joined = (blocks: readonly ContentBlock[], type: 'text' | 'reasoning'): string =>
  blocks.flatMap((b) => (b.type === type ? [b.text] : [])).join('');

/**
 * The chat-completions messages DSH's DeepSeek adapter builds from a system prompt and a history.
 * @param system - the assembled system prompt (none when undefined).
 * @param messages - the model-visible history.
 * @returns the wire messages, in order.
 */
export function chatMessages(system: string | undefined, messages: readonly Message[]): ChatMessage[] {
  const wire: ChatMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'system') {
      wire.push({ role: 'system', content: joined(message.content, 'text') });
    } else if (message.role === 'assistant') {
      const reasoning = joined(message.content, 'reasoning');
      const calls = message.content.flatMap((b) => (b.type === 'tool-call' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: b.arguments } }] : []));
      wire.push({ role: 'assistant', content: joined(message.content, 'text'), ...(reasoning !== '' ? { reasoning_content: reasoning } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else {
      const text = joined(message.content, 'text');
      const results = message.content.filter((b): b is Extract<ContentBlock, { type: 'tool-result' }> => b.type === 'tool-result');
      if (text !== '' || results.length === 0) wire.push({ role: 'user', content: text });
      for (const result of results) wire.push({ role: 'tool', tool_call_id: result.toolCallId, content: joined(result.content, 'text') || '(no output)' });
    }
  }
  return wire;
}

/**
 * The chat-completions tool list DSH's adapter builds from tool schemas.
 * @param tools - the schemas the model is offered.
 * @returns `{ type: 'function', function: { name, description, parameters } }` per tool.
 */
export function chatTools(tools: readonly ToolSchema[]): ChatTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/**
 * A simulated host's model request as the model would receive it from real DSH.
 * @param request - one of `TestHost.requests`.
 * @returns its `messages` and `tools` on the wire.
 */
export function chatRequest(request: ModelRequest): { messages: ChatMessage[]; tools: ChatTool[] } {
  return { messages: chatMessages(request.system === '' ? undefined : request.system, request.messages), tools: chatTools(request.tools) };
}
