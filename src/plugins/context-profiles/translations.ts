// Built-in Chinese descriptions for known tools (spec CP-UI-06), keyed by the exact original
// description text, so the panel shows them without a model call. A changed description no longer
// matches its key and is translated on demand instead. Panel display only: never model-visible.

/** Original description → Chinese. */
export const BUILTIN_TRANSLATIONS: Readonly<Record<string, string>> = {
  'Read a text file.': '读取一个文本文件。',
  'Write a text file, replacing its content.': '写入一个文本文件,替换其原有内容。',
  'Replace an exact string in a text file.': '在文本文件中替换一段完全匹配的字符串。',
};
