// `<system-reminder>` framing and escaping (spec X-08). The frame is the plugin's job: DSH projects
// user/message content verbatim, with no wrapper, so anything repository-controlled inside the body
// must not be able to close the frame early.

export const REMINDER_OPEN = '<system-reminder>';
export const REMINDER_CLOSE = '</system-reminder>';
/** What `escapeReminder` writes for each `</system-reminder>` (upstream DSH's choice). */
export const REMINDER_CLOSE_ESCAPED = '<\\/system-reminder>';

/**
 * Replaces every exact, case-sensitive `</system-reminder>` with `<\/system-reminder>`. Idempotent
 * (the escaped form contains no closing tag), and deliberately blind to case variants and other tags
 * (NG-X-1). Run it after composing the body and before counting bytes.
 */
export function escapeReminder(text: string): string {
  return text.split(REMINDER_CLOSE).join(REMINDER_CLOSE_ESCAPED);
}

/**
 * Frames an already-escaped body exactly as `<system-reminder>\n<body>\n</system-reminder>`. Use it
 * when the caller escaped parts itself (to count bytes of the escaped text); otherwise use
 * `systemReminder`.
 */
export function frameReminder(escapedBody: string): string {
  return `${REMINDER_OPEN}\n${escapedBody}\n${REMINDER_CLOSE}`;
}

/** Escapes the whole body, then frames it: the usual way to build an injected block. */
export function systemReminder(body: string): string {
  return frameReminder(escapeReminder(body));
}

/** UTF-8 bytes the frame adds around a body (`<system-reminder>\n` + `\n</system-reminder>`). */
export const REMINDER_FRAME_BYTES = REMINDER_OPEN.length + REMINDER_CLOSE.length + 2;
