// The simulated host held to real DSH (issue "Real DSH is the judge"): the same scripted scenarios
// run on real DSH 0.1.0-rc.8 (our tarball installed with `dsh plugin add`) and on `createTestHost`
// (the same plugin modules from src, the same row configs from our bundle patch, the same files on
// a real disk, the headless profile's two runtime contexts), and the model requests must be equal.
// What only one host has is set aside, and nothing else: DSH's system prompt and its own tools (the
// simulated host has a small stand-in set) and the text of Code Mode's results (the simulated
// `run_code` runs a list of calls, not code). Both run at the same paths. Ids are normalized: the temporary root, and log seqs (DSH logs bookkeeping
// events the simulated host does not: each distinct seq becomes `<seq-n>` by first appearance, so
// two references to one event still match and references to different events still differ).
// Everything our plugins put in front of the model — their messages, their position, their tools'
// schemas and results — and DSH's runtime-context snapshots must match byte for byte.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HostContextName, projectKey, type PluginModule } from '../../src/host/index.js';
import { createNodeFileSystem } from '../../src/fs/index.js';
import * as autoMemory from '../../src/plugins/auto-memory/index.js';
import * as contextProfiles from '../../src/plugins/context-profiles/index.js';
import * as sliceTape from '../../src/plugins/slice-tape/index.js';
import * as workspaceContext from '../../src/plugins/workspace-context/index.js';
import { chatRequest, createTestHost, type ChatMessage, type ChatTool, type StepAnswer, type TestHost } from '../../src/testing/index.js';
import { memory } from '../plugins/auto-memory/support.js';
import { dshHost, stderrOf } from './support.js';

const MODULES: Record<string, PluginModule> = {
  'workspace-context': workspaceContext as unknown as PluginModule,
  'auto-memory': autoMemory as unknown as PluginModule,
  'slice-tape': sliceTape as unknown as PluginModule,
  'context-profiles': contextProfiles as unknown as PluginModule,
};
/** The tools our plugins register; DSH's own tools differ between the hosts by design. */
const OUR_TOOLS = ['memory', 'recall_turn', 'recall_step', 'recall_search', 'expand_result', 'tool_search'];
/** DSH's own tools whose result text the simulated host does not reproduce (its `run_code` runs a list of calls, not code). */
const HOST_TOOLS = ['run_code'];

/** The rows our bundle patch inserts, with their shipped configs. */
const BUNDLE = new Map((parse(readFileSync(new URL('../../cordis.patch.yml', import.meta.url), 'utf8')) as { insert?: { id: string; config?: unknown }[] }[])
  .flatMap((entry) => entry.insert ?? []).map((row) => [row.id, row.config]));

const roots: string[] = [];

type Step =
  | { readonly run: string; readonly script: readonly StepAnswer[] }
  | { readonly restart: true }
  | { readonly newSession: true }
  | { readonly write: string; readonly text: string };

interface Scenario {
  readonly rows: readonly string[];
  readonly files: Readonly<Record<string, string>>;
  readonly homeFiles?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly steps: readonly Step[];
  /** Row configs to use instead of the bundle's, on both hosts. */
  readonly configs?: Readonly<Record<string, Record<string, unknown>>>;
}

interface Comparable {
  readonly messages: unknown[];
  readonly tools: ChatTool[];
}

/** The route DSH's headless profile resolves by default (its DeepSeek adapter and default model). */
const DSH_ROUTE = { provider: 'deepseek-official', model: 'deepseek-v4-flash' };
/** Every answer reports the same token counts to both hosts (DSH logs them on the assistant message). */
const withUsage = (answer: StepAnswer): StepAnswer => ({ ...answer, usage: { inputTokens: 1, outputTokens: 1 } });
/** Message ids: DSH mints UUIDs, the simulated host counters. */
const MESSAGE_ID = /"id\\?":\\?"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|msg-\d+)\\?"/g;

