// DSH's `read` result (dsh-tool-fs 0.1.0-rc.8): `<path>P</path>\n<type>file</type>\n<content>\n`, the
// numbered lines of the window (`N: text`), a blank line, a footer saying where the window ends
// (`(End of file - total N lines)`, `(Showing lines a-b of N. …)`, `(Output capped. …)`), then
// `\n</content>`; an empty window is the footer alone. Read by string search, not a regular
// expression: the text is a file's content, so anything can be in it.

const OPEN = '<path>';
const HEAD_END = '</path>\n<type>file</type>\n<content>\n';
const CLOSE = '\n</content>';
/** What separates the window's last line from the footer. */
const FOOTER_GAP = '\n\n(';

/**
 * How many lines of the file a `read` result shows: the numbered lines inside DSH's envelope, not
 * the envelope's own lines.
 * @param text - the result's text.
 * @returns the window's line count, or undefined when `text` is not DSH's read envelope.
 */
export function readWindowLines(text: string): number | undefined {
  if (!text.startsWith(OPEN) || !text.endsWith(CLOSE)) return undefined;
  const head = text.indexOf(HEAD_END);
  const newline = text.indexOf('\n');
  if (head < 0 || newline < head) return undefined;
  const body = text.slice(head + HEAD_END.length, text.length - CLOSE.length);
  if (body.startsWith('(') && !body.includes('\n')) return 0;
  const gap = body.lastIndexOf(FOOTER_GAP);
  if (gap < 0) return undefined;
  let lines = 1;
  for (let i = body.indexOf('\n'); i >= 0 && i < gap; i = body.indexOf('\n', i + 1)) lines++;
  return lines;
}
