// `<system-reminder>` framing and `</system-reminder>` escaping.

import { describe, expect, it } from 'vitest';
import { escapeReminder, frameReminder, REMINDER_FRAME_BYTES, systemReminder } from '../../src/host/index.js';

describe('escapeReminder', () => {
  it('X-08 rewrites every exact closing tag as <\\/system-reminder>', () => {
    expect(escapeReminder('a</system-reminder>b</system-reminder>')).toBe('a<\\/system-reminder>b<\\/system-reminder>');
  });

  it('X-08 is idempotent', () => {
    const once = escapeReminder('x </system-reminder> y');
    expect(escapeReminder(once)).toBe(once);
  });

  it('X-08 leaves case variants, opening tags and other tags alone (NG-X-1)', () => {
    for (const text of ['</System-Reminder>', '</SYSTEM-REMINDER>', '<system-reminder>', '</system-reminder >', '</other>']) {
      expect(escapeReminder(text)).toBe(text);
    }
  });
});

describe('framing', () => {
  it('X-08 frames exactly as <system-reminder>\\n<body>\\n</system-reminder>', () => {
    expect(frameReminder('body')).toBe('<system-reminder>\nbody\n</system-reminder>');
    expect(frameReminder('')).toBe('<system-reminder>\n\n</system-reminder>');
  });

  it('X-08 systemReminder escapes the body before framing, so the body cannot close the frame', () => {
    expect(systemReminder('see </system-reminder> here')).toBe('<system-reminder>\nsee <\\/system-reminder> here\n</system-reminder>');
  });

  it('X-08 REMINDER_FRAME_BYTES is what the frame adds to a body', () => {
    expect(Buffer.byteLength(frameReminder('é'))).toBe(Buffer.byteLength('é') + REMINDER_FRAME_BYTES);
  });
});