/** Log seqs as model-visible text shows them: `seq 23`, `{"seq":23`. */
const SEQ = /(\bseq |\{"seq":)(\d+)/g;

/**
 * Sets aside what only one host has (see the file comment), the temporary root and seq values;
 * `seqs` numbers distinct seqs across one host's whole run.
 */
function comparable(root: string, seqs: Map<string, string>, ids: Map<string, string>, messages: readonly ChatMessage[], tools: readonly ChatTool[]): Comparable {
  const names = new Map<string, string>();
  for (const m of messages) for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
  const seqOf = (seq: string) => seqs.get(seq) ?? (seqs.set(seq, `<seq-${seqs.size + 1}>`), seqs.get(seq)!);
  const kept = messages
    .filter((m) => m.role !== 'system')
    .map((m) => (m.role === 'tool' && HOST_TOOLS.includes(names.get(m.tool_call_id!) ?? '') ? { ...m, content: `<${names.get(m.tool_call_id!)} result>` } : m))
    .map((m) => (typeof m.content === 'string' ? { ...m, content: m.content.replace(SEQ, (_all, lead: string, seq: string) => `${lead}${seqOf(seq)}`) } : m));
  const text = JSON.stringify({ messages: kept, tools: tools.filter((t) => OUR_TOOLS.includes(t.function.name)) })
    .replaceAll(root, '<root>')
    .replaceAll(projectKey(join(root, 'work')), '<project-key>')
    .replace(MESSAGE_ID, (all, id: string) => all.replace(id, ids.get(id) ?? (ids.set(id, `<id-${ids.size + 1}>`), ids.get(id)!)));
  return JSON.parse(text) as Comparable;
}

/**
 * Runs the scenario on real DSH, then stops it and keeps its temporary root for the simulated run:
 * DSH's tools put absolute paths in their results (and slice-tape fingerprints them), so both hosts
 * run at the very same paths.
 */
async function onRealDsh(scenario: Scenario): Promise<{ requests: Comparable[]; root: string }> {
  const host = dshHost({ files: scenario.files, homeFiles: scenario.homeFiles, cwd: scenario.cwd, keep: true });
  roots.push(host.root);
  for (const row of scenario.rows) host.use(row, scenario.configs?.[row]);
  // The simulated host has no instruction loader of DSH's: a scenario without workspace-context runs
  // without one on both hosts (choosing rows leaves DSH's own loader on otherwise).
  if (!scenario.rows.includes('workspace-context')) host.patch({ id: 'agent-instructions', disabled: true });
  for (const step of scenario.steps) {
    if ('run' in step) await host.run(step.run, step.script.map(withUsage));
    else if ('restart' in step) await host.restart();
    else if ('newSession' in step) await host.newSession();
    else host.write(step.write, step.text);
  }
  expect(stderrOf(host)).toBe('');
  const seqs = new Map<string, string>();
  const ids = new Map<string, string>();
  const requests = host.requests.map((r) => comparable(host.root, seqs, ids, r.messages, r.tools ?? []));
  await host.close();
  return { requests, root: host.root };
}

/** The runtime contexts DSH's headless profile registers (its sandbox and approval policies), as it words them. */
function headlessRuntimeContexts(host: TestHost, cwd: string): void {
  host.ctx.systemPrompt.context({ name: HostContextName.sandboxPolicy, order: 0, text: `Current DSH file policy: workspace-write. Any available operation enforced by the DSH file sandbox may modify files under the session workspace: "${cwd}". Some platform temporary areas may also be writable.` });
  host.ctx.systemPrompt.context({ name: HostContextName.approvalPolicy, order: 1, text: 'Approval policy: ask. Operations that require approval may ask through the configured answerers; without an available answerer, the request fails closed.' });
}


afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Runs the scenario on the simulated host in `root`, emptied and laid out again as real DSH's was. */
async function onSimulatedHost(scenario: Scenario, root: string): Promise<Comparable[]> {
  rmSync(root, { recursive: true, force: true });
  const home = join(root, 'home');
  const workspace = join(root, 'work');
  const cwd = join(workspace, scenario.cwd ?? '.');
  const put = (base: string, files: Readonly<Record<string, string>>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    }
  };
  put(home, scenario.homeFiles ?? {});
  put(workspace, scenario.files);
  // A git work tree, as the real host's (context-profiles samples its branch and status).
  const git = spawnSync('git', ['init', '-q'], { cwd: workspace });
  if (git.status !== 0) throw new Error(`git init failed in ${workspace}`);
  mkdirSync(cwd, { recursive: true });
  const fs = createNodeFileSystem({ cwd });
  const requests: Comparable[] = [];
  const seqs = new Map<string, string>();
  const ids = new Map<string, string>();
  let host: TestHost | undefined;
  let sent = 0;
  const collect = () => {
    for (const r of host?.requests.slice(sent) ?? []) {
      const wire = chatRequest(r);
      requests.push(comparable(root, seqs, ids, wire.messages, wire.tools));
    }
    sent = host?.requests.length ?? 0;
  };
  const open = (): TestHost => {
    collect();
    host?.dispose();
    sent = 0;
    const next = createTestHost({ cwd, fs, homedir: home, processCwd: cwd, sessionId: `session-${requests.length}`, agentOptions: DSH_ROUTE });
    headlessRuntimeContexts(next, cwd);
    for (const row of scenario.rows) next.use(MODULES[row]!, scenario.configs?.[row] ?? BUNDLE.get(row));
    return next;
  };
  host = open();
  for (const step of scenario.steps) {
    if ('run' in step) await host.run(step.run, step.script.map(withUsage));
    else if ('restart' in step) await host.resume();
    else if ('newSession' in step) host = open();
    else writeFileSync(join(workspace, step.write), step.text);
  }
  collect();
  host.dispose();
  return requests;
}

