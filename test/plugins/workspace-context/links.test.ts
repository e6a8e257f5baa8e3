// Instruction files that lead out of the project (issue 32 item 6; fence.ts). DSH's loader follows a
// candidate wherever it leads (WC-13, NG-WC-5): a cloned repository whose CLAUDE.md is a link to
// ../../.git-credentials put the token into the first model request. A project candidate whose real
// path is outside the project root is refused, with a warning naming the link, unless it is the
// user-global AGENTS.md or under allowedLinkTargets; every other outcome stays DSH's.

import { describe, expect, it } from 'vitest';
import {
  baselineText, changesOf, instructionMessages, loggedInstructions, mount, remove, reply, section, texts,
} from '../../support/workspace-context.js';

const SECRET = 'https://user:ghp_SECRETTOKEN@github.com';
const refused = (link: string, target: string) => ({
  level: 'warn', name: 'workspace-context',
  message: `workspace-context: not loading ${link}: it leads to ${target}, outside the project root, so it is not sent to the model (DSH's own loader would send it); allow it with the allowedLinkTargets config key`,
});

describe('item 6: links out of the project are refused', () => {
  it('WC-13 WC-43 item 6: a CLAUDE.md linking to ../../.git-credentials is not sent, and the warning names the link and its target', async () => {
    const host = mount({ '/home/user/.git-credentials': SECRET, '/home/user/code/repo/.git/HEAD': '', '/home/user/code/repo/AGENTS.md': 'rules' }, undefined, { cwd: '/home/user/code/repo' });
    host.fs.symlink('/home/user/code/repo/CLAUDE.md', '../../.git-credentials');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'rules'))]]);
    expect(JSON.stringify(host.requests)).not.toContain('SECRETTOKEN');
    expect(host.logs).toEqual([refused('CLAUDE.md', '/home/user/.git-credentials')]);
    // Said once, not at every step.
    await host.run('again', reply);
    expect(host.logs).toHaveLength(1);
  });

  it('WC-13 item 6: a nested file reached through a directory link out of the project is refused too; the home\'s AGENTS.md is allowed', async () => {
    const host = mount({ '/home/user/.dsh/AGENTS.md': 'user global', '/outside/pkg/AGENTS.md': 'from outside', '/outside/pkg/x.ts': 'x' });
    host.fs.symlink('/repo/pkg', '/outside/pkg');
    host.fs.symlink('/repo/CLAUDE.md', '/home/user/.dsh/AGENTS.md');
    await host.run('hi', [{ tools: [{ name: 'read', input: { file_path: 'pkg/x.ts' } }] }, { text: 'ok' }]);
    const sent = loggedInstructions(host).flatMap(texts).join('\n');
    expect(sent).not.toContain('from outside');
    // CLAUDE.md is the user-global file under another name: same text, so in the root it renders as itself.
    expect(sent).toContain('Instructions from: CLAUDE.md\n\nuser global');
    expect(host.logs).toEqual([refused('pkg/AGENTS.md', '/outside/pkg/AGENTS.md')]);
  });

  it('WC-16 item 6: a loaded file replaced by a link out of the project is withdrawn at the next step', async () => {
    const host = mount({ '/repo/AGENTS.md': 'rules', '/etc/secret': 'secret' });
    await host.run('hi', reply);
    host.fs.remove('/repo/AGENTS.md');
    host.fs.symlink('/repo/AGENTS.md', '/etc/secret');
    await host.run('next', reply);
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([remove('.', 'AGENTS.md', 'AGENTS.md')]);
    expect(JSON.stringify(host.requests)).not.toContain('secret\n');
  });

  it('WC-09 item 6: allowedLinkTargets lets a link out load (`~` is the OS home), and only under the paths it names', async () => {
    const files = { '/home/user/team/AGENTS.md': 'team rules', '/home/user/other/CLAUDE.md': 'other' };
    const host = mount(files, { maxBytes: 65536, allowedLinkTargets: ['~/team'] });
    host.fs.symlink('/repo/AGENTS.md', '/home/user/team/AGENTS.md');
    host.fs.symlink('/repo/CLAUDE.md', '/home/user/other/CLAUDE.md');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'team rules'))]]);
    expect(host.logs).toEqual([refused('CLAUDE.md', '/home/user/other/CLAUDE.md')]);
  });

  it('WC-13 item 6: of the DSH home only its AGENTS.md may be led to: a CLAUDE.md linking to its .credentials.yaml is refused', async () => {
    const host = mount({ '/home/user/.dsh/.credentials.yaml': 'deepseek: sk-SECRETKEY', '/repo/AGENTS.md': 'rules' });
    host.fs.symlink('/repo/CLAUDE.md', '../home/user/.dsh/.credentials.yaml');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'rules'))]]);
    expect(JSON.stringify(host.requests)).not.toContain('SECRETKEY');
    expect(host.logs).toEqual([refused('CLAUDE.md', '/home/user/.dsh/.credentials.yaml')]);
  });

  it('WC-09 WC-16 item 6: an allowedLinkTargets entry that cannot be a path (a file on its way) allows nothing and holds nothing back', async () => {
    const files = { '/home/user/.gitconfig': '[user]', '/home/user/team/AGENTS.md': 'team rules', '/repo/AGENTS.md': 'rules' };
    const host = mount(files, { maxBytes: 65536, allowedLinkTargets: ['~/.gitconfig/x', '~/team'] });
    host.fs.symlink('/repo/CLAUDE.md', '/home/user/team/AGENTS.md');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'rules'), section('CLAUDE.md', 'team rules'))]]);
    expect(host.logs).toEqual([]);
  });

  it('WC-13 item 6: the user-global AGENTS.md is the user\'s own file and is followed wherever it leads', async () => {
    const host = mount({ '/home/user/dotfiles/AGENTS.md': 'from dotfiles' });
    host.fs.symlink('/home/user/.dsh/AGENTS.md', '/home/user/dotfiles/AGENTS.md');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('~/.dsh/AGENTS.md', 'from dotfiles'))]]);
    expect(host.logs).toEqual([]);
  });
});
