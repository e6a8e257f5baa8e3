// dsh-context-engine/testing: a deterministic simulated DSH host for plugin tests, and the
// createTestHost driver that runs scripted sessions against it.
export { createTestHost, TestHost } from './host.js';
export type { CompactOptions, PluginHandle, TestHostOptions } from './host.js';
export type { ModelRequest, ScriptedToolCall, StepAnswer, StepScript } from './model.js';
export { ScriptedModel } from './model.js';
export { createMemoryFileSystem, MemoryFileSystem } from './memfs.js';
export type { MemoryFault, MemoryFileSystemOptions, MemoryFsCall } from './memfs.js';
export { EventBus, Fiber } from './events.js';
export type { DispatchScope } from './events.js';
export { TestContext } from './context.js';
export type { HostCore } from './context.js';
export { TestSession, SURFACE_EVENT_TYPES, assertUserMessage } from './session.js';
export type { TestSessionOptions } from './session.js';
export { TestInbox } from './inbox.js';
export type { InboxOwner } from './inbox.js';
export { TestAgent } from './agent.js';
export { ToolRegistry } from './tool-registry.js';
export { executeTool, errorResult } from './tool-pipeline.js';
export type { PipelineHost } from './tool-pipeline.js';
export { codeModeTool } from './code-mode.js';
export type { CodeCall } from './code-mode.js';
export { fileTools } from './file-tools.js';
export { PromptRegistry, systemText } from './prompt.js';
export { createRecordingLogger, formatLog } from './logger.js';
export type { LogEntry, LogLevel } from './logger.js';
export { ConfigValidationError, assertPluginModule, validateConfig } from './plugins.js';
export { TestCompletion, TestHttp } from './http.js';