const files = {
  'AGENTS.md': '# Root\nUse pnpm.\n', 'CLAUDE.md': '# Claude\nSmall diffs.\n', 'src/AGENTS.md': '# Src\nStrict TS.\n', 'src/a.ts': 'export const a = 1;\n',
  'src/deep/AGENTS.local.md': '# Deep\nLocal.\n', 'src/deep/b.ts': 'b\n', '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule.\n',
  '.claude/rules/always.md': 'Always rule.\n',
};
const homeFiles = { '.dsh/AGENTS.md': '# Me\nBrief.\n' };
const read = (path: string, id: string): StepAnswer => ({ tools: [{ name: 'read', id, input: { file_path: path } }] });

describe('the simulated host makes the requests real DSH makes (differential)', () => {
  it.each<[string, Scenario]>([
    ['workspace-context: baseline chain from a sub-directory, nested discovery after reads, an offline edit across a restart', {
      rows: ['workspace-context'], files, homeFiles, cwd: 'src',
      steps: [
        { run: 'hello', script: [read('deep/b.ts', 'c1'), { text: 'one' }] },
        { restart: true },
        { write: 'src/AGENTS.md', text: '# Src\nStricter TS.\n' },
        { run: 'again', script: [read('a.ts', 'c2'), { text: 'two' }] },
      ],
    }],
    ['auto-memory: the memory tool, rules after a read, the index in the next session', {
      rows: ['auto-memory'], files,
      steps: [
        { run: 'remember', script: [
          { tools: [{ name: 'memory', id: 'c1', input: { command: 'create', path: '/memories/pnpm.md', file_text: memory('pnpm', 'use pnpm') } }] },
          { tools: [{ name: 'memory', id: 'c2', input: { command: 'str_replace', path: '/memories/pnpm.md', old_str: 'Body.', new_str: 'Always pnpm.' } }] },
          read('src/a.ts', 'c3'),
          { tools: [{ name: 'memory', id: 'c4', input: { command: 'view', path: '/memories' } }] },
          { text: 'ok' },
        ] },
        { newSession: true },
        { run: 'next day', script: [{ tools: [{ name: 'memory', id: 'c5', input: { command: 'view', path: '/memories/pnpm.md' } }] }, { text: 'ok' }] },
      ],
    }],
    ['all four plugins, as the bundle mounts them: three turns with reads, memory, sealing and recall', {
      rows: ['workspace-context', 'auto-memory', 'slice-tape', 'context-profiles'], files, homeFiles,
      // As the bundle mounts them but two issue 30 defaults: the tape starts at turn 1 (its 48,000
      // code points would keep these three turns raw), and no profile until one is chosen (the full
      // profile defers DSH's own rarely used tools, which the simulated host does not have).
      configs: {
        'slice-tape': { ...(BUNDLE.get('slice-tape') as Record<string, unknown>), history: { ...((BUNDLE.get('slice-tape') as { history: object }).history), startAfterChars: 0 } },
        'context-profiles': { defaultProfile: 'none' },
      },
      steps: [
        { run: 'turn 1', script: [read('src/a.ts', 'c0'), { tools: [{ name: 'memory', id: 'c1', input: { command: 'view', path: '/memories' } }] }, { tools: [{ name: 'memory', id: 'c2', input: { command: 'create', path: '/memories/pnpm.md', file_text: memory('pnpm', 'use pnpm') } }] }, { text: 'one' }] },
        { run: 'turn 2', script: [{ text: 'two' }] },
        { run: 'turn 3', script: [{ tools: [{ name: 'recall_turn', id: 'c3', input: { turn: 1, view: 'full' } }] }, { tools: [{ name: 'recall_search', id: 'c4', input: { query: 'pnpm' } }] }, { text: 'three' }] },
      ],
    }],
  ])('%s', async (_name, scenario) => {
    const { requests: real, root } = await onRealDsh(scenario);
    const simulated = await onSimulatedHost(scenario, root);
    // One request per scripted answer: nothing was skipped on either side.
    expect(real).toHaveLength(scenario.steps.reduce((n, step) => n + ('run' in step ? step.script.length : 0), 0));
    expect(simulated).toEqual(real);
  });
});
