// The one atomic write, lock and queue (style guide 15; issue 18 item 3): the same steps run
// synchronously and asynchronously, a failure at any operation leaves the old bytes and no
// temporary file, a killed writer's temporary files go with the next write, an abandoned lock is
// recovered, a held one is waited for, and several processes updating one file lose nothing.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  KeyedQueue, LockLostError, LockPathError, LockTimeoutError, lockPathFor, nodeFileOps, nodeFileOpsSync, runAsync, runSync, stage, settle, tempName, thisProcess,
  updateFile, updateFileSync, withLock, withLockSync, writeAtomic, type AsyncFileOps, type FileOps, type SyncFileOps,
} from '../../src/io/index.js';
import { built, runScript } from '../support/processes.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'io-test-'));
  made.push(dir);
  return dir;
};
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => (data === undefined ? undefined : new TextDecoder().decode(data));
const read = (path: string) => readFileSync(path, 'utf8');
const names = (dir: string) => readdirSync(dir).sort();
/** Sets a file's modification time `ms` into the past (negative: the future). */
const ago = (path: string, ms: number) => {
  const when = new Date(Date.now() - ms);
  utimesSync(path, when, when);
};

type Op = keyof FileOps;
/** `ops` with the next matching call of an operation failing once, and every call recorded. */
function faulty<O extends FileOps>(ops: O) {
  const faults: { op: Op; when: (arg: string) => boolean }[] = [];
  const calls: [Op, string][] = [];
  const wrapped = Object.fromEntries((Object.keys(ops) as Op[]).map((op) => [op, (...args: unknown[]) => {
    calls.push([op, String(args[0])]);
    const i = faults.findIndex((f) => f.op === op && f.when(String(args[0])));
    if (i >= 0) {
      faults.splice(i, 1);
      throw Object.assign(new Error(`injected ${op} failure`), { code: 'EIO' });
    }
    return (ops[op] as (...a: unknown[]) => unknown)(...args);
  }])) as unknown as O;
  return { ops: wrapped, calls, fail: (op: Op, when: (arg: string) => boolean = () => true) => void faults.push({ op, when }) };
}

describe('the steps run sync and async', () => {
  it('runSync and runAsync give the same result and the same thrown error; a promise in runSync is refused', async () => {
    function* steps(ops: FileOps, path: string) {
      yield* writeAtomic(ops, path, bytes('x'));
      return text((yield* settle(ops.readPrefix(path, 10))).bytes);
    }
    const dir = tempDir();
    expect(runSync(steps(nodeFileOpsSync, join(dir, 'a')))).toBe('x');
    expect(await runAsync(steps(nodeFileOps, join(dir, 'b')))).toBe('x');
    expect(() => runSync(steps(nodeFileOpsSync, join(dir, 'missing', 'c')))).toThrow(/ENOENT/);
    await expect(runAsync(steps(nodeFileOps, join(dir, 'missing', 'c')))).rejects.toThrow(/ENOENT/);
    // An asynchronous port whose operations do nothing: a real one would go on creating the
    // temporary file after runSync threw, racing the temporary directory's removal.
    const idle = Object.fromEntries(Object.keys(nodeFileOps).map((op) => [op, async () => undefined])) as unknown as FileOps;
    expect(() => runSync(steps(idle, join(dir, 'd')))).toThrow('runSync: a file operation returned a promise; pass a synchronous port');
  });
});

