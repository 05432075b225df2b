import net from 'node:net';

export interface HandWrittenAnswer {
  /** The status line, as `HTTP/1.1 400 Bad Request`, or 'no answer' when none came within the wait. */
  status: string;
  /** The header lines, in lower case. */
  head: string;
  body: string;
}

/**
 * A request written by hand to a server (a header twice, in capitals, no length at all, which an
 * HTTP client would not send), on a connection of its own that it closes, and the answer as sent.
 */
export function requestByHand(
  origin: string,
  request: { method: string; path: string; headerLines: string[] },
  waitMs = 5_000,
): Promise<HandWrittenAnswer> {
  const { hostname, port } = new URL(origin);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${hostname}`, 'Connection: close', ...request.headerLines];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    const chunks: Buffer[] = [];
    const gaveUp = setTimeout(() => {
      socket.destroy();
      resolve({ status: 'no answer', head: '', body: '' });
    }, waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      clearTimeout(gaveUp);
      const text = Buffer.concat(chunks).toString('latin1');
      const [status = '', ...headers] = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
      resolve({ status, head: headers.join('\n').toLowerCase(), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', (error) => {
      clearTimeout(gaveUp);
      reject(error);
    });
  });
}
