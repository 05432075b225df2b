import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';

/** A real SMTP server in the test process: it accepts every message and keeps it, parsed. */
export interface TestSmtpServer {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** The messages sent to this address so far. */
  to(address: string): ParsedMail[];
  /** Waits until `count` messages reached this address, then returns them. */
  waitFor(address: string, count?: number): Promise<ParsedMail[]>;
  /** While down, every message is refused with a temporary error (an outage). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  let down = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (down) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          messages.push(parsed);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const recipients = (mail: ParsedMail) =>
    [mail.to].flat().flatMap((entry) => entry?.value.map((value) => value.address?.toLowerCase()) ?? []);
  const to = (address: string) => messages.filter((mail) => recipients(mail).includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    to,
    async waitFor(address, count = 1) {
      await expect.poll(() => to(address).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
      return to(address);
    },
    setDown(value) {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text part that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const match = (mail.text ?? '').match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^\\s\\]]+`));
  if (!match) throw new Error(`No link starting with ${prefix} in: ${mail.text}`);
  return match[0];
}