describe('atomic write (AM-25, CP-31)', () => {
  for (const [mode, ops, run] of [['async', nodeFileOps, runAsync], ['sync', nodeFileOpsSync, runSync]] as const) {
    it(`${mode}: a failure at each operation leaves the old bytes and no temporary file`, async () => {
      for (const op of ['createExclusive', 'rename'] as const) {
        const dir = tempDir();
        const target = join(dir, 'state.json');
        writeFileSync(target, 'old');
        const f = faulty<FileOps>(ops);
        f.fail(op);
        await expect(Promise.resolve().then(() => run(writeAtomic(f.ops, target, bytes('new'))))).rejects.toThrow(`injected ${op} failure`);
        expect([read(target), names(dir)]).toEqual(['old', ['state.json']]);
        await run(writeAtomic(f.ops, target, bytes('new')));
        expect([read(target), names(dir)]).toEqual(['new', ['state.json']]);
      }
    });
  }

  it('temporary names are hidden, keep a readable prefix of the target, and stay under 255 bytes for a 255-byte name', () => {
    const long = `${'é'.repeat(125)}.md`;
    const name = tempName(join('/x', long)).slice(3);
    expect(name).toMatch(/^\.é{32}\.[0-9a-f]{12}\.tmp$/);
    expect(Buffer.byteLength(name)).toBeLessThan(255);
    expect(tempName('/x/MEMORY.md')).toMatch(/^\/x\/\.MEMORY\.md\.[0-9a-f]{12}\.tmp$/);
  });

  it('item 3: temporary files a killed writer left are removed by the next write of that file; other files\' are not', async () => {
    const dir = tempDir();
    const target = join(dir, 'MEMORY.md');
    const leftovers = [tempName(target), tempName(target)];
    const other = tempName(join(dir, 'a.md'));
    for (const path of [...leftovers, other]) writeFileSync(path, 'half');
    writeFileSync(join(dir, '.MEMORY.md.notours.tmp'), 'kept');
    await runAsync(writeAtomic(nodeFileOps, target, bytes('new')));
    expect(names(dir)).toEqual(['.MEMORY.md.notours.tmp', other.slice(dir.length + 1), 'MEMORY.md'].sort());
    const staged = await runAsync(stage(nodeFileOps, target, bytes('next')));
    expect(names(dir)).toContain(staged.temp.slice(dir.length + 1));
    expect(read(target)).toBe('new');
  });
});

describe('the cross-process lock', () => {
  it('lock file names are hidden, and stay within 255 bytes for a 255-byte name (a long project key), distinct per name', () => {
    expect(lockPathFor('/x/--repo--')).toBe('/x/.--repo--.lock');
    const a = `--${'a'.repeat(251)}--`;
    const b = `--${'a'.repeat(250)}b--`;
    const [la, lb] = [lockPathFor(`/x/${a}`), lockPathFor(`/x/${b}`)];
    expect(Buffer.byteLength(la.slice(3))).toBeLessThanOrEqual(255);
    expect(la).toMatch(/^\/x\/\.-{2}a{198}\.[0-9a-f]{16}\.lock$/);
    expect(la).not.toBe(lb);
  });

  it('a lock held by a live process is waited for, then the wait ends with an error naming the holder', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), since: Date.now(), token: 'theirs' }));
    const error = await withLock(nodeFileOps, lock, async () => 'never', { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toMatch(new RegExp(`^${lock.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is held by process ${process.ppid} on ${hostname()}; waited \\d+ ms$`));
    expect(() => withLockSync(nodeFileOpsSync, lock, () => 'never', { timeoutMs: 20 })).toThrow(LockTimeoutError);
    expect(read(lock)).toContain('"theirs"');
  });

  it('item 3: a lock left by a process that died is taken over at once; one from another host once it has not been refreshed for staleMs', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    const deadPid = 2 ** 30; // above any pid_max
    writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: deadPid, since: Date.now(), token: 'dead' }));
    expect(await withLock(nodeFileOps, lock, async () => read(lock), { timeoutMs: 1000 })).not.toContain('"dead"');
    expect(names(dir)).toEqual([]);
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', since: Date.now() - 60_000, token: 'old' }));
    ago(lock, 60_000);
    expect(withLockSync(nodeFileOpsSync, lock, () => 'taken', { timeoutMs: 1000, staleMs: 30_000 })).toBe('taken');
    writeFileSync(lock, 'garbage');
    expect(await withLock(nodeFileOps, lock, async () => 'waited', { timeoutMs: 30 }).catch((e: unknown) => (e as Error).name)).toBe('LockTimeoutError');
    expect(await withLock(nodeFileOps, lock, async () => 'aged out', { timeoutMs: 1000, staleMs: -1 })).toBe('aged out');
    expect(names(dir)).toEqual([]);
  });

  it('item 3: a process killed while it holds the lock leaves the lock file, and the next process takes it over at once', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    const script = `
      const { withLock, nodeFileOps } = await import(${JSON.stringify(built('io/index.js'))});
      await withLock(nodeFileOps, process.argv[1], async () => process.kill(process.pid, 'SIGKILL'));
    `;
    const run = await runScript(script, [lock]);
    expect(run.status).toBe(null);
    expect(names(dir)).toEqual(['.f.lock']);
    expect(await withLock(nodeFileOps, lock, async () => 'taken', { timeoutMs: 5000, staleMs: 60_000 })).toBe('taken');
    expect(names(dir)).toEqual([]);
  });

  it('release removes only the holder\'s own lock; a failed task still releases it', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    await expect(withLock(nodeFileOps, lock, async () => {
      throw new Error('task failed');
    })).rejects.toThrow('task failed');
    expect(names(dir)).toEqual([]);
    await withLock(nodeFileOps, lock, async () => {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now(), token: 'someone else' }));
    });
    expect(read(lock)).toContain('someone else');
  });

  it('a synchronous wait for a lock an async task of this process holds throws at once instead of blocking forever', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    let inner: unknown;
    await withLock(nodeFileOps, lock, async () => {
      try {
        withLockSync(nodeFileOpsSync, lock, () => 'no');
      } catch (error) {
        inner = error;
      }
    });
    expect((inner as Error).message).toBe(`withLockSync: ${lock} is held by an async task of this process`);
  });
});

