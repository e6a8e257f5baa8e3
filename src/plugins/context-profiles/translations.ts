// Built-in Chinese descriptions for known tools (spec CP-UI-06), keyed by the exact original
// description text, so the panel shows them without a model call. A changed description no longer
// matches its key and is translated on demand instead. Panel display only: never model-visible.

/** Original description → Chinese. The keys are DSH rc.8's own descriptions of its file tools. */
export const BUILTIN_TRANSLATIONS: Readonly<Record<string, string>> = {
  'Read a UTF-8 text file and return line-numbered content.': '读取一个 UTF-8 文本文件，返回带行号的内容。',
  'Create or fully replace a UTF-8 text file.': '创建一个 UTF-8 文本文件，或完全替换其内容。',
  'Edit an existing UTF-8 text file by replacing literal text.': '通过替换字面文本，编辑一个已有的 UTF-8 文本文件。',
};
