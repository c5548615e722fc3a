/**
 * The query console in the browser: a CodeMirror editor for the query language, run with
 * Ctrl+Enter (or the Run button) through the session-authenticated `/console/api/query`,
 * errors marked at their line and column, results drawn by results-view.ts, a history kept
 * in the browser, permalinks (`/console?q=...` loads and runs), the query as curl / Python /
 * R code, a schema browser and completion of sources, fields and values. Bundled by esbuild
 * at server start (src/web/assets.ts).
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { defaultKeymap, history as editorHistory, historyKeymap } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { linter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { parse } from '../../dsl/parse.ts';
import { isQuarryError } from '../../errors/index.ts';
import { element, make } from './dom.ts';
import { dslHighlighting, dslLanguage } from './dsl-language.ts';
import { exportAll } from './export-all.ts';
import { clearHistory, permalink, readHistory, remember, type HistoryEntry } from './history.ts';
import { broader, nextPage, withFilter } from './query-edit.ts';
import { offsetOf } from './result-shape.ts';
import { destroyCharts, showResult, type ResultsHooks } from './results-view.ts';
import { renderSchemaBrowser } from './schema-browser.ts';
import { searchedSource, suggestionsAt, valueContext, valueField, type SchemaDoc } from './schema-completion.ts';
import { snippet, SNIPPET_LANGUAGES } from './snippets.ts';

interface ConsoleConfig {
  readonly csrfToken: string;
  readonly endpoint: string;
  readonly baseUrl: string;
  readonly defaultVersion: 1 | 2;
  /** The language versions this server serves now (1 only until it is removed). */
  readonly versions: readonly number[];
  readonly examples: readonly { readonly title: string; readonly query: string }[];
}

interface ErrorBody {
  readonly errors?: {
    readonly query?: {
      readonly header?: string;
      readonly details?: readonly string[];
      readonly code?: string;
      readonly line?: number;
      readonly column?: number;
    };
  };
}

const config = JSON.parse(element('console-config').textContent ?? '{}') as ConsoleConfig;
const versionSelect = element<HTMLSelectElement>('dsl-version');
const runButton = element<HTMLButtonElement>('run-query');
const statusLine = element('console-status');
const errorPanel = element('console-error');
const resultsPanel = element('console-results');
const exampleList = element('console-examples');
const historyList = element('console-history');
const shareText = element('share-text');
const shareStatus = element('share-status');

const schemas = new Map<number, Promise<SchemaDoc | undefined>>();
/** Facet values for value completion, per version, source and field. */
const facetValues = new Map<string, Promise<{ id: string | number; label?: string; count: number }[] | undefined>>();
const storage: Storage | undefined = (() => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
})();

/** POSTs a query; the answer is the parsed JSON and the HTTP status. */
async function post(query: string, version: number): Promise<{ status: number; body: unknown }> {
  const response = await fetch(config.endpoint, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': config.csrfToken, Accept: 'application/json' },
    body: JSON.stringify({ query, version }),
  });
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = {
      errors: { query: { header: `HTTP ${response.status}`, details: ['The server did not answer with JSON.'] } },
    };
  }
  return { status: response.status, body };
}

function currentVersion(): number {
  return Number(versionSelect.value);
}

function schemaFor(version: number): Promise<SchemaDoc | undefined> {
  let pending = schemas.get(version);
  if (!pending) {
    pending = post('describe schema', version).then(
      ({ status, body }) => (status === 200 ? (body as SchemaDoc) : undefined),
      () => undefined,
    );
    schemas.set(version, pending);
  }
  return pending;
}

/**
 * The values of a facet with few of them (`type`, `year`, `category_for`), from one facet
 * query; undefined when the facet fills its limit (too many values to list).
 */
function valuesOf(version: number, source: string, facet: string) {
  const key = `${version}:${source}:${facet}`;
  let pending = facetValues.get(key);
  if (!pending) {
    const limit = 100;
    pending = post(`search ${source} return ${facet} limit ${limit}`, version).then(
      ({ status, body }) => {
        const rows =
          status === 200 ? ((body as Record<string, unknown>)[facet] as Record<string, unknown>[]) : undefined;
        if (!Array.isArray(rows) || rows.length >= limit) return undefined;
        return rows.map((row) => ({
          id: row.id as string | number,
          ...(typeof row.name === 'string' ? { label: row.name } : {}),
          count: Number(row.count),
        }));
      },
      () => undefined,
    );
    facetValues.set(key, pending);
  }
  return pending;
}

