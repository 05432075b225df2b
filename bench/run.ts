import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

// Load benchmark of the production build: `npm run build && npm run bench`.
// Starts the server on a fresh embedded database with the demo catalogue, measures each path for a
// few seconds on loopback, records the JavaScript each page ships, and writes bench/results/latest.json.
const PATHS = ['/', '/courses', '/podcast', '/pricing', '/api/courses', '/api/podcast/episodes', '/healthz'];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const root = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function pageJavaScriptBytes(baseUrl: string, pagePath: string): Promise<number> {
  const html = await (await fetch(`${baseUrl}${pagePath}`)).text();
  const scripts = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]);
  let total = 0;
  for (const script of new Set(scripts)) total += (await (await fetch(`${baseUrl}${script}`)).arrayBuffer()).byteLength;
  return total;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-'));
const port = await freePort();
const server = spawn(process.execPath, ['server/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
  },
  stdio: 'inherit',
});
const baseUrl = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const results: Record<string, unknown> = {};
  for (const target of PATHS) {
    const result = await autocannon({ url: `${baseUrl}${target}`, connections: 10, duration: SECONDS });
    results[target] = {
      requests_per_second: Math.round(result.requests.average),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
      page_javascript_bytes: target.startsWith('/api') || target === '/healthz' ? undefined : await pageJavaScriptBytes(baseUrl, target),
    };
    console.log(target, results[target]);
  }
  const report = { measured_at: new Date().toISOString(), machine: `${os.cpus().length} cores`, seconds_per_path: SECONDS, results };
  fs.writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log('Written bench/results/latest.json');
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
