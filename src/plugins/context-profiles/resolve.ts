// Resolution (spec CP-04, CP-06, CP-07, CP-11): which group and server a tool belongs to, its
// effective state under a profile (top-down, first match wins, extremes override children), and
// the deferral summary. Pure functions over the profile and the tool's schema.

import type { ToolSchema } from '../../host/index.js';
import { own } from './json.js';
import { PLUGIN_DEV_PREFIX, TOOL_GROUPS, type Effective, type GroupId, type Profile } from './model.js';

/** `mcp__<server>__<tool>`: how a tool name attributes an MCP server ([R]: the seed gives no field). */
const MCP_NAME = /^mcp__(.+?)__./;

/** A tool as resolution sees it: its schema and, optionally, an explicit MCP server. */
export type CatalogTool = ToolSchema & { readonly mcp?: { readonly server?: string } };

/**
 * The MCP server a tool is attributed to: an explicit `mcp.server` on the definition, else the
 * `mcp__<server>__<tool>` naming convention; undefined for non-MCP tools.
 */
export function serverOf(tool: CatalogTool): string | undefined {
  const explicit = tool.mcp?.server;
  if (typeof explicit === 'string' && explicit !== '') return explicit;
  return MCP_NAME.exec(tool.name)?.[1];
}

/** CP-04: the package table first, `cordis_*` to plugin-dev, then `mcp` with a server, else `other`. */
export function groupOf(tool: CatalogTool): GroupId {
  const known = TOOL_GROUPS.get(tool.name);
  if (known !== undefined) return known;
  if (tool.name.startsWith(PLUGIN_DEV_PREFIX)) return 'plugin-dev';
  return serverOf(tool) !== undefined ? 'mcp' : 'other';
}

/**
 * CP-06: the effective state of one tool. Absent entries mean `on`. Group and server `force`/`off`
 * override the tool's own state; `defer` is only a default the tool can tighten to `off` or
 * `defer` but not loosen. Hiding a group leaves the records below it untouched (CP-07).
 */
export function effectiveState(profile: Profile, tool: CatalogTool): Effective {
  // Names come from tools and servers (untrusted): only the profile's own entries count (item 13).
  const group = own(profile.groups, groupOf(tool)) ?? 'on';
  const serverName = serverOf(tool);
  const server = serverName !== undefined ? (own(profile.servers, serverName) ?? 'on') : 'on';
  const mine = own(profile.tools, tool.name) ?? 'on';
  if (group === 'force') return 'inject';
  if (group === 'off') return 'hidden';
  if (server === 'force') return 'inject';
  if (server === 'off') return 'hidden';
  if (mine === 'off') return 'hidden';
  if (mine === 'defer') return 'defer';
  if (group === 'defer' || server === 'defer') return 'defer';
  return 'inject';
}

/** Whether a group or server choice decides the row instead of the tool's own state (CP-UI-05). */
export function overridden(profile: Profile, tool: CatalogTool): boolean {
  const mine = own(profile.tools, tool.name) ?? 'on';
  const asOwn: Effective = mine === 'off' ? 'hidden' : mine === 'defer' ? 'defer' : 'inject';
  return effectiveState(profile, tool) !== asOwn;
}

/** The inject / defer / hidden lists of a catalog under a profile, each in catalog order. */
export interface Resolution {
  inject: string[];
  defer: string[];
  hidden: string[];
}

/** Resolves every tool of `catalog` (CP-37 preview). */
export function resolveAll(profile: Profile, catalog: readonly CatalogTool[]): Resolution {
  const out: Resolution = { inject: [], defer: [], hidden: [] };
  for (const tool of catalog) out[effectiveState(profile, tool)].push(tool.name);
  return out;
}

/**
 * CP-11 [R]: the first sentence of a description: up to and including the first `.`, `!` or `?`
 * followed by whitespace or the end, or up to and including the first `。`, `！`, `？`, or up to the
 * first line break, whichever comes first; trimmed.
 */
export function firstSentence(description: string): string {
  const text = description.trim();
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') return text.slice(0, i).trim();
    if (c === '。' || c === '！' || c === '？') return text.slice(0, i + 1);
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === text.length || /\s/.test(text[i + 1]!))) return text.slice(0, i + 1);
  }
  return text;
}

/** CP-11: server summary > group summary > first sentence of the description. */
export function deferralSummary(profile: Profile, tool: CatalogTool): string {
  const server = serverOf(tool);
  const byServer = server !== undefined ? own(profile.summaries, server) : undefined;
  if (typeof byServer === 'string' && byServer !== '') return byServer;
  const group = own(profile.summaries, groupOf(tool));
  if (typeof group === 'string' && group !== '') return group;
  return firstSentence(tool.description);
}
