#!/usr/bin/env node
// dsh-context: see and measure the context DSH's plugins give a model, for any directory.
// Exit codes: 0 done, 1 the command failed (the message says why and what to do), 2 bad usage.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { resolve } from 'node:path';
import type { BenchCommandOptions } from './bench.js';
import { DEFAULT_BENCH_PROCESSES, DEFAULT_BENCH_ROUNDS, DEFAULT_DSH_PROFILE, DEFAULT_SAMPLE_MS, PROBE_PROMPT } from './defaults.js';
import { CliError, nonNegativeInteger, positiveInteger, price, processEnvironment, requireDirectory, resolveWorkspace } from './env.js';
import { count, table, visible, visibleLine } from './report.js';
import { prepareSample, SAMPLE_CWD } from './sample.js';
import { DSH_DEPLOYED_MAX_BYTES } from '../plugins/workspace-context/config.js';

// Each command loads its modules when it runs: `inspect` starts DSH before the plugins load, and
// no command pays for another's (bench's file walking, the profiles panel).

// dsh-context never writes to the repository: git's optional index refresh (the `git status` the
// plugins run, here and in a DSH inspect starts) is off for this process and its children.
process.env.GIT_OPTIONAL_LOCKS = '0';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const print = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const json = (value: unknown): void => print(JSON.stringify(value, null, 2));

/**
 * The directory and environment a command works on: the given directory, or with `--sample` a fresh
 * copy of the bundled sample with its own OS home (~/.dsh/AGENTS.md, rules, memories), removed by
 * `dispose`.
 */
function target(dir: string | undefined, opts: { cwd?: string; dshHome?: string; sample?: boolean }) {
  if (!opts.sample) {
    const environment = processEnvironment();
    return { environment, workspace: resolveWorkspace(dir, opts.cwd, environment), dispose: () => undefined };
  }
  if (dir !== undefined || opts.dshHome !== undefined) throw new CliError('--sample uses the bundled sample monorepo; drop the directory and --dsh-home, or drop --sample');
  const sample = prepareSample();
  try {
    const environment = { env: {}, homedir: sample.home, processCwd: sample.repo };
    return { environment, workspace: resolveWorkspace(sample.repo, opts.cwd ?? SAMPLE_CWD, environment), dispose: sample.dispose };
  } catch (error) {
    sample.dispose();
    throw error;
  }
}

const program = new Command('dsh-context')
  .description('See and measure what DeepSeek Harness context plugins give the model: workspace instructions (AGENTS.md / CLAUDE.md), the memory index and rules, for any directory.')
  .version(pkg.version)
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

