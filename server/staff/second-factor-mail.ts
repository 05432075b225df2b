import { BRAND_NAME } from '../../common/brand.ts';
import { formatDateTime } from '../../common/format.ts';
import type { RenderedMail } from '../mail/templates.ts';

// The mail that tells a staff member their two-factor codes were locked, beside the rule that sends
// it. Plain markup: a few lines, no picture, read on a phone as well as in a text-only client.

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export function secondFactorLockedMail(input: { email: string; failures: number; until: Date; resetUrl: string }): RenderedMail {
  const until = formatDateTime(input.until);
  const subject = `Two-factor sign-in of your ${BRAND_NAME} admin account is locked`;
  const lines = [
    `Someone typed the password of your ${BRAND_NAME} admin account (${input.email}) right, then ${input.failures} wrong two-factor codes.`,
    `To stop codes being guessed, every code for this account is refused until ${until}. An owner can lift the lock sooner, in the admin's Staff tab.`,
    'If this was not you, someone knows your password: choose a new one now, and tell an owner.',
  ];
  const text = [subject, '', ...lines.flatMap((line) => [line, '']), `Choose a new password: ${input.resetUrl}`, ''].join('\n');
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"></head>',
    '<body style="font-family:Helvetica,Arial,sans-serif;color:#1f2937;background:#f9fafb;padding:24px">',
    `<div style="max-width:560px;margin:0 auto;background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:28px">`,
    `<h1 style="font-size:22px;margin:0 0 16px">${escape(subject)}</h1>`,
    ...lines.map((line) => `<p style="font-size:16px;line-height:24px;margin:0 0 16px">${escape(line)}</p>`),
    `<p><a href="${escape(input.resetUrl)}" style="color:#7f1d1d;font-weight:600">Choose a new password</a></p>`,
    '</div></body></html>',
  ].join('');
  return { subject, html, text };
}
