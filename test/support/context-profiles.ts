// Fixtures for the context-profiles tests: a tool factory, a realistic MCP tool set (descriptions
// and parameter docs of the length real MCP servers ship), and host helpers.

import type { ToolDefinition } from '../../src/host/index.js';
import * as contextProfiles from '../../src/plugins/context-profiles/index.js';
import { createTestHost, type TestHost } from '../../src/testing/index.js';
import type { MemoryFileSystem } from '../../src/testing/index.js';

export { contextProfiles };

/** A tool that echoes its arguments; `calls` records executions. */
export function tool(name: string, description: string, parameters: Record<string, unknown> = { type: 'object', properties: {} }, calls: unknown[] = []): ToolDefinition {
  return {
    name,
    description,
    parameters,
    output: { schema: { type: 'object' }, render: (_a, v) => [{ type: 'text', text: JSON.stringify(v) }] },
    async execute(args) {
      calls.push(args);
      return { ran: name, args: args as never };
    },
  };
}

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });
const num = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'number', description, ...extra });
const bool = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'boolean', description, ...extra });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });
const OWNER = str('Repository owner: the user or organization login that owns the repository, for example "octocat".');
const REPO = str('Repository name without the owner, for example "hello-world". Case-insensitive on the server side.');
const PAGE = num('Page number of the results to fetch, starting at 1. Use together with perPage to walk long lists.', { minimum: 1, default: 1 });
const PER_PAGE = num('Results per page, at most 100. Smaller pages answer faster and keep tool results short.', { minimum: 1, maximum: 100, default: 30 });

