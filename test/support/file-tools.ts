// What DSH rc.8's own file tools answer the model (the simulated host's read, write and edit word
// their results the same way): typed out here so a test states the text it expects.

/** `read`'s envelope for a whole file: numbered lines and the end-of-file footer. */
export function readResult(path: string, text: string): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const body = lines.length > 0 ? `${lines.map((line, i) => `${i + 1}: ${line.replace(/\r$/, '')}`).join('\n')}\n\n(End of file - total ${lines.length} lines)` : '(End of file - total 0 lines)';
  return `<path>${path}</path>\n<type>file</type>\n<content>\n${body}\n</content>`;
}

/** `read`'s error for a missing file. */
export const readMissing = (path: string): string => `Error: cannot read "${path}": not found`;

/** `write`'s confirmation. */
export const writeResult = (path: string, created: boolean): string => `<path>${path}</path>\n<type>file</type>\n<content>\n${created ? 'Created' : 'Updated'} file\n</content>`;

/** `edit`'s confirmation. */
export const editResult = (path: string, all = false): string => (all ? `The file ${path} has been updated. All occurrences were successfully replaced.` : `The file ${path} has been updated successfully.`);
