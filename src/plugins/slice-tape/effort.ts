// The reasoning-effort default (spec ST-10): injected only where nobody chose, and only when the
// resolved model declares that level; the host rejects an undeclared effort, so injecting blind
// would fail every request of the session.

import type { Context } from '../../host/cordis.js';
import { declaredEfforts, type AgentRequestEvent, type LlmCallConfig, type LlmService } from '../../host/model.js';
import { HostEvent, HostService } from '../../host/names.js';
import type { ReasoningEffortDefault } from './config.js';

/**
 * Registers the `agent/request` listener. An explicit effort (from the host or an inner listener)
 * always wins and `inherit` injects nothing; otherwise the default is injected when the model
 * declares it, the adapter default is kept when the capability is unknown, and a model whose
 * declared levels lack it gets one warning per route and nothing injected.
 */
export function applyEffortDefault(ctx: Context, effort: ReasoningEffortDefault): void {
  if (effort === 'inherit') return;
  const warned = new Set<string>();
  ctx.on(HostEvent.agentRequest, async (event: AgentRequestEvent, next: () => Promise<LlmCallConfig>): Promise<LlmCallConfig> => {
    const proposed = await next();
    if (proposed.reasoningEffort !== undefined) return proposed;
    const declared = await declaredEfforts(ctx.get(HostService.llm) as LlmService | undefined, proposed.provider, proposed.model, event.signal);
    if (declared === undefined) return proposed;
    if (declared.includes(effort)) return { ...proposed, reasoningEffort: effort };
    const route = `${proposed.provider}/${proposed.model}`;
    if (!warned.has(route)) {
      warned.add(route);
      ctx.logger.warn('slice tape: defaultReasoningEffort=%s is not declared by %s (declared: %s); keeping the adapter default', effort, route, declared.join(', ') || 'none');
    }
    return proposed;
  });
}
