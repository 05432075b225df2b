import { Transform } from 'node:stream';

// A page's scripts start once the page has painted. React writes the module preloads (React
// Router's <Scripts>) into the head and the app's module script ends the body; the browser then
// fetches and runs about 100 KB of scripts before its first paint whenever they come quickly (from
// the app's cache, on a fast line), and on a slow phone the page shows late. Here the preloads
// leave the head, the module script is kept inert, and a small script after it starts both once
// the page is parsed and its first frame painted: the same scripts, fetched side by side, later.
// Hydration is not disturbed: React skips a body script whose type differs from the one it renders,
// and finds its module script in the same place.
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const HEAD_END = '</head>';
const MODULE_SCRIPT_START = /<script\b[^>]*\btype="module"[^>]*>/;
const SCRIPT_END = '</script>';
const INERT_ID = 'app-module';

/**
 * Starts the app once the page is parsed and a frame has been painted (at once, once parsed, in a
 * hidden tab, where no frame is painted). The nonce goes through setAttribute: a page shared by
 * visitors must not read `nonce=` anywhere (server/pages/pages.plugin.ts strips its stand-in).
 */
function starter(preloads: string[]): string {
  const hrefs = JSON.stringify(preloads).replaceAll('<', '\\u003c');
  return (
    `(function(){var started=false;function start(){if(started)return;started=true;` +
    `${hrefs}.forEach(function(href){var link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.appendChild(link)});` +
    `var inert=document.getElementById("${INERT_ID}");if(!inert)return;var script=document.createElement("script");` +
    `script.type="module";script.async=true;script.setAttribute("nonce",inert.nonce);script.textContent=inert.textContent;inert.replaceWith(script)}` +
    `function afterParsing(){if(document.visibilityState==="hidden")start();else requestAnimationFrame(function(){setTimeout(start,0)})}` +
    `if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",afterParsing);else afterParsing()})()`
  );
}

function afterPaint(openingTag: string, code: string, preloads: string[]): string {
  const nonce = openingTag.match(/\snonce="[^"]*"/)?.[0] ?? '';
  const inert = openingTag.replace(/\btype="module"/, `type="text/x-after-paint" id="${INERT_ID}"`);
  return `${inert}${code}${SCRIPT_END}<script${nonce} async="">${starter(preloads)}${SCRIPT_END}`;
}

export function scriptsAfterPaint(): Transform {
  let state: 'head' | 'body' | 'done' = 'head';
  let pending = '';
  let preloads: string[] = [];
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (state === 'done') return callback(null, chunk);
      pending += chunk.toString('utf8');
      let out = '';
      if (state === 'head') {
        const end = pending.indexOf(HEAD_END);
        if (end === -1) return callback();
        const head = pending.slice(0, end);
        preloads = [...head.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
        out = head.replace(MODULE_PRELOAD, '');
        pending = pending.slice(end);
        state = 'body';
      }
      const start = pending.search(MODULE_SCRIPT_START);
      if (start === -1) {
        // Hold back a tag that may be cut between two chunks.
        const lastTag = pending.lastIndexOf('<');
        const keep = lastTag === -1 ? pending.length : lastTag;
        out += pending.slice(0, keep);
        pending = pending.slice(keep);
        return callback(null, out);
      }
      out += pending.slice(0, start);
      pending = pending.slice(start);
      const end = pending.indexOf(SCRIPT_END);
      if (end === -1) return callback(null, out);
      const openingTag = pending.match(MODULE_SCRIPT_START)![0];
      out += afterPaint(openingTag, pending.slice(openingTag.length, end), preloads) + pending.slice(end + SCRIPT_END.length);
      pending = '';
      state = 'done';
      callback(null, out);
    },
    flush(callback) {
      // A page without the app's script (none is expected): what was held back, and its preloads.
      const links = preloads.map((href) => `<link rel="modulepreload" href="${href}"/>`).join('');
      callback(null, state === 'done' ? '' : pending + links);
    },
  });
}
