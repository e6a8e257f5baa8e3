// dsh-context-engine/host: the DSH seam. Structural types for what our plugins touch, DSH's names,
// and the helpers every plugin shares (framing, project root, DSH home, project key, visibility).
export * from './names.js';
export type * from './cordis.js';
export type * from './agent.js';
export type * from './session.js';
export type * from './tools.js';
export type * from './prompt.js';
export type * from './http.js';
export type { FileSystem, FsDirEntry, FsEdit, FsEditOutcome, FsErrorCode, FsInfo, FsPathInfo, FsTarget, FsTargetKey, FsVersion, FsWriteExpectation, FsWriteOutcome } from './fs.js';
export { FsError, throwIfFsAborted } from './fs.js';
export type { ContentBlock, ContextForm, JsonValue, Message, MessageId, MessageSource, SessionId, TextBlock, UserMessage } from './message.js';
export { assertLosslessJson, createUserMessage, deepFreeze, messageText } from './message.js';
export { HOST_RUNTIME_SERVICE, hostRuntime } from './runtime.js';
export type { HostRuntime } from './runtime.js';
export { escapeReminder, frameReminder, systemReminder, REMINDER_CLOSE, REMINDER_CLOSE_ESCAPED, REMINDER_FRAME_BYTES, REMINDER_OPEN } from './framing.js';
export { DEFAULT_PROJECT_ROOT_MARKERS, findProjectRoot, locateProjectRoot } from './project-root.js';
export { CUSTOM_HOME_DISPLAY, DEFAULT_HOME_DISPLAY, expandHome, homeDisplayPath, resolveDshHome } from './dsh-home.js';
export type { DshHome, HomeEnvironment } from './dsh-home.js';
export { PROJECT_KEY_SLUG_MAX, projectKey } from './project-key.js';
export { fileTouchPath, hasSourceKind, isPluginSource, isStepOpen, isVisible, visibleEvents, visibleUserMessages } from './visibility.js';
export type { VisibleUserMessage } from './visibility.js';
export { parseSpillNotice, spillNotice } from './spill.js';
export type { SpillNotice, SpillStore } from './spill.js';
export { declaredEfforts } from './model.js';
export type { AgentDefaultModel, AgentRequestEvent, LlmCallConfig, LlmFinishReason, LlmService, LlmStreamChunk, LlmStreamOptions, ModelInfo } from './model.js';
export { assertSupportedJsonSchema, jsonSchemaViolations, UnsupportedSchemaError } from './json-schema.js';
