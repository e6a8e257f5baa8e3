// Which project a session belongs to (spec AM-05..AM-07): the project root found by markers from the
// session cwd, its DSH session-directory key, and its memory directory under the memory root (the
// key's folder, unless another project's root is recorded there: folder.ts).

import type { Agent } from '../../host/agent.js';
import type { FileSystem } from '../../host/fs.js';
import { findProjectRoot } from '../../host/project-root.js';
import { projectKey } from '../../host/project-key.js';
import { nodeDisk } from './disk.js';
import { memoryFolder, type FolderAccess } from './folder.js';

/** A session's project. */
export interface Project {
  /** The session cwd (absolute). */
  readonly cwd: string;
  /** The project root: the nearest ancestor with a marker, else the cwd (AM-05). */
  readonly root: string;
  /** `projectKey(root)` (AM-06). */
  readonly key: string;
  /** `<memory root>/<key>` (AM-07), or the fallback folder when that one belongs to another root (folder.ts). */
  readonly memdir: string;
}

/** Reads owner files through node:fs and claims nothing: what a tool that only looks needs (`dsh-context inspect`). */
export const LOOK_ONLY_FOLDERS: FolderAccess = { disk: nodeDisk, claim: false };

/**
 * Resolves the project of `agent` (or of the process cwd without one): the session cwd, the
 * project root by X-09 through the fs provider (without a provider the cwd is the root, as no
 * marker can be probed), its key and its memory directory under `memoryRoot`.
 */
export async function resolveProject(
  agent: Pick<Agent, 'session'> | undefined, processCwd: string, markers: readonly string[], fs: FileSystem | undefined, memoryRoot: string, signal?: AbortSignal,
  folders: FolderAccess = LOOK_ONLY_FOLDERS,
): Promise<Project> {
  return projectAt(agent?.session.header.cwd ?? processCwd, markers, fs, memoryRoot, signal, folders);
}

/**
 * The project of a session whose cwd is `cwd` (AM-05..AM-07), as `resolveProject` finds it for an
 * agent; for tools that ask about a directory without a session (the CLI's inspect).
 * @param cwd the absolute session cwd
 * @param markers the project-root markers
 * @param fs the fs provider the markers are probed through; without one the cwd is the root
 * @param memoryRoot the resolved auto-memory `root`
 * @param signal cancels the marker probes
 * @param folders how memory folders' owner files are read, and whether an unclaimed folder is claimed (default: read through node:fs, never claim)
 * @returns the project: cwd, root, key and memory directory
 */
export async function projectAt(
  cwd: string, markers: readonly string[], fs: FileSystem | undefined, memoryRoot: string, signal?: AbortSignal, folders: FolderAccess = LOOK_ONLY_FOLDERS,
): Promise<Project> {
  const root = fs === undefined ? cwd : await findProjectRoot(cwd, markers, fs, signal);
  const key = projectKey(root);
  return { cwd, root, key, memdir: await memoryFolder(memoryRoot, key, root, folders) };
}

/** Whether an agent is a sub-agent (its session says so), which gets no injection by default (AM-29). */
export function isSubagent(agent: Pick<Agent, 'session'>): boolean {
  return agent.session.header.origin === 'subagent' || agent.session.header.parentSession !== undefined;
}
