/**
 * `/console`: the query console page. The editor, results, tables and charts are built in the
 * browser by the bundled script (src/web/console/main.ts); the page carries its
 * configuration (CSRF token, examples, default version) in a JSON island.
 */
import { html, jsonIsland, type Html } from '../html.ts';
import { page, type PageContext } from '../layout.ts';

/** Queries to start from; each one runs against the demo data. */
export const EXAMPLE_QUERIES: readonly { readonly title: string; readonly query: string }[] = [
  { title: 'Publications per year (a facet)', query: 'search publications where year >= 2010\nreturn year limit 15' },
  {
    title: 'Recent publications on a topic',
    query:
      'search publications for "cancer"\nreturn publications[id + title + year + times_cited] sort by times_cited limit 10',
  },
  {
    title: 'Top funders with funding totals',
    query: 'search grants\nreturn funders aggregate count, funding sort by funding limit 10',
  },
  {
    title: 'Most cited research organizations',
    query:
      'search publications where year in [2015:2020]\nreturn research_orgs aggregate citations_total sort by citations_total limit 10',
  },
  {
    title: 'Researchers by name',
    query: 'search researchers where last_name = "Smith"\nreturn researchers[basics] limit 10',
  },
  {
    title: 'Several results at once',
    query:
      'search publications where type = "article"\nreturn publications[id + title] limit 5\nreturn year limit 5\nreturn funders limit 5',
  },
  { title: 'What can I query? (schema)', query: 'describe schema' },
];

export interface ConsoleOptions {
  /** This server's address as the browser reached it, for the code snippets. */
  readonly baseUrl: string;
  /** Whether language version 1 is still served (it answers 410 once removed). */
  readonly v1Served: boolean;
}

export function consolePage(ctx: PageContext, options: ConsoleOptions): Html {
  const settings = {
    csrfToken: ctx.csrfToken,
    endpoint: '/console/api/query',
    baseUrl: options.baseUrl,
    defaultVersion: 2,
    versions: options.v1Served ? [2, 1] : [2],
    examples: EXAMPLE_QUERIES,
  };
  return page(ctx, {
    title: 'Query console',
    body: html`<h1>Query console</h1>
<p>Write a query and run it with <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (or the Run button). Press <kbd>Ctrl</kbd>+<kbd>Space</kbd> for completion of sources, fields, facets, indicators and, after <code>type =</code> or <code>year =</code>, their values.
Queries here count against the auth-path family's limits. A link to <code>/console?q=QUERY</code> opens the console and runs the query.</p>
<div class="console-layout">
  <div>
    <div class="controls">
      <div>
        <label for="dsl-version">Language version</label>
        <select id="dsl-version" name="version">
          <option value="2">2 (current)</option>
          ${options.v1Served && html`<option value="1">1 (legacy, being retired)</option>`}
        </select>
      </div>
      <button type="button" id="run-query">Run <span class="shortcut">(Ctrl+Enter)</span></button>
    </div>
    <div id="editor-label" class="label">Query</div>
    <div id="editor" aria-labelledby="editor-label"></div>
    <p id="console-status" role="status" aria-live="polite" class="muted"></p>
    <div id="console-error" class="error-box" role="alert" hidden></div>
    <div id="console-results" aria-live="polite"></div>
    <section class="share" aria-labelledby="share-title">
      <h2 id="share-title">Share this query</h2>
      <div class="toolbar" id="share-buttons">
        <button type="button" class="secondary" id="copy-link">Copy link</button>
      </div>
      <p id="share-status" role="status" class="muted"></p>
      <pre id="share-text" hidden></pre>
    </section>
  </div>
  <aside aria-label="Examples, history and schema">
    <section aria-labelledby="examples-title">
      <h2 id="examples-title">Examples</h2>
      <ul id="console-examples"></ul>
    </section>
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ul id="console-history" class="history"></ul>
      <button type="button" class="secondary" id="clear-history">Clear history</button>
    </section>
    <section aria-labelledby="schema-title">
      <h2 id="schema-title">Schema</h2>
      <div id="schema-browser"><p class="muted">Loading the schema…</p></div>
    </section>
    <p class="muted">The full language is described in the <a href="/docs/language">language reference</a>, every error code in <a href="/docs/errors">Error codes</a>.</p>
  </aside>
</div>
<script type="application/json" id="console-config">${jsonIsland(settings)}</script>`,
    scripts: html`<script type="module" src="${ctx.assets.consoleUrl}"></script>`,
  });
}
