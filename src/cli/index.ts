#!/usr/bin/env node
// dsh-context: see and measure the context DSH's plugins give a model, for any directory.
// Exit codes: 0 done, 1 the command failed (the message says why and what to do), 2 bad usage.

import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { resolve } from 'node:path';
import { CliError, nonNegativeInteger, positiveInteger, processEnvironment, requireDirectory, resolveWorkspace } from './env.js';
import { serveProfiles } from './profiles.js';
import { inspect } from './inspect.js';
import { PROFILE_IDS } from './session.js';
import { DEEPSEEK_V3_CONTEXT_WINDOW } from './tokens.js';
import { count, renderInspect, table, visible, visibleLine } from './report.js';
import { DSH_DEPLOYED_MAX_BYTES } from '../plugins/workspace-context/config.js';
import { rulesFor } from './rules.js';
import { prepareSample, SAMPLE_CWD } from './sample.js';
import { benchCommand, type BenchCommandOptions } from './bench.js';

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
  .description('show exactly what the model would see at the start of a session in a directory')
  .argument('[dir]', 'the directory to inspect (default: the current directory)')
  .option('--cwd <subdir>', 'the session cwd, relative to dir (default: dir itself)')
  .option('--max-bytes <n>', 'workspace-context maxBytes: the byte budget of the instruction message', positiveInteger('--max-bytes'), DSH_DEPLOYED_MAX_BYTES)
  .option('--dsh-home <dir>', 'the DSH home (default: $DSH_HOME, else ~/.dsh)')
  .option('--sample', 'inspect the sample monorepo shipped with this package (at its packages/app)')
  .addOption(new Option('--profile <id>', 'start the session under this context profile (built-in), to see the tool definitions it defers and what it saves').choices(PROFILE_IDS).default('none'))
  .option('--context-window <tokens>', 'the model\'s context window in tokens', positiveInteger('--context-window'), DEEPSEEK_V3_CONTEXT_WINDOW)
  .option('--summary', 'leave out the messages themselves')
  .option('--json', 'print a JSON report')
  .addHelpText('after', '\nExamples:\n  dsh-context inspect --sample\n  dsh-context inspect --sample --profile full\n  dsh-context inspect ~/code/monorepo --cwd packages/api\n  dsh-context inspect . --max-bytes 16384 --json')
  .action(async (dir: string | undefined, opts: { cwd?: string; maxBytes: number; dshHome?: string; sample?: boolean; profile: string; contextWindow: number; summary?: boolean; json?: boolean }) => {
    const { environment, workspace, dispose } = target(dir, opts);
    try {
      const report = await inspect({
        ...workspace, environment, maxBytes: opts.maxBytes, profile: opts.profile, contextWindow: opts.contextWindow,
        ...(opts.dshHome !== undefined ? { dshHome: opts.dshHome } : {}),
      });
      const shown = opts.sample ? { ...report, directory: '(the sample monorepo, examples/sample-monorepo)', dshHome: { ...report.dshHome, simulated: true as const } } : report;
      if (opts.json) json(shown);
      else print(renderInspect(shown, opts.summary === true));
    } finally {
      dispose();
    }
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
  .option('--rounds <n>', 'timed rounds per phase (medians and ranges are reported)', positiveInteger('--rounds'), 5)
  .option('--compare <report.json>', 'a previous --json report: print the change per phase')
  .option('--json', 'print a JSON report')
  .addHelpText('after', `
Files: git ls-files -co --exclude-standard in a git work tree, a .gitignore-aware walk outside one.
Phases: read+digest (every instruction file a session at the cwd reads, its own and reached by
touches below it), compose (the baseline of a session in each directory holding files), glob (every
file against every rule glob), and the whole run end to end. Both paths run in the same process on
the same inputs and must give the same answers before anything is timed.

Examples:
  dsh-context bench .
  dsh-context bench ~/code/monorepo --cwd packages/api --rules-from ~/.claude/rules
  dsh-context bench . --glob "src/**/*.ts" "**/*.md" --exclude "vendor/**" --json > run.json
  dsh-context bench . --compare run.json`)
  .action(async (dir: string | undefined, opts: BenchCommandOptions & { cwd?: string }) => {
    const environment = processEnvironment();
    const workspace = resolveWorkspace(dir, opts.cwd, environment);
    if (opts.rulesFrom !== undefined) requireDirectory(resolve(environment.processCwd, opts.rulesFrom), '--rules-from directory', 'pass a directory of rule files, e.g. ~/.claude/rules');
    await benchCommand(workspace, opts, environment, print);
  });

const profiles = program.command('profiles').description('the context-profiles panel and its API, outside DSH');
profiles.command('serve')
  .description('serve the context-profiles panel on loopback for your $DSH_HOME (edits its session-context-config.json)')
  .option('--port <n>', 'the port on 127.0.0.1 (0: any free port)', nonNegativeInteger('--port'), 4311)
  .option('--dsh-home <dir>', 'the DSH home (default: $DSH_HOME, else ~/.dsh)')
  .addHelpText('after', '\nThe panel lists the tools this package\'s plugins and the first-party file tools register; group and\nserver states apply to every tool DSH has. Open the link it prints: it carries this server\'s access\ntoken (a new one each start), without which the panel and its API answer no one. Stop it with Ctrl-C.')
  .action(async (opts: { port: number; dshHome?: string }) => {
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
