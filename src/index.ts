// dsh-context-engine: the engine today; the DSH plugins and the CLI build on it.
export * from './engine/index.js';
