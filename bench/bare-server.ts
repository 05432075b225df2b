import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

// The yardstick of `npm run bench`: a bare node:http server that answers each path with the very
// bytes and headers the site answered it with, and does nothing else. Started as its own process,
// like the site, so both get the machine on the same terms. Given a folder (the client build), it
// also sends the files in it, their brotli copy to a browser that takes it, as the site's static
// files are sent: Lighthouse then loads a bare page with the site's own images and fonts.
//   node bench/bare-server.ts <answers.json> <port> [static folder]

interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

const answers = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Record<string, RecordedAnswer>;
const prepared = new Map(
  Object.entries(answers).map(([path, answer]) => [path, { ...answer, body: Buffer.from(answer.bodyBase64, 'base64') }]),
);
const staticRoot = process.argv[4];
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

function staticFile(urlPath: string, acceptEncoding: string): { body: Buffer; headers: Record<string, string> } | null {
  if (!staticRoot) return null;
  const file = path.join(staticRoot, path.normalize(decodeURIComponent(urlPath.split('?')[0]!)));
  if (!file.startsWith(staticRoot) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return null;
  const headers: Record<string, string> = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
  if (acceptEncoding.includes('br') && fs.existsSync(`${file}.br`)) {
    return { body: fs.readFileSync(`${file}.br`), headers: { ...headers, 'content-encoding': 'br', vary: 'Accept-Encoding' } };
  }
  return { body: fs.readFileSync(file), headers };
}

http
  .createServer((request, response) => {
    const answer = prepared.get(request.url ?? '/');
    if (answer) {
      response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
      response.end(answer.body);
      return;
    }
    const file = staticFile(request.url ?? '/', String(request.headers['accept-encoding'] ?? ''));
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { ...file.headers, 'content-length': file.body.length });
    response.end(file.body);
  })
  .listen(Number(process.argv[3]), '127.0.0.1', () => console.log('ready'));