async function completeValue(
  context: CompletionContext,
  before: string,
  schema: SchemaDoc,
): Promise<CompletionResult | null> {
  const at = valueContext(before);
  const source = searchedSource(before);
  if (!at || source === undefined) return null;
  const field = valueField(schema, source, at.field);
  if (!field) return null;
  const [facet = '', sub] = at.field.split('.');
  const values = await valuesOf(currentVersion(), source, facet);
  if (!values) return null;
  const word = context.matchBefore(at.quoted ? /"[^"]*$/ : /[\w.-]*$/);
  const from = word ? word.from : context.pos;
  const numeric = field.type === 'integer';
  const ordered = numeric ? [...values].sort((a, b) => Number(b.id) - Number(a.id)) : values;
  const options: Completion[] = ordered.map((v, index) => {
    const text = sub === 'name' && v.label !== undefined ? v.label : String(v.id);
    return {
      label: numeric ? text : `"${text.replace(/["\\]/g, (ch) => `\\${ch}`)}"`,
      type: 'enum',
      detail: `${v.label !== undefined && sub !== 'name' ? `${v.label}, ` : ''}${v.count.toLocaleString('en-US')} records`,
      // CodeMirror orders equal matches by label; the boost keeps this order (latest year
      // first, other values by how many records have them) within its range of ±99.
      boost: Math.max(-99, 99 - index),
    };
  });
  return { from, options, filter: true };
}

async function complete(context: CompletionContext): Promise<CompletionResult | null> {
  const full = context.state.sliceDoc(0, context.pos);
  const schema = await schemaFor(currentVersion());
  if (!schema) return null;
  if (valueContext(full)) return completeValue(context, full, schema);
  const word = context.matchBefore(/[A-Za-z_]\w*/);
  if (!word && !context.explicit && !/[.[+,\s]$/.test(full.slice(-1))) return null;
  const from = word ? word.from : context.pos;
  const before = context.state.sliceDoc(0, from);
  const options = suggestionsAt(schema, before).map((s) => ({
    label: s.label,
    type:
      s.kind === 'indicator'
        ? 'constant'
        : s.kind === 'source'
          ? 'class'
          : s.kind === 'fieldset'
            ? 'namespace'
            : s.kind === 'field' || s.kind === 'facet'
              ? 'property'
              : s.kind,
    ...(s.detail ? { detail: s.detail } : {}),
  }));
  if (options.length === 0) return null;
  return { from, options, validFor: /^\w*$/ };
}

/**
 * Syntax errors while typing: the same parser as the server's, run in the browser half a
 * second after the last change. Unknown fields and other schema errors come from the server
 * when the query runs.
 */
const syntaxCheck = linter(
  (v) => {
    const text = v.state.doc.toString();
    if (text.trim() === '') return [];
    try {
      parse(text);
      return [];
    } catch (error) {
      if (!isQuarryError(error)) return [];
      return error.problems.flatMap((p): Diagnostic[] => {
        if (!p.span) return [];
        const from = Math.max(0, Math.min(p.span.start, text.length - 1));
        const to = Math.min(text.length, Math.max(from + 1, p.span.end));
        return [{ from, to, severity: 'error', message: `${p.message} [${p.code}]` }];
      });
    }
  },
  { delay: 500 },
);

const params = new URLSearchParams(location.search);
const linkedQuery = params.get('q');
const initialQuery =
  linkedQuery ??
  (storage ? readHistory(storage)[0]?.query : undefined) ??
  config.examples[0]?.query ??
  'search publications return publications limit 5';

const view = new EditorView({
  parent: element('editor'),
  state: EditorState.create({
    doc: initialQuery,
    extensions: [
      lineNumbers(),
      editorHistory(),
      drawSelection(),
      highlightActiveLine(),
      bracketMatching(),
      closeBrackets(),
      dslLanguage,
      dslHighlighting,
      syntaxCheck,
      autocompletion({ override: [complete], activateOnTyping: true }),
      placeholder('search publications return publications'),
      keymap.of([
        { key: 'Mod-Enter', run: () => (void runQuery(), true), preventDefault: true },
        ...closeBracketsKeymap,
        ...completionKeymap,
        ...historyKeymap,
        ...defaultKeymap,
      ]),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'Query text (Ctrl+Enter runs it)', 'aria-multiline': 'true' }),
    ],
  }),
});

