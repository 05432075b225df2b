import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

interface MailToSend {
  id: string;
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  unsubscribeUrl: string | null;
  /** A calendar file (.ics) to send with the message, which mail apps offer to add. */
  calendar: string | null;
}

/** How a message leaves the site: an SMTP server, or (without SMTP_URL) an .eml file to open by hand. */
export interface MailTransport {
  send(mail: MailToSend): Promise<void>;
  close(): void;
}

function messageOptions(from: string, mail: MailToSend) {
  return {
    from,
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    // The outbox id as Message-ID: should a message ever be sent twice, receivers see one message.
    messageId: `<${mail.id}@${from.replace(/^.*@/, '').replace(/>$/, '')}>`,
    // RFC 8058 one-click unsubscribe for mail the account does not need.
    list: mail.unsubscribeUrl ? { unsubscribe: { url: mail.unsubscribeUrl, comment: 'Unsubscribe' } } : undefined,
    headers: mail.unsubscribeUrl ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined,
    icalEvent: mail.calendar ? { method: 'PUBLISH', filename: 'invite.ics', content: mail.calendar } : undefined,
  };
}

export function createMailTransport(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
  /** The longest wait for the SMTP server: to connect, to greet, and for each answer. */
  timeoutMs: number;
}): MailTransport {
  const { from } = options;
  if (options.smtpUrl) {
    // A silent server fails the try within the timeout; the outbox tries again (mail-worker.ts).
    const smtp = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    return {
      async send(mail) {
        await smtp.sendMail(messageOptions(from, mail));
      },
      close: () => smtp.close(),
    };
  }
  // The embedded default: a standard .eml file per message, so a fresh install works offline.
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await files.sendMail(messageOptions(from, mail));
      await fs.promises.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`);
      // Written aside, then renamed: whoever watches the folder never opens half a message.
      await fs.promises.writeFile(`${file}.part`, info.message as Buffer);
      await fs.promises.rename(`${file}.part`, file);
      options.log.info({ file }, 'email written to a file (no SMTP_URL is set)');
    },
    close: () => files.close(),
  };
}
