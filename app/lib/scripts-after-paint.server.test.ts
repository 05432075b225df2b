import { describe, expect, it } from 'vitest';
import { scriptsAfterPaint } from './scripts-after-paint.server.ts';

/** The page as the transform passes it on, fed in the given pieces (a stream cuts a page anywhere). */
async function through(pieces: string[]): Promise<string> {
  const transform = scriptsAfterPaint();
  let out = '';
  transform.on('data', (chunk: Buffer | string) => (out += chunk.toString()));
  const ended = new Promise((resolve) => transform.on('end', resolve));
  for (const piece of pieces) transform.write(Buffer.from(piece));
  transform.end();
  await ended;
  return out;
}

const PAGE =
  '<!DOCTYPE html><html><head><title>Pricing</title><link rel="modulepreload" href="/assets/entry.js"/>' +
  '<link rel="modulepreload" href="/assets/shell.js"/></head><body><main>Plans</main>' +
  '<script nonce="n0nce">window.__context = 1;</script>' +
  '<script nonce="n0nce" type="module" async="">import "/assets/root.js";\nimport("/assets/entry.js");</script>' +
  '<div hidden id="S:0"><script>data()</script></div></body></html>';

describe('scripts after the first paint', () => {
  it('takes the preloads out of the head and starts the module script from a starter after it, with its nonce', async () => {
    const page = await through([PAGE]);
    const [head, body] = page.split('</head>') as [string, string];
    expect(head).not.toContain('modulepreload');
    expect(head).toContain('<title>Pricing</title>');
    expect(body).toContain('<main>Plans</main>');
    // The module script stays where it was, inert, with its code as it was.
    expect(body).toContain(
      '<script nonce="n0nce" type="text/x-after-paint" id="app-module" async="">import "/assets/root.js";\nimport("/assets/entry.js");</script>',
    );
    expect(body).not.toMatch(/<script[^>]*type="module"/);
    const starter = body.match(/<script nonce="n0nce" async="">([^<]+)<\/script>/)![1]!;
    expect(starter).toContain('["/assets/entry.js","/assets/shell.js"]');
    expect(starter).toContain('requestAnimationFrame');
    // What follows the script is untouched.
    expect(body.endsWith('<div hidden id="S:0"><script>data()</script></div></body></html>')).toBe(true);
  });

  it('gives the same page whatever the pieces it arrives in', async () => {
    const whole = await through([PAGE]);
    for (const size of [1, 7, 19, 64]) {
      const pieces: string[] = [];
      for (let at = 0; at < PAGE.length; at += size) pieces.push(PAGE.slice(at, at + size));
      expect(await through(pieces)).toBe(whole);
    }
  });

  it('leaves a page without a module script as it was, its preloads kept', async () => {
    const page = '<html><head><link rel="modulepreload" href="/assets/a.js"/></head><body><p>Hi</p></body></html>';
    const out = await through([page]);
    expect(out).toContain('<p>Hi</p>');
    expect(out).toContain('<link rel="modulepreload" href="/assets/a.js"/>');
  });
});