describe('issue 32: a lock wait never spins, and never robs a live holder', () => {
  // In a child process: on the code before this fix the wait spun without sleeping (30 s, or forever),
  // which would block this worker; the deadline turns a spin into a failure.
  const SPIN_SCRIPT = `
    const { mkdirSync, mkdtempSync, utimesSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const io = await import(${JSON.stringify(built('io/index.js'))});
    const at = (path, ms) => { const t = new Date(Date.now() - ms); utimesSync(path, t, t); };
    const results = [];
    for (const mode of ['sync', 'async']) {
      for (const kind of ['file', 'directory', 'future']) {
        const dir = mkdtempSync(join(tmpdir(), 'spin-'));
        const lock = io.lockPathFor(join(dir, 'state.json'));
        writeFileSync(lock, JSON.stringify({ ...io.thisProcess(), pid: 2 ** 30, since: Date.now(), token: 'dead' }));
        if (kind === 'directory') mkdirSync(lock + '.break'); else writeFileSync(lock + '.break', '');
        if (kind === 'future') at(lock + '.break', -3_600_000);
        const counts = { sleep: 0, createExclusive: 0 };
        const base = mode === 'sync' ? io.nodeFileOpsSync : io.nodeFileOps;
        const ops = { ...base, sleep: (ms) => (counts.sleep++, base.sleep(ms)), createExclusive: (...a) => (a[0] === lock && counts.createExclusive++, base.createExclusive(...a)) };
        const take = (options) => mode === 'sync'
          ? Promise.resolve().then(() => io.withLockSync(ops, lock, () => 'acquired', options))
          : io.withLock(ops, lock, async () => 'acquired', options);
        const outcome = (p) => p.then((v) => v, (e) => e.name + ': ' + e.message.split(dir).join('<dir>').replace(/waited \\d+ ms/, 'waited N ms'));
        const first = await outcome(take({ timeoutMs: 300, staleMs: 30_000 }));
        // The break file abandoned: aged (a file), or watched unchanged for staleMs (a future time).
        if (kind === 'file') at(lock + '.break', 60_000);
        const second = await outcome(take({ timeoutMs: kind === 'directory' ? 300 : 5000, staleMs: kind === 'future' ? 200 : 30_000 }));
        results.push({ mode, kind, first, second, counts });
      }
    }
    console.log(JSON.stringify(results));
  `;

  it('item 1: a dead holder plus a leftover .break (a file, a directory, a future mtime) makes both paths sleep and end at the timeout, then recover once the break file is abandoned', async () => {
    const run = await runScript(SPIN_SCRIPT, [], 30_000);
    expect([run.timedOut, run.stderr]).toEqual([false, '']);
    const results = JSON.parse(run.stdout) as { mode: string; kind: string; first: string; second: string; counts: { sleep: number; createExclusive: number } }[];
    const held = (kind: string) => `LockTimeoutError: <dir>/.state.json.lock is held by a process that is gone, process ${2 ** 30} on ${hostname()}; waited N ms${kind === 'directory' ? '; <dir>/.state.json.lock.break is a directory and keeps the lock from being taken over: remove it' : ''}`;
    expect(results.map((r) => [r.mode, r.kind, r.first, r.second])).toEqual(['sync', 'async'].flatMap((mode) => [
      [mode, 'file', held('file'), 'acquired'],
      [mode, 'directory', held('directory'), held('directory')],
      [mode, 'future', held('future'), 'acquired'],
    ]));
    // Every turn of the wait sleeps, except at most two quick retries after progress.
    for (const r of results) expect(r.counts.createExclusive, `${r.mode} ${r.kind}`).toBeLessThanOrEqual(3 * (r.counts.sleep + 1));
  });

  it('item 2: a holder in another PID namespace is not judged by its pid: its lock is waited for while refreshed, taken once it is not', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    // What a process in a container sharing the host name and the DSH home writes: its pid means nothing here.
    writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: 2 ** 30, pidns: 'pid:[1]', since: Date.now(), token: 'container' }));
    const error = await withLock(nodeFileOps, lock, async () => new Error('robbed'), { timeoutMs: 100 }).catch((e: unknown) => e as Error);
    expect(error.message).toMatch(new RegExp(`is held by process ${2 ** 30} on ${hostname()} \\(another PID namespace\\); waited \\d+ ms$`));
    expect(() => withLockSync(nodeFileOpsSync, lock, () => 'robbed', { timeoutMs: 50 })).toThrow(LockTimeoutError);
    ago(lock, 31_000);
    expect(withLockSync(nodeFileOpsSync, lock, () => read(lock), { timeoutMs: 1000 })).not.toContain('container');
  });

  it('item 2: a holder on this host is judged by its pid alone: alive (stopped, lock hours old) it is never robbed; a pid now used by a later process is gone', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    // A real holder that stops itself (Ctrl-Z) while it holds the lock.
    const holder = spawn(process.execPath, ['--input-type=module', '-e', `
      const { withLock, nodeFileOps } = await import(${JSON.stringify(built('io/index.js'))});
      await withLock(nodeFileOps, process.argv[1], async () => { process.stdout.write('held'); process.kill(process.pid, 'SIGSTOP'); });
    `, '--', lock], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      await expect.poll(() => readFileSync(`/proc/${holder.pid}/stat`, 'latin1').split(') ')[1]![0]).toBe('T');
      ago(lock, 3_600_000);
      for (const staleMs of [30_000, 0]) {
        const error = await withLock(nodeFileOps, lock, async () => new Error('robbed'), { timeoutMs: 100, staleMs }).catch((e: unknown) => e as Error);
        expect(error.message).toMatch(new RegExp(`is held by process ${holder.pid} on ${hostname()}; waited \\d+ ms$`));
      }
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGCONT');
      await exited;
      expect(names(dir)).toEqual([]);
    } finally {
      holder.kill('SIGKILL');
    }
    // The parent runs, but its pid's start time is not the one recorded: a later process got the pid.
    writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: process.ppid, start: '1', since: Date.now(), token: 'reused' }));
    expect(await withLock(nodeFileOps, lock, async () => read(lock), { timeoutMs: 1000 })).not.toContain('reused');
  });

  it('item 2: the holder refreshes its lock while it holds it, and a holder robbed meanwhile commits nothing (sync and async)', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    await withLock(nodeFileOps, lock, async () => {
      const before = readFileSync(lock);
      ago(lock, 60_000);
      await expect.poll(() => Date.now() - statSync(lock).mtimeMs < 30_000, { timeout: 5000 }).toBe(true);
      expect(readFileSync(lock)).toEqual(before);
    }, { staleMs: 100 });
    for (const [mode, update] of [
      ['async', (path: string, change: (c: Uint8Array | undefined) => Uint8Array) => updateFile(nodeFileOps, path, change)],
      ['sync', (path: string, change: (c: Uint8Array | undefined) => Uint8Array) => Promise.resolve().then(() => updateFileSync(nodeFileOpsSync, path, change))],
    ] as const) {
      const path = join(dir, `${mode}.json`);
      writeFileSync(path, 'before');
      // While this holder is between its read and its write, another process judges its lock
      // abandoned, takes it, and saves.
      const error = await update(path, () => {
        rmSync(lockPathFor(path));
        writeFileSync(lockPathFor(path), JSON.stringify({ ...thisProcess(), pid: process.ppid, since: Date.now(), token: 'thief' }));
        writeFileSync(path, 'the other process saved this');
        return bytes('stale overwrite');
      }).catch((e: unknown) => e);
      expect([mode, error]).toEqual([mode, new LockLostError(lockPathFor(path))]);
      expect([read(path), read(lockPathFor(path))]).toEqual(['the other process saved this', expect.stringContaining('"thief"')]);
      rmSync(lockPathFor(path));
    }
    expect(names(dir)).toEqual(['async.json', 'sync.json']);
  });

  it('item 7: a lock from another host is judged by its refreshes, not its clock: a future since with a 2 h old mtime is taken; a future mtime once watched unchanged for staleMs', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    const skewed = (token: string) => JSON.stringify({ pid: 1, host: 'elsewhere', boot: 'another-kernel', pidns: 'pid:[1]', start: '5', since: Date.now() + 7_200_000, token });
    writeFileSync(lock, skewed('ahead'));
    ago(lock, 7_200_000);
    expect(await withLock(nodeFileOps, lock, async () => read(lock), { timeoutMs: 1000 })).not.toContain('ahead');
    writeFileSync(lock, skewed('future mtime'));
    ago(lock, -7_200_000);
    expect(await withLock(nodeFileOps, lock, async () => 'waited', { timeoutMs: 50, staleMs: 60_000 }).catch((e: unknown) => (e as Error).name)).toBe('LockTimeoutError');
    expect(withLockSync(nodeFileOpsSync, lock, () => read(lock), { timeoutMs: 5000, staleMs: 200 })).not.toContain('future mtime');
  });

  it('item 12: something other than a file at the lock path fails at once with LockPathError, in both paths', async () => {
    const dir = tempDir();
    const lock = lockPathFor(join(dir, 'f'));
    mkdirSync(lock);
    const expected = new LockPathError(lock, 'a directory');
    expect(expected.message).toBe(`${lock} is a directory, not a lock file; nothing can take the lock until it is removed`);
    await expect(withLock(nodeFileOps, lock, async () => 'no', { timeoutMs: 60_000 })).rejects.toEqual(expected);
    expect(() => withLockSync(nodeFileOpsSync, lock, () => 'no', { timeoutMs: 60_000 })).toThrow(expected);
  });
});

