import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EntryContext } from 'react-router';
import { readBuiltClientFile } from './built-client.server.ts';
import type { PublicViewer } from '../../common/viewer.ts';
import type { PlainPageHandle } from './plain-page.tsx';

const ENHANCER = 'page-enhancer.js';

/**
 * The enhancer's address with its content's digest, so a browser never pairs a page with an
 * older copy it kept (public files are cached for an hour). Read once, at start.
 */
function enhancerAddress(): string {
  // The dev server has no build: the file as it is in public/.
  const text = readBuiltClientFile(ENHANCER) ?? fs.readFileSync(path.join(process.cwd(), 'public', ENHANCER));
  return `/${ENHANCER}?v=${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}
export const PAGE_ENHANCER = enhancerAddress();

/**
 * Whether this answer is a plain page: a plain success of a route marked PLAIN_FOR_VISITORS, read
 * by a visitor (no member or staff session) with no toast waiting. Everything else runs the app.
 */
export function isPlainPage(context: EntryContext): boolean {
  const { matches, loaderData, actionData, errors, statusCode } = context.staticHandlerContext;
  if (context.isSpaMode || errors || actionData || statusCode !== 200) return false;
  const page = matches.at(-1);
  const handle = page && (context.routeModules[page.route.id]?.handle as PlainPageHandle | undefined);
  if (!handle?.plainForVisitors) return false;
  const root = loaderData.root as { viewer?: PublicViewer; flash?: unknown } | undefined;
  return Boolean(root?.viewer && !root.viewer.member && !root.viewer.staff && !root.flash);
}
