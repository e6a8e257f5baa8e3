// dsh-context-engine/fs: a DSH fs provider over node:fs.
export { createNodeFileSystem, NodeFileSystem } from './local.js';
export type { NodeFileSystemOptions } from './local.js';
export { applyEdit } from './edit.js';
export { BINARY_SNIFF_BYTES, STREAM_CHUNK_BYTES } from './stream.js';