program.command('inspect')
  .description('show the first model request of a session in a directory: your own DSH\'s, captured, when a `dsh` is found; the plugins\' part only otherwise')
  .argument('[dir]', 'the directory to inspect (default: the current directory)')
  .option('--cwd <subdir>', 'the session cwd, relative to dir (default: dir itself)')
  .option('--dsh <path>', 'the dsh command to run (default: dsh on PATH)')
  .option('--offline', 'do not run DSH: show the plugins\' part only, from the plugins run without DSH')
  .option('--profile <name>', 'the DSH profile to start', DEFAULT_DSH_PROFILE)
  .option('--context-profile <id>', 'the context profile the session starts under (default: the one your DSH home names; offline: none, or a built-in one)')
  .option('--prompt <text>', 'the first user message', PROBE_PROMPT)
  .option('--max-bytes <n>', 'offline: workspace-context maxBytes, the byte budget of the instruction message (with DSH: the mounted config\'s)', positiveInteger('--max-bytes'), DSH_DEPLOYED_MAX_BYTES)
  .option('--dsh-home <dir>', 'the DSH home (default: $DSH_HOME, else ~/.dsh)')
  .option('--sample', 'inspect the sample monorepo shipped with this package (at its packages/app), with your DSH profile')
  .option('--context-window <tokens>', 'the model\'s context window in tokens, when DSH reports none (offline: always)', positiveInteger('--context-window'))
  .option('--summary', 'leave out the request\'s text')
  .option('--json', 'print the request body exactly as DSH sent it (offline: the JSON report)')
  .option('--json-report', 'print the whole report as JSON')
  .addHelpText('after', `
With a dsh (on PATH, or --dsh), inspect starts it headless in the profile and directory, in a
throwaway copy of the DSH home, with DeepSeek's endpoint pointed at a capture endpoint on loopback:
it keeps the first model request and ends DSH before any model is called.

Examples:
  dsh-context inspect
  dsh-context inspect ~/code/monorepo --cwd packages/api --prompt "fix the failing test"
  dsh-context inspect --json | jq '.messages[0].content'
  dsh-context inspect --sample --context-profile full
  dsh-context inspect . --offline --max-bytes 16384 --json-report`)
  .action(async (dir: string | undefined, opts: {
    cwd?: string; dsh?: string; offline?: boolean; profile: string; contextProfile?: string; prompt: string; maxBytes: number; dshHome?: string; sample?: boolean;
    contextWindow?: number; summary?: boolean; json?: boolean; jsonReport?: boolean;
  }) => {
    const { inspectCommand, userProfileDir } = await import('./inspect-exact.js');
    const { environment, workspace, dispose } = target(dir, opts);
    try {
      const profileDir = opts.sample ? userProfileDir(processEnvironment(), opts.dshHome, opts.profile) : undefined;
      const report = await inspectCommand({
        ...workspace, environment, launchEnv: process.env, launchCwd: process.cwd(), maxBytes: opts.maxBytes, dshProfile: opts.profile, prompt: opts.prompt,
        ...(opts.contextWindow !== undefined ? { contextWindow: opts.contextWindow } : {}),
        ...(opts.dsh !== undefined ? { dsh: opts.dsh } : {}),
        ...(opts.offline === true ? { offline: true } : {}),
        ...(opts.contextProfile !== undefined ? { contextProfile: opts.contextProfile } : {}),
        ...(opts.dshHome !== undefined ? { dshHome: opts.dshHome } : {}),
        ...(profileDir !== undefined ? { profileDir } : {}),
      });
      const shown = opts.sample ? { ...report, directory: '(the sample monorepo, examples/sample-monorepo)', dshHome: { ...report.dshHome, simulated: true as const } } : report;
      if (opts.jsonReport) json(shown);
      else if (opts.json) shown.mode === 'exact' ? void process.stdout.write(shown.request.body) : json(shown);
      else if (shown.mode === 'exact') print((await import('./report-request.js')).renderExact(shown, opts.summary === true));
      else print((await import('./report.js')).renderInspect(shown, opts.summary === true));
    } finally {
      dispose();
    }
  });

program.command('session')
  .description('show what a DSH session cost, turn by turn: the provider\'s token counts and the cost, the tape entries, folds and recalls of the plugins, DSH\'s compactions')
  .argument('[path]', 'a session log (session.jsonl or session.jsonl.zstd) or its session directory')
  .option('--last', 'the newest session of the current directory (or --cwd) in the DSH home')
  .option('--cwd <dir>', 'with --last: the directory DSH ran in (default: the current directory)')
  .option('--dsh-home <dir>', 'the DSH home (default: $DSH_HOME, else ~/.dsh)')
  .option('--price-input <usd>', 'USD per million prompt tokens the cache missed (default: DeepSeek\'s, 0.28)', price('--price-input'))
  .option('--price-cache-read <usd>', 'USD per million prompt tokens read from the cache (default: DeepSeek\'s, 0.028)', price('--price-cache-read'))
  .option('--price-output <usd>', 'USD per million output tokens (default: DeepSeek\'s, 0.42)', price('--price-output'))
  .option('--json', 'print a JSON report')
  .addHelpText('after', '\nExamples:\n  dsh-context session --last\n  dsh-context session ~/.dsh/sessions/--home-me-repo--/session-1234 --json\n  dsh-context session --last --price-input 0.27 --price-cache-read 0.07 --price-output 1.1')
  .action(async (path: string | undefined, opts: { last?: boolean; cwd?: string; dshHome?: string; priceInput?: number; priceCacheRead?: number; priceOutput?: number; json?: boolean }) => {
    const { renderSession, sessionCommand } = await import('./session-command.js');
    const report = sessionCommand({
      environment: processEnvironment(),
      ...(path !== undefined ? { path } : {}),
      ...(opts.last === true ? { last: true } : {}),
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      ...(opts.dshHome !== undefined ? { dshHome: opts.dshHome } : {}),
      prices: { input: opts.priceInput, cacheRead: opts.priceCacheRead, output: opts.priceOutput },
    });
    if (opts.json) json(report);
    else print(renderSession(report));
  });

