// Channel filters in the outermost agent/pre-step (CP-28..CP-30).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostEvent, SessionEventType, type PreStepDecision, type PreStepEvent, type UserMessage } from '../../../src/host/index.js';
import { builtinProfiles, type Profile } from '../../../src/plugins/context-profiles/index.js';
import * as workspaceContext from '../../../src/plugins/workspace-context/index.js';
import { createTestHost, type TestHost } from '../../../src/testing/index.js';
import { contextProfiles, reply } from '../../support/context-profiles.js';

function homeWith(channels: Profile['channels']): string {
  const dir = mkdtempSync(join(tmpdir(), 'cp-'));
  const profiles = builtinProfiles().map((p) => (p.id === 'lean' && channels ? { ...p, channels } : p));
  writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles, sessions: {} }));
  return dir;
}

let counter = 0;
const message = (kind: string, text: string): UserMessage => ({ id: `inj-${++counter}`, role: 'user', content: [{ type: 'text', text }], source: { kind } });

/** A stand-in for a preset's plugin that prepends its listener at load and adds messages after next(). */
function injector(host: TestHost, kinds: string[]): void {
  host.ctx.on(HostEvent.agentPreStep, async (_e: PreStepEvent, next: () => Promise<PreStepDecision>) => {
    const d = await next();
    if (d.kind !== 'enter') return d;
    return { kind: 'enter', messages: [...d.messages, ...kinds.map((k) => message(k, `${k} text`))] };
  }, { prepend: true });
}

function mount(home: string, options: { subagent?: boolean; instructions?: boolean } = {}) {
  const host = createTestHost({ dshHome: home, cwd: '/repo', files: { '/repo/.git/x': '', '/repo/AGENTS.md': 'project rules' }, subagent: options.subagent });
  if (options.instructions) host.use(workspaceContext, { maxBytes: 65536 });
  injector(host, ['time-context', 'workspace-instructions', 'other-kind']);
  const handle = host.use(contextProfiles, {});
  return { host, profiles: contextProfiles.mounted.get(handle.ctx)! };
}

const loggedKinds = (host: TestHost) => host.session.events
  .filter((e) => e.type === SessionEventType.userMessage)
  .map((e) => String(((e.data as UserMessage).source as { kind: string }).kind))
  // The runtime-context snapshot (kind `plugin`) is not a channel.
  .filter((kind) => kind !== 'plugin');

describe('channels (CP-28, CP-29)', () => {
  it('CP-28 CP-30 timeContext and workspaceInstructions drop both instruction kinds and time samples, nothing else; never logged', async () => {
    const { host } = mount(homeWith({ workspaceInstructions: 'off', timeContext: 'off' }), { instructions: true });
    await host.run('hi', reply);
    expect(loggedKinds(host)).toEqual(['user', 'other-kind']);
    expect(JSON.stringify(host.requests[0]!.messages)).not.toContain('project rules');
    // CP-30: channels do not touch runtime contexts: the snapshot still enters.
    expect(JSON.stringify(host.requests[0]!.messages)).toContain('Current runtime context.');
  });

  it('CP-14 CP-29 a session started under "none" keeps every channel when the user later picks a default whose channels are off', async () => {
    const dir = homeWith({ workspaceInstructions: 'off', timeContext: 'off' });
    writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'none', profiles: builtinProfiles().map((p) => (p.id === 'lean' ? { ...p, channels: { workspaceInstructions: 'off', timeContext: 'off' } } : p)), sessions: {} }));
    const { host, profiles } = mount(dir);
    await host.run('hi', reply);
    profiles.store.save({ lastUsedId: 'lean' });
    await host.run('again', reply);
    expect(loggedKinds(host)).toEqual(['user', 'time-context', 'workspace-instructions', 'other-kind', 'user', 'time-context', 'workspace-instructions', 'other-kind']);
  });

  it('CP-28 with no channels off every message enters (the workspace-context plugin emits agent-instructions)', async () => {
    const { host } = mount(homeWith(undefined), { instructions: true });
    await host.run('hi', reply);
    expect(loggedKinds(host)).toEqual(['user', 'agent-instructions', 'time-context', 'workspace-instructions', 'other-kind']);
  });

  it('CP-28 only timeContext off keeps instructions', async () => {
    const { host } = mount(homeWith({ timeContext: 'off' }));
    await host.run('hi', reply);
    expect(loggedKinds(host)).toEqual(['user', 'workspace-instructions', 'other-kind']);
  });

  it('CP-29 the filter stays outermost although the injector prepended itself earlier', async () => {
    const { host } = mount(homeWith({ timeContext: 'off' }));
    // A second prepending listener registered after mount but before the agent exists.
    host.ctx.on(HostEvent.agentPreStep, async (_e: PreStepEvent, next: () => Promise<PreStepDecision>) => {
      const d = await next();
      return d.kind === 'enter' ? { kind: 'enter', messages: [...d.messages, message('time-context', 'late')] } : d;
    }, { prepend: true });
    await host.run('hi', reply);
    expect(loggedKinds(host)).not.toContain('time-context');
  });

  it('CP-29 a sub-agent is never filtered', async () => {
    const { host } = mount(homeWith({ workspaceInstructions: 'off', timeContext: 'off' }), { subagent: true });
    await host.run('hi', reply);
    expect(loggedKinds(host)).toEqual(['user', 'time-context', 'workspace-instructions', 'other-kind']);
  });

  it('CP-29 channels follow the saved profile mid-session; recorded history is never rewritten', async () => {
    const { host, profiles } = mount(homeWith(undefined));
    await host.run('one', reply);
    const lean = profiles.store.profile('lean')!;
    profiles.store.save({ profiles: profiles.store.state.profiles.map((p) => (p === lean ? { ...p, channels: { timeContext: 'off' } } : p)) });
    await host.run('two', reply);
    expect(loggedKinds(host)).toEqual(['user', 'time-context', 'workspace-instructions', 'other-kind', 'user', 'workspace-instructions', 'other-kind']);
    expect(JSON.stringify(host.requests[1]!.messages)).toContain('time-context text');
  });

  it('CP-29 a session left unprocessed ("none") is not filtered', async () => {
    const dir = homeWith({ timeContext: 'off' });
    const { host, profiles } = mount(dir);
    await host.start();
    profiles.choose('session-1', 'none');
    await host.run('hi', reply);
    expect(loggedKinds(host)).toContain('time-context');
  });
});
