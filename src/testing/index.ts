// dsh-context-engine/testing: a deterministic simulated DSH host for plugin tests (the offline host
// of src/offline-host with an in-memory filesystem), the createTestHost driver that runs scripted
// sessions against it, and createDshHost, the same shape over real DSH. The offline host's classes
// are exported here under the names this module has always given them.
export { createTestHost, TestHost } from './host.js';
export type { CompactOptions, PluginHandle, TestHostOptions } from './host.js';
export type { ModelRequest, ScriptedToolCall, StepAnswer, StepScript } from '../offline-host/model.js';
export { ScriptedModel, OfflineLlm as TestLlm, modelRegistry } from '../offline-host/model.js';
export type { LlmAnswer } from '../offline-host/model.js';
export { createMemoryFileSystem, MemoryFileSystem } from './memfs.js';
export type { MemoryFault, MemoryFileSystemOptions, MemoryFsCall } from './memfs.js';
export { EventBus, Fiber } from '../offline-host/events.js';
export type { DispatchScope } from '../offline-host/events.js';
export { OfflineContext as TestContext } from '../offline-host/context.js';
export type { HostCore } from '../offline-host/context.js';
export { OfflineSession as TestSession, SURFACE_EVENT_TYPES, assertUserMessage } from '../offline-host/session.js';
export type { OfflineSessionOptions as TestSessionOptions } from '../offline-host/session.js';
export { OfflineInbox as TestInbox } from '../offline-host/inbox.js';
export type { InboxOwner } from '../offline-host/inbox.js';
export { OfflineAgent as TestAgent } from '../offline-host/agent.js';
export { ToolRegistry } from '../offline-host/tool-registry.js';
export { executeTool, errorResult } from '../offline-host/tool-pipeline.js';
export type { PipelineHost } from '../offline-host/tool-pipeline.js';
export { codeModeTool } from '../offline-host/code-mode.js';
export type { CodeCall } from '../offline-host/code-mode.js';
export { fileTools } from '../offline-host/file-tools.js';
export { PromptRegistry, systemText } from '../offline-host/prompt.js';
export { createRecordingLogger, formatLog } from '../offline-host/logger.js';
export type { LogEntry, LogLevel } from '../offline-host/logger.js';
export { ConfigValidationError, assertPluginModule, validateConfig } from '../offline-host/plugins.js';
export { MemorySpillStore, spillContent } from '../offline-host/spill.js';
export type { SpillOptions } from '../offline-host/spill.js';
export { OfflineWebServer as TestWebServer } from '../offline-host/http.js';
export { ServiceTable } from '../offline-host/services.js';
export { createDshHost, DshHost } from './real-dsh/host.js';
export type { DshHostOptions, DshRow, DshSession, DshTurn, HeadlessRun } from './real-dsh/host.js';
export { ensureRealDsh, packPackage, PINNED_DSH_DIR, PINNED_DSH_VERSION } from './real-dsh/install.js';
export type { RealDsh } from './real-dsh/install.js';
export { ScriptedChatServer, AUXILIARY_ANSWER } from './real-dsh/chat-server.js';
export type { ChatMessage, ChatRequest, ChatResponder, ChatScript, ChatTool, ScriptedChatServerOptions } from './real-dsh/chat-server.js';
export { chatMessages, chatRequest, chatTools } from './wire.js';