program.command('rules')
  .description('show which path-scoped rules a read, write or edit of some files would inject')
  .argument('[dir]', 'the session directory (default: the current directory)')
  .requiredOption('--path <file...>', 'touched files, absolute or relative to the session cwd')
  .option('--cwd <subdir>', 'the session cwd, relative to dir (default: dir itself)')
  .option('--dsh-home <dir>', 'the DSH home (default: $DSH_HOME, else ~/.dsh)')
  .option('--sample', 'ask about the sample monorepo shipped with this package (session cwd packages/app)')
  .option('--json', 'print a JSON report')
  .addHelpText('after', '\nExamples:\n  dsh-context rules . --path src/api/users.ts docs/guide.md\n  dsh-context rules --sample --path ../api/src/routes/users.ts')
  .action(async (dir: string | undefined, opts: { path: string[]; cwd?: string; dshHome?: string; sample?: boolean; json?: boolean }) => {
    const { rulesFor } = await import('./rules.js');
    const { environment, workspace, dispose } = target(dir, opts);
    let report;
    try {
      report = await rulesFor({ cwd: workspace.cwd, environment, paths: opts.path, ...(opts.dshHome !== undefined ? { dshHome: opts.dshHome } : {}) });
    } finally {
      dispose();
    }
    if (opts.sample) report = { ...report, projectRoot: '(the sample monorepo)' };
    if (opts.json) return json(report);
    const lines = [`${count(report.ruleCount, 'rule file')} found (project root ${visibleLine(report.projectRoot)})`];
    lines.push(...table(report.touches.map((t) => [t.path, t.rules.length === 0 ? 'no path-scoped rule' : t.rules.join(', ')])));
    lines.push(report.injected.length === 0 ? 'The next step would inject no path-scoped rule.' : `The next step would inject: ${visibleLine(report.injected.join(', '))}`);
    if (report.cut.length > 0) lines.push(`Activated but kept out by the rule limits (maxRules / maxRulesBytes): ${visibleLine(report.cut.join(', '))}`);
    for (const warning of report.warnings) lines.push(`warning: ${visibleLine(warning)}`);
    print(visible(lines.join('\n')));
  });