function queryText(): string {
  return view.state.doc.toString();
}

function setQuery(text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function clearResults(): void {
  destroyCharts();
  resultsPanel.replaceChildren();
  errorPanel.replaceChildren();
  errorPanel.hidden = true;
  delete errorPanel.dataset.line;
  delete errorPanel.dataset.column;
  view.dispatch(setDiagnostics(view.state, []));
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = make('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function showError(status: number, body: ErrorBody): void {
  const query = body.errors?.query;
  errorPanel.hidden = false;
  errorPanel.dataset.status = String(status);
  errorPanel.append(make('h2', {}, query?.header ?? `HTTP ${status}`));
  const list = make('ul');
  for (const detail of query?.details ?? ['The request failed.']) list.append(make('li', {}, detail));
  errorPanel.append(list);
  if (query?.code) errorPanel.append(make('p', { class: 'error-code' }, `Code: ${query.code}`));
  if (typeof query?.line === 'number' && typeof query.column === 'number') {
    errorPanel.dataset.line = String(query.line);
    errorPanel.dataset.column = String(query.column);
    const text = queryText();
    const from = offsetOf(text, query.line, query.column);
    // Mark the word at the position (at least one character) so the marker is visible.
    const word = /^[A-Za-z0-9_]+/.exec(text.slice(from))?.[0].length ?? 1;
    const to = Math.min(text.length, from + Math.max(1, word));
    const diagnostic: Diagnostic = {
      from: Math.min(from, Math.max(0, to - 1)),
      to,
      severity: 'error',
      message: (query.details ?? []).join('\n') || (query.header ?? 'error'),
    };
    view.dispatch(setDiagnostics(view.state, [diagnostic]));
    view.dispatch({ selection: { anchor: diagnostic.from }, scrollIntoView: true });
  }
}

/** The schema of the current version, once loaded (completion and the results read it). */
let loadedSchema: SchemaDoc | undefined;

const hooks: ResultsHooks = {
  indicatorNames() {
    const source = searchedSource(queryText());
    const metrics = source === undefined ? undefined : loadedSchema?.sources[source]?.metrics;
    return metrics ? new Set(Object.keys(metrics)) : undefined;
  },
  isEntityFacet(facet) {
    const source = searchedSource(queryText());
    const field = source === undefined ? undefined : loadedSchema?.sources[source]?.fields[facet];
    return field?.is_entity === true;
  },
  addFilter(facet, value, isEntity) {
    const next = withFilter(queryText(), facet, value, isEntity);
    if (next !== undefined) hooks.runText(next);
  },
  broaderQuery: () => broader(queryText()),
  runText(text) {
    setQuery(text);
    void runQuery();
  },
  pageQuery: (_list, direction) => nextPage(queryText(), direction),
  async exportAll(list, format) {
    const query = queryText();
    const version = currentVersion();
    statusLine.textContent = `Exporting ${list.name}…`;
    try {
      const result = await exportAll(query, {
        format,
        run: async (text) => {
          const { status, body } = await post(text, version);
          if (status !== 200) {
            const header = (body as ErrorBody).errors?.query?.header ?? `HTTP ${status}`;
            throw new Error(`a page failed: ${header}`);
          }
          return body as Record<string, unknown>;
        },
        onProgress: (done, total) => {
          statusLine.textContent = `Exporting ${list.name}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records…`;
        },
      });
      download(`${list.name}.${format}`, format === 'csv' ? 'text/csv' : 'application/x-ndjson', result.text);
      statusLine.textContent = `Exported ${result.records.toLocaleString('en-US')} of ${result.total.toLocaleString('en-US')} ${list.name} records.${result.droppedColumns.length > 0 ? ` Columns first seen after the header were left out: ${result.droppedColumns.join(', ')}.` : ''}`;
    } catch (error) {
      statusLine.textContent = `The export stopped: ${error instanceof Error ? error.message : String(error)}`;
    }
  },
  download,
};

function renderHistory(entries: readonly HistoryEntry[]): void {
  historyList.replaceChildren(
    ...entries.map((entry) => {
      const item = make('li');
      const oneLine = entry.query.replace(/\s+/g, ' ');
      const button = make(
        'button',
        { type: 'button', class: 'link-button history-entry' },
        oneLine.length > 70 ? `${oneLine.slice(0, 69)}…` : oneLine,
      );
      button.title = entry.query;
      button.addEventListener('click', () => {
        if (config.versions.includes(entry.version)) versionSelect.value = String(entry.version);
        setQuery(entry.query);
        view.focus();
      });
      item.append(button);
      return item;
    }),
  );
  if (entries.length === 0)
    historyList.append(make('li', { class: 'muted' }, 'Queries you run are kept here, in this browser only.'));
}

let running = false;

async function runQuery(): Promise<void> {
  if (running) return;
  running = true;
  runButton.disabled = true;
  const query = queryText();
  const version = currentVersion();
  clearResults();
  statusLine.textContent = 'Running…';
  const started = performance.now();
  try {
    const { status, body } = await post(query, version);
    if (status === 200) {
      loadedSchema = await schemaFor(version);
      const { status: text } = showResult(resultsPanel, body as Record<string, unknown>, hooks);
      statusLine.textContent = `${text} (${Math.round(performance.now() - started)} ms)`;
    } else {
      showError(status, body as ErrorBody);
      statusLine.textContent = `The query failed (HTTP ${status}).`;
    }
    if (storage) renderHistory(remember(storage, { query, version, at: Date.now() }));
    window.history.replaceState(null, '', new URL(permalink(location.origin, query, version)).search);
  } catch (error) {
    showError(0, {
      errors: { query: { header: 'Network error', details: [error instanceof Error ? error.message : String(error)] } },
    });
    statusLine.textContent = 'The server could not be reached.';
  } finally {
    running = false;
    runButton.disabled = false;
    resultsPanel.dataset.state = errorPanel.hidden ? 'done' : 'error';
  }
}

/** Copies text and shows it, so it can be selected by hand when the clipboard is refused. */
function share(text: string, what: string): void {
  shareText.textContent = text;
  shareText.hidden = false;
  shareText.dataset.kind = what;
  const done = (message: string) => {
    shareStatus.textContent = message;
  };
  if (navigator.clipboard) {
    navigator.clipboard.writeText(text).then(
      () => done(`Copied ${what}.`),
      () => done(`Copying failed: select the ${what} below and copy it by hand.`),
    );
  } else done(`Select the ${what} below and copy it by hand.`);
}

element('copy-link').addEventListener('click', () =>
  share(permalink(location.origin, queryText(), currentVersion()), 'link'),
);
const shareButtons = element('share-buttons');
for (const language of SNIPPET_LANGUAGES) {
  const button = make(
    'button',
    { type: 'button', class: 'secondary', 'data-language': language.id },
    `Copy as ${language.label}`,
  );
  button.addEventListener('click', () =>
    share(snippet(language.id, config.baseUrl, queryText(), currentVersion()), `${language.label} code`),
  );
  shareButtons.append(button);
}

element('clear-history').addEventListener('click', () => {
  if (storage) clearHistory(storage);
  renderHistory([]);
});

runButton.addEventListener('click', () => void runQuery());
const linkedVersion = Number(params.get('v') ?? config.defaultVersion);
versionSelect.value = String(config.versions.includes(linkedVersion) ? linkedVersion : config.defaultVersion);
versionSelect.addEventListener('change', () => void loadSchemaBrowser());
for (const example of config.examples) {
  const item = make('li');
  const button = make('button', { type: 'button', class: 'link-button' }, example.title);
  button.title = example.query;
  button.addEventListener('click', () => {
    setQuery(example.query);
    view.focus();
  });
  item.append(button);
  exampleList.append(item);
}
renderHistory(storage ? readHistory(storage) : []);

async function loadSchemaBrowser(): Promise<void> {
  const schema = await schemaFor(currentVersion());
  loadedSchema = schema;
  renderSchemaBrowser(element('schema-browser'), schema, (text) => {
    view.dispatch(view.state.replaceSelection(text));
    view.focus();
  });
}

void loadSchemaBrowser().finally(() => {
  document.body.dataset.consoleReady = 'true';
  if (linkedQuery !== null) void runQuery();
});
