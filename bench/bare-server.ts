import fs from 'node:fs';
import http from 'node:http';

// The yardstick of `npm run bench`: a bare node:http server that answers each path with the very
// bytes and headers the site answered it with, and does nothing else. Started as its own process,
// like the site, so both get the machine on the same terms.
//   node bench/bare-server.ts <answers.json> <port>

interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

const answers = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Record<string, RecordedAnswer>;
const prepared = new Map(
  Object.entries(answers).map(([path, answer]) => [path, { ...answer, body: Buffer.from(answer.bodyBase64, 'base64') }]),
);

http
  .createServer((request, response) => {
    const answer = prepared.get(request.url ?? '/');
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
    response.end(answer.body);
  })
  .listen(Number(process.argv[3]), '127.0.0.1', () => console.log('ready'));