program.command('bench')
  .description('benchmark what DSH reads in a repository: the WASM engine against the plain-JavaScript path, phase by phase')
  .argument('[dir]', 'the directory whose files are the workload (default: the current directory)')
  .option('--cwd <subdir>', 'the session cwd, relative to dir (default: dir itself); the project root is found from it')
  .option('--rules-from <dir>', 'a directory of rule files (Claude-style, with paths:) to add to the project\'s own')
  .option('--glob <pattern...>', 'globs to add to the glob phase')
  .option('--exclude <glob...>', 'leave out listed files matching these globs (relative to dir)')
  .option('--max-bytes <n>', 'the instruction budget used to compose baselines', positiveInteger('--max-bytes'), DSH_DEPLOYED_MAX_BYTES)
  .option('--processes <n>', 'fresh processes to time the rounds in, one after another; the 95% interval of the ratio is taken over them (1: rounds in this process, the interval over the rounds)', positiveInteger('--processes'), DEFAULT_BENCH_PROCESSES)
  .option('--rounds <n>', 'timed rounds per phase in each process, each timing both paths back to back', positiveInteger('--rounds'), DEFAULT_BENCH_ROUNDS)
  .option('--sample-ms <ms>', 'the shortest sample: a phase is run this long per path and round (0: one run per sample)', nonNegativeInteger('--sample-ms'), DEFAULT_SAMPLE_MS)
  .option('--compare <report.json>', 'a previous --json report: print the change per phase')
  .option('--json', 'print a JSON report')
  .addHelpText('after', `
Files: git ls-files -co --exclude-standard in a git work tree, a .gitignore-aware walk outside one.
Phases: read+digest (every instruction file a session at the cwd reads, its own and reached by
touches below it), compose (the baseline of a session in each directory holding files), glob (every
file against every rule glob), and the whole run end to end. Both paths run in the same process on
the same inputs and must give the same answers before anything is timed. A sample of a phase repeats
it for at least --sample-ms; the rounds run in --processes fresh processes, one after another, and
a process's ratio is the median of its rounds' JavaScript ÷ WASM. The ratio shown is the median of
the processes' ratios, with a 95% interval taken over them (a rerun differs by what one process
differs from the next), and a phase whose interval holds 1 is reported as within the spread.

Examples:
  dsh-context bench .
  dsh-context bench ~/code/monorepo --cwd packages/api --rules-from ~/.claude/rules
  dsh-context bench . --glob "src/**/*.ts" "**/*.md" --exclude "vendor/**" --json > run.json
  dsh-context bench . --compare run.json`)
  .action(async (dir: string | undefined, opts: BenchCommandOptions & { cwd?: string }) => {
    const environment = processEnvironment();
    const workspace = resolveWorkspace(dir, opts.cwd, environment);
    if (opts.rulesFrom !== undefined) requireDirectory(resolve(environment.processCwd, opts.rulesFrom), '--rules-from directory', 'pass a directory of rule files, e.g. ~/.claude/rules');
    await (await import('./bench.js')).benchCommand(workspace, opts, environment, print);
  });

const profiles = program.command('profiles').description('the context-profiles panel and its API, outside DSH');
profiles.command('serve')
  .description('serve the context-profiles panel on loopback for your $DSH_HOME (edits its session-context-config.json)')
  .option('--port <n>', 'the port on 127.0.0.1 (0: any free port)', nonNegativeInteger('--port'), 4311)
  .option('--dsh-home <dir>', 'the DSH home (default: $DSH_HOME, else ~/.dsh)')
  .addHelpText('after', '\nThe panel lists the tools this package\'s plugins and the first-party file tools register; group and\nserver states apply to every tool DSH has. Open the link it prints: it carries this server\'s access\ntoken (a new one each start), without which the panel and its API answer no one. Stop it with Ctrl-C.')
  .action(async (opts: { port: number; dshHome?: string }) => {
    const { serveProfiles } = await import('./profiles.js');
    const server = await serveProfiles({ port: opts.port, environment: processEnvironment(), ...(opts.dshHome !== undefined ? { dshHome: opts.dshHome } : {}) });
    print(`context-profiles panel: ${server.url}\n(the link carries this server's access token: keep it to yourself)\nstate file: ${server.stateFile}\n(Ctrl-C to stop)`);
    await new Promise<void>((resolve) => {
      const stop = (): void => void server.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander printed the message (and the usage hint) already; --help and --version are not errors.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof CliError) {
    process.stderr.write(`dsh-context: ${visibleLine(error.message)}\n${error.hint !== undefined ? `  ${visibleLine(error.hint)}\n` : ''}`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`dsh-context: ${visibleLine(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 1;
  }
}