describe('update under the lock', () => {
  it('updateFile and updateFileSync read what is on disk now, apply the change, write atomically; undefined or equal bytes write nothing', async () => {
    const dir = tempDir();
    const path = join(dir, 'sub', 'list.txt');
    const append = (line: string) => (current: Uint8Array | undefined) => bytes(`${text(current) ?? ''}${line}\n`);
    expect(await updateFile(nodeFileOps, path, append('a'))).toBe(true);
    expect(updateFileSync(nodeFileOpsSync, path, append('b'))).toBe(true);
    expect(await updateFile(nodeFileOps, path, () => undefined)).toBe(false);
    expect(updateFileSync(nodeFileOpsSync, path, (current) => current)).toBe(false);
    expect(read(path)).toBe('a\nb\n');
    expect(names(join(dir, 'sub'))).toEqual(['list.txt']);
  });

  it('item 3: five processes appending 30 lines each to one file through updateFile lose no line', async () => {
    const dir = tempDir();
    const path = join(dir, 'list.txt');
    const script = `
      const { updateFile, nodeFileOps } = await import(${JSON.stringify(built('io/index.js'))});
      const [path, id] = process.argv.slice(1);
      for (let i = 0; i < 30; i++) {
        await updateFile(nodeFileOps, path, (current) => new TextEncoder().encode((current ? new TextDecoder().decode(current) : '') + id + '-' + i + '\\n'));
      }
    `;
    const runs = await Promise.all([0, 1, 2, 3, 4].map((id) => runScript(script, [path, String(id)])));
    expect(runs.map((r) => [r.status, r.stderr])).toEqual(runs.map(() => [0, '']));
    const lines = read(path).trimEnd().split('\n');
    expect(lines.sort()).toEqual([0, 1, 2, 3, 4].flatMap((id) => Array.from({ length: 30 }, (_, i) => `${id}-${i}`)).sort());
    expect(names(dir)).toEqual(['list.txt']);
  });
});