/** MCP-style tools (server `github` and `browser`), written for these tests after the shape of public MCP servers. */
export const MCP_TOOLS: readonly [string, string, Record<string, unknown>][] = [
  ['mcp__github__get_issue', 'Get the details of a single issue in a GitHub repository, including its title, body, state, labels, assignees and milestone. Use this when you already know the issue number; search_issues finds issues by text.', obj({ owner: OWNER, repo: REPO, issue_number: num('The number of the issue, as shown after the # in the GitHub UI.') }, ['owner', 'repo', 'issue_number'])],
  ['mcp__github__create_issue', 'Create a new issue in a GitHub repository. The authenticated user becomes the author. Returns the created issue with its number and URL so you can reference it in later calls.', obj({ owner: OWNER, repo: REPO, title: str('Issue title: one line that states the problem or request.'), body: str('Issue body in GitHub-flavoured Markdown. Include reproduction steps, expected and actual behaviour.'), labels: { type: 'array', items: str('A label name that already exists in the repository.'), description: 'Labels to apply. Unknown labels are rejected by the server.' }, assignees: { type: 'array', items: str('A GitHub login.'), description: 'Logins of users to assign; they must have access to the repository.' }, milestone: num('Number of the milestone to associate the issue with.') }, ['owner', 'repo', 'title'])],
  ['mcp__github__update_issue', 'Update an existing issue: change its title, body, state, labels, assignees or milestone. Only the fields you pass are changed; omitted fields keep their current values.', obj({ owner: OWNER, repo: REPO, issue_number: num('The number of the issue to update.'), title: str('New title.'), body: str('New body in Markdown; replaces the whole body.'), state: { type: 'string', enum: ['open', 'closed'], description: 'New state of the issue. Closing does not delete anything.' }, labels: { type: 'array', items: { type: 'string' }, description: 'Replaces all labels on the issue.' } }, ['owner', 'repo', 'issue_number'])],
  ['mcp__github__list_issues', 'List issues in a GitHub repository with optional filters. Pull requests are excluded. Results are paginated; use page and perPage to fetch more than one page.', obj({ owner: OWNER, repo: REPO, state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Filter by state. Defaults to open issues only.', default: 'open' }, labels: { type: 'array', items: { type: 'string' }, description: 'Only issues that carry all of these labels.' }, sort: { type: 'string', enum: ['created', 'updated', 'comments'], description: 'Sort field.', default: 'created' }, direction: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction.', default: 'desc' }, since: str('Only issues updated at or after this ISO 8601 timestamp, e.g. 2024-01-01T00:00:00Z.', { format: 'date-time' }), page: PAGE, perPage: PER_PAGE }, ['owner', 'repo'])],
  ['mcp__github__search_issues', 'Search issues and pull requests across GitHub with the GitHub search syntax (for example "repo:owner/name is:open label:bug"). Returns matching items with their repository, number, title and state.', obj({ q: str('Search query in GitHub issue search syntax. Qualifiers such as repo:, is:, label:, author: narrow the results.'), sort: { type: 'string', enum: ['comments', 'reactions', 'created', 'updated'], description: 'Sort field; best match when omitted.' }, order: { type: 'string', enum: ['asc', 'desc'], description: 'Sort order.' }, page: PAGE, perPage: PER_PAGE }, ['q'])],
  ['mcp__github__add_issue_comment', 'Add a comment to an issue or pull request. The comment is posted as the authenticated user and is visible to everyone who can see the repository.', obj({ owner: OWNER, repo: REPO, issue_number: num('Number of the issue or pull request to comment on.'), body: str('Comment text in GitHub-flavoured Markdown.') }, ['owner', 'repo', 'issue_number', 'body'])],
  ['mcp__github__get_pull_request', 'Get the details of a pull request: title, body, head and base branches, mergeability, review state and the number of changed files.', obj({ owner: OWNER, repo: REPO, pull_number: num('The number of the pull request.') }, ['owner', 'repo', 'pull_number'])],
  ['mcp__github__create_pull_request', 'Open a new pull request from a head branch into a base branch. The head branch must already exist on the remote. Returns the pull request number and URL.', obj({ owner: OWNER, repo: REPO, title: str('Pull request title.'), body: str('Description in Markdown: what changed and why, and how it was tested.'), head: str('The branch that contains your changes; use "user:branch" for a fork.'), base: str('The branch you want the changes pulled into, usually the default branch.'), draft: bool('Open as a draft pull request that cannot be merged until marked ready.', { default: false }), maintainer_can_modify: bool('Whether maintainers of the base repository may push to the head branch.', { default: true }) }, ['owner', 'repo', 'title', 'head', 'base'])],
  ['mcp__github__merge_pull_request', 'Merge a pull request. Fails when the pull request is not mergeable, checks are failing under branch protection, or reviews are missing. This cannot be undone from the tool.', obj({ owner: OWNER, repo: REPO, pull_number: num('The number of the pull request to merge.'), commit_title: str('Title of the merge commit; defaults to the pull request title.'), commit_message: str('Extra detail appended to the merge commit message.'), merge_method: { type: 'string', enum: ['merge', 'squash', 'rebase'], description: 'How to merge. The repository settings may disallow some methods.', default: 'merge' } }, ['owner', 'repo', 'pull_number'])],
  ['mcp__github__get_file_contents', 'Get the contents of a file or a directory listing from a GitHub repository at a branch, tag or commit. Files are returned decoded as text when they are not binary.', obj({ owner: OWNER, repo: REPO, path: str('Path of the file or directory inside the repository, without a leading slash.'), ref: str('Branch, tag or commit SHA to read from; the default branch when omitted.') }, ['owner', 'repo', 'path'])],
  ['mcp__github__create_or_update_file', 'Create a new file or replace an existing file in a repository with a single commit. Updating requires the blob SHA of the file being replaced, which get_file_contents returns.', obj({ owner: OWNER, repo: REPO, path: str('Path of the file to write.'), content: str('The new file content as plain text.'), message: str('Commit message.'), branch: str('Branch to commit to; it must exist.'), sha: str('Blob SHA of the file being replaced; required when the file already exists.') }, ['owner', 'repo', 'path', 'content', 'message', 'branch'])],
  ['mcp__github__list_commits', 'List commits on a branch of a repository, newest first, with their SHA, author, date and message. Paginated.', obj({ owner: OWNER, repo: REPO, sha: str('Branch name or commit SHA to start listing from.'), path: str('Only commits that touch this path.'), author: str('Only commits by this GitHub login or email address.'), page: PAGE, perPage: PER_PAGE }, ['owner', 'repo'])],
  ['mcp__github__search_code', 'Search code across GitHub repositories with the code search syntax. Returns file paths, repositories and matching fragments. Only the default branch is indexed.', obj({ q: str('Code search query, e.g. "addClass in:file language:js repo:jquery/jquery".'), page: PAGE, perPage: PER_PAGE }, ['q'])],
  ['mcp__browser__navigate', 'Navigate the controlled browser tab to a URL and wait until the page has loaded. Use this before taking snapshots or interacting with a page.', obj({ url: str('The absolute URL to open, including the scheme, e.g. https://example.com/.') }, ['url'])],
  ['mcp__browser__snapshot', 'Capture an accessibility snapshot of the current page. The snapshot lists interactive elements with references you pass to click and type; it is better than a screenshot for acting on the page.', obj({})],
  ['mcp__browser__click', 'Click an element on the current page. Identify the element by the reference from the latest snapshot and describe it in words so the action can be audited.', obj({ element: str('Human-readable description of the element, used to obtain permission to interact with it.'), ref: str('Exact element reference from the page snapshot.'), doubleClick: bool('Whether to double-click instead of single-click.', { default: false }), button: { type: 'string', enum: ['left', 'right', 'middle'], description: 'Mouse button to use.', default: 'left' } }, ['element', 'ref'])],
  ['mcp__browser__type', 'Type text into an editable element on the current page, optionally submitting it by pressing Enter afterwards.', obj({ element: str('Human-readable description of the element.'), ref: str('Exact element reference from the page snapshot.'), text: str('Text to type into the element.'), submit: bool('Press Enter after typing.', { default: false }), slowly: bool('Type one character at a time, to trigger key handlers; slower.', { default: false }) }, ['element', 'ref', 'text'])],
  ['mcp__browser__take_screenshot', 'Take a screenshot of the current page or of one element. You cannot act on a screenshot; use snapshot for that. Returns an image.', obj({ type: { type: 'string', enum: ['png', 'jpeg'], description: 'Image format; png by default.', default: 'png' }, filename: str('File name to save the screenshot to; a generated name when omitted.'), element: str('Description of the element to capture; the whole viewport when omitted.'), ref: str('Element reference from the snapshot; required with element.'), fullPage: bool('Capture the full scrollable page instead of the viewport.', { default: false }) })],
  ['mcp__browser__evaluate', 'Evaluate a JavaScript expression in the page or on one element and return its JSON-serializable result.', obj({ function: str('A JavaScript function source, "() => { ... }" or "(element) => { ... }" when an element is given.'), element: str('Human-readable description of the element.'), ref: str('Element reference from the snapshot.') }, ['function'])],
  ['mcp__browser__wait_for', 'Wait for text to appear or disappear on the page, or for a number of seconds to pass.', obj({ time: num('Seconds to wait.'), text: str('Text to wait for.'), textGone: str('Text to wait to disappear.') })],
];

