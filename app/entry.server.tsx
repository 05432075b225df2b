import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { cspNonceContext } from '#request-context';
import { NonceProvider } from './lib/nonce.tsx';
import { SiteStylesProvider } from './lib/site-styles.tsx';
import { scriptsAfterPaint } from './lib/scripts-after-paint.server.ts';
import { readBuiltClientFile } from './lib/built-client.server.ts';
import { PlainPage } from './lib/plain-page.tsx';
import { isPlainPage, PAGE_ENHANCER } from './lib/plain-page.server.ts';
import InstallSteps from './components/app-install/install-steps.tsx';
import stylesheet from './app.css?url';

// React Router's default Node entry, with one addition: every inline script of the page carries the
// request's CSP nonce, so the Content-Security-Policy needs no 'unsafe-inline' for scripts.
export const streamTimeout = 5_000;

/** The built stylesheet's text, written into every page (app/lib/site-styles.tsx); null in development. */
const siteStyles = readBuiltClientFile(stylesheet)?.toString('utf8') ?? null;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  const nonce = loadContext.get(cspNonceContext);

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // A visitor's plain page runs no React to fill in what streams late (docs/decisions/027).
    const plain = isPlainPage(routerContext);
    // Bots get the whole page at once, and so do plain pages.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode || plain ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <SiteStylesProvider value={siteStyles}>
          <PlainPage.Provider value={plain ? { script: PAGE_ENHANCER, InstallSteps } : null}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </PlainPage.Provider>
        </SiteStylesProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html');
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body.pipe(scriptsAfterPaint())), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors while rendering the shell are logged by React Router itself.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
