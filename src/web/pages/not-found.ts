/** The page a browser gets for an address Quarry does not serve. */
import { html, type Html } from '../html.ts';
import { page, type PageContext } from '../layout.ts';

export function notFoundPage(ctx: PageContext): Html {
  return page(ctx, {
    title: 'Page not found',
    body: html`<h1>Page not found</h1>
<p>There is no page at <code>${ctx.path}</code>.</p>
<ul>
  <li><a href="/">The API home</a>: keys, sign-in and a first query.</li>
  <li><a href="/console">The query console</a> (once signed in).</li>
  <li><a href="/docs">The API reference</a> and <a href="/docs/language">the query language</a>.</li>
</ul>`,
  });
}