describe('the in-process queue', () => {
  it('runs tasks of one key in order, keeps going after a failure, lets other keys overlap, and forgets idle keys', async () => {
    const queue = new KeyedQueue<object>();
    const a = {};
    const b = {};
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run(a, async () => {
      await gate;
      order.push('a1');
    });
    const second = queue.run(a, () => {
      order.push('a2');
      throw new Error('a2 failed');
    });
    const third = queue.run(a, () => order.push('a3'));
    await queue.run(b, () => order.push('b1'));
    expect(order).toEqual(['b1']);
    expect(queue.busy(a)).toBe(true);
    release();
    await first;
    await expect(second).rejects.toThrow('a2 failed');
    await third;
    await queue.settled(a);
    expect(order).toEqual(['b1', 'a1', 'a2', 'a3']);
    expect([queue.busy(a), queue.busy(b)]).toEqual([false, false]);
  });
});

// Keep the port types exercised by the type checker: a wrapped port is still a port.
const _asyncPort: AsyncFileOps = nodeFileOps;
const _syncPort: SyncFileOps = nodeFileOpsSync;
void [_asyncPort, _syncPort];

describe('a FIFO where a file is expected (issue 18, CP-31)', () => {
  it('readPrefix refuses a FIFO without waiting for a writer, in both ports, and updateFile writes nothing over it', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'state.json');
    const { spawnSync } = await import('node:child_process');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // In a child process with a deadline: a blocking open would hang the thread for good.
    const result = await runScript(`
      const { nodeFileOps, nodeFileOpsSync, updateFile } = await import(${JSON.stringify(built('io/index.js'))});
      const out = [];
      try { await nodeFileOps.readPrefix(process.argv[1], 1024); out.push('read'); } catch (e) { out.push(e.code); }
      try { nodeFileOpsSync.readPrefix(process.argv[1], 1024); out.push('read'); } catch (e) { out.push(e.code); }
      try { await updateFile(nodeFileOps, process.argv[1], () => new TextEncoder().encode('x')); out.push('written'); } catch (e) { out.push(e.code ?? e.message); }
      process.stdout.write(JSON.stringify(out));
    `, [fifo], 30_000);
    expect(result.timedOut).toBe(false);
    const [asyncRead, syncRead, update] = JSON.parse(result.stdout) as string[];
    expect([asyncRead, syncRead]).toEqual(['EISDIR', 'EISDIR']);
    expect(update).not.toBe('written');
  });
});
