/**
 * The language reference served as pages: `docs/language.md` at `/docs/language` and
 * `docs/errors.md` at `/docs/errors`, rendered to HTML once (marked) with GitHub-style
 * heading ids, so links such as `/docs/language#version-1-and-version-2` (the v1 migration
 * notes) land on their section.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyPluginCallback } from 'fastify';
import { Marked } from 'marked';
import { packageFile } from '../package-root.ts';

/** The pages, by path: the Markdown file each renders and its title. */
export const REFERENCE_PAGES = {
  '/docs/language': { file: 'docs/language.md', title: 'The query language' },
  '/docs/errors': { file: 'docs/errors.md', title: 'Error codes' },
} as const;

/** Pages may load nothing and run nothing; the one style sheet is inline. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=300',
} as const;

const STYLE = `
body { font: 16px/1.55 system-ui, sans-serif; color: #1b1f24; margin: 0; }
nav { background: #1b3a5c; padding: .6rem 1.5rem; }
nav a { color: #fff; margin-right: 1.25rem; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
code, pre { font-family: ui-monospace, monospace; font-size: .92em; background: #f2f4f7; }
pre { padding: .75rem; overflow-x: auto; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #c9d1da; padding: .3rem .6rem; text-align: left; vertical-align: top; }
a { color: #0b5cad; }
h1, h2, h3, p, li, td { overflow-wrap: anywhere; }
`;

/**
 * A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens.
 *
 * @example headingId('Version 1 and version 2') // 'version-1-and-version-2'
 */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders one reference file as a complete page. */
export function renderReferencePage(markdown: string, title: string): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }) {
        const id = headingId(text.replace(/`/g, ''));
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  // The files are the repository's own documentation, so their HTML is trusted.
  const body = marked.parse(markdown, { async: false });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Quarry</title>
<style>${STYLE}</style>
</head>
<body>
<nav aria-label="Reference"><a href="/">Quarry</a><a href="/docs">API reference</a><a href="/docs/language">Query language</a><a href="/docs/errors">Error codes</a></nav>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The routes; each page is rendered on its first request and kept. */
export const referencePages: FastifyPluginCallback = (app, _options, done) => {
  for (const [path, page] of Object.entries(REFERENCE_PAGES)) {
    let rendered: Promise<string> | undefined;
    app.get(path, async (_request, reply) => {
      rendered ??= readFile(packageFile(page.file), 'utf8').then((md) => renderReferencePage(md, page.title));
      // A failed read is tried again on the next request rather than kept.
      rendered.catch(() => (rendered = undefined));
      return reply
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(await rendered);
    });
  }
  done();
};
