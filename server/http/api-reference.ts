import { createHash } from 'node:crypto';
import type { openApiDocument } from './openapi.ts';

// The API's reference for a person (issue 34, part 4): one page made from the OpenAPI document
// (server/http/openapi.ts), so it says what the server checks and nothing else. Plain HTML, no
// script, readable on a phone; every text from the document escaped.

type Document = ReturnType<typeof openApiDocument>;
interface Operation {
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: { 'application/json': { schema: unknown; example: unknown } } };
  responses: Record<string, { description: string; content?: { 'application/json': { schema: unknown; example?: unknown } } }>;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
const json = (value: unknown) => `<pre><code>${escape(JSON.stringify(value, null, 2))}</code></pre>`;
const anchor = (method: string, path: string) => `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1f2937}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:2px solid #7f1d1d;color:#7f1d1d}h3{font-size:1.05rem;margin-bottom:.25rem}
a{color:#7f1d1d}a:focus-visible,summary:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
code{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f3f4f6;padding:.75rem;overflow-x:auto;border-radius:.5rem}
.method{display:inline-block;min-width:4.5rem;font-weight:700}table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #d1d5db;padding:.25rem .5rem;text-align:left;vertical-align:top}summary{cursor:pointer;min-height:44px;display:flex;align-items:center}
nav ul{columns:2;padding-left:1.2rem}nav a{display:inline-block;min-height:44px;line-height:44px}`;

/** The first segment after /api/ (or /api/admin/): the part of the API an operation belongs to. */
function sectionOf(path: string): string {
  const [first, second] = path.replace(/^\/api\//, '').split('/');
  return first === 'admin' && second ? `admin / ${second.replace(/[{}]/g, '')}` : (first ?? '').replace(/[{}]/g, '') || 'api';
}

function operationHtml(method: string, path: string, operation: Operation, serverUrl: string): string {
  const parameters = operation.parameters.length
    ? `<table><caption class="sr">Parameters</caption><thead><tr><th scope="col">Parameter</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th></tr></thead><tbody>${operation.parameters
        .map(
          (parameter) =>
            `<tr><td><code>${escape(parameter.name)}</code></td><td>${escape(parameter.in)}</td><td>${parameter.required ? 'yes' : 'no'}</td><td><code>${escape(JSON.stringify(parameter.schema))}</code></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const body = operation.requestBody?.content['application/json'];
  const example = body ? ` \\\n  -H 'content-type: application/json' \\\n  -d '${JSON.stringify(body.example)}'` : '';
  const curl = `curl -X ${method.toUpperCase()} '${serverUrl}${path}' \\\n  -H 'authorization: Bearer $TOKEN'${example}`;
  const responses = Object.entries(operation.responses)
    .map(([status, answer]) => {
      const content = answer.content?.['application/json'];
      return `<details><summary><strong>${escape(status)}</strong>&nbsp;${escape(answer.description)}</summary>${
        content ? `<p>Example:</p>${json(content.example ?? null)}<p>Schema:</p>${json(content.schema)}` : ''
      }</details>`;
    })
    .join('');
  return `<section id="${anchor(method, path)}"><h3><span class="method">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(operation.description)}</p>${parameters}${
    body ? `<details><summary>Request body</summary><p>Example:</p>${json(body.example)}<p>Schema:</p>${json(body.schema)}</details>` : ''
  }${responses}<details><summary>Try it with curl</summary><pre><code>${escape(curl)}</code></pre></details></section>`;
}

/** The reference page, and the Content-Security-Policy that lets its one style block in and nothing else. */
export function renderApiReference(document: Document, serverUrl: string): { html: string; contentSecurityPolicy: string } {
  const sections = new Map<string, string[]>();
  const contents = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const section = sectionOf(path);
      sections.set(section, [...(sections.get(section) ?? []), operationHtml(method, path, operation as Operation, serverUrl)]);
      contents.set(section, [
        ...(contents.get(section) ?? []),
        `<a href="#${anchor(method, path)}">${method.toUpperCase()} ${escape(path)}</a>`,
      ]);
    }
  }
  const names = [...sections.keys()].sort();
  const style = `${STYLE}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} reference</title><style>${style}</style></head><body><main>
<h1>${escape(document.info.title)} reference</h1><p>${escape(document.info.description)}</p>
<p>Version ${escape(document.info.version)}. The same description as JSON, for code generators: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<nav aria-label="Parts of the API"><ul>${names.map((name) => `<li><a href="#part-${anchor('', name)}">${escape(name)}</a></li>`).join('')}</ul></nav>
${names
  .map(
    (name) =>
      `<h2 id="part-${anchor('', name)}">${escape(name)}</h2><ul>${contents
        .get(name)!
        .map((link) => `<li>${link}</li>`)
        .join('')}</ul>${sections.get(name)!.join('')}`,
  )
  .join('')}
</main></body></html>`;
  const hash = createHash('sha256').update(style).digest('base64');
  return {
    html,
    contentSecurityPolicy: `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}