/** The realistic set as definitions. */
export function mcpTools(): ToolDefinition[] {
  return MCP_TOOLS.map(([name, description, parameters]) => tool(name, description, parameters));
}

/** First-party-style tools across the groups (names from the package table). */
export function hostTools(): ToolDefinition[] {
  return [
    tool('grep', 'Search file contents with a regular expression. Returns matching lines.', obj({ pattern: str('Regex.'), path: str('Directory.') }, ['pattern'])),
    tool('bash', 'Run a shell command. Output is returned when it finishes.', obj({ command: str('The command.'), timeout: num('Milliseconds.', { default: 120000 }) }, ['command'])),
    tool('ask_user_question', 'Ask the user a question and wait for the answer.', obj({ question: str('The question.') }, ['question'])),
    tool('todo_write', 'Record a plan of steps. The plan is shown to the user.', obj({ steps: { type: 'array', items: str('A step.') } }, ['steps'])),
    tool('plugin_manager', 'Install, enable or disable DSH plugins.', obj({ action: { type: 'string', enum: ['install', 'enable', 'disable'] }, name: str('Plugin.') }, ['action', 'name'])),
    tool('cordis_inspect', 'Inspect the Cordis plugin graph.', obj({})),
    tool('lsp', 'Query the language server: hover, definition and references.', obj({ file: str('Path.'), line: num('Line.') }, ['file', 'line'])),
    tool('third_party_widget', 'A third-party plugin tool without an MCP server.', obj({ x: num('A number.') })),
  ];
}

/** A host with `tools` registered globally, the plugin mounted on a fresh DSH home. */
export function mountHost(home: string, options: { tools?: ToolDefinition[]; sessionId?: string; subagent?: boolean; refreshContexts?: boolean; config?: contextProfiles.Config } = {}): { host: TestHost<MemoryFileSystem>; profiles: contextProfiles.Profiles } {
  const host = createTestHost({ dshHome: home, cwd: '/repo', files: {}, sessionId: options.sessionId, subagent: options.subagent, refreshContexts: options.refreshContexts });
  for (const def of options.tools ?? []) host.ctx.tools.register(def);
  const handle = host.use(contextProfiles, options.config ?? {});
  return { host, profiles: contextProfiles.mounted.get(handle.ctx)! };
}

/** A one-step reply. */
export const reply = [{ text: 'ok' }];
