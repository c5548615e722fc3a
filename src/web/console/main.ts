/**
 * The query console in the browser: a CodeMirror editor for the query language, run with
 * Ctrl+Enter (or the Run button) through the session-authenticated `/console/api/query`,
 * errors marked at their line and column, results as tables, bar charts for facets, the raw
 * JSON, and CSV/JSON downloads. Bundled by esbuild at server start (src/web/assets.ts).
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { linter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { parse } from '../../dsl/parse.ts';
import { isQuarryError } from '../../errors/index.ts';
import { cellText, toCsv } from './csv.ts';
import { dslHighlighting, dslLanguage } from './dsl-language.ts';
import { facetLabel, offsetOf, resultLists, type ResultList } from './result-shape.ts';
import { suggestionsAt, type SchemaDoc } from './schema-completion.ts';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

interface ConsoleConfig {
  readonly csrfToken: string;
  readonly endpoint: string;
  readonly defaultVersion: 1 | 2;
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

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the console page has no #${id}`);
  return found as T;
}

function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const config = JSON.parse(element('console-config').textContent ?? '{}') as ConsoleConfig;
const versionSelect = element<HTMLSelectElement>('dsl-version');
const runButton = element<HTMLButtonElement>('run-query');
const statusLine = element('console-status');
const errorPanel = element('console-error');
const resultsPanel = element('console-results');
const exampleList = element('console-examples');

const schemas = new Map<number, Promise<SchemaDoc | undefined>>();
const charts: Chart[] = [];

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

async function complete(context: CompletionContext): Promise<CompletionResult | null> {
  const word = context.matchBefore(/[A-Za-z_]\w*/);
  if (
    !word &&
    !context.explicit &&
    !/[.[+,\s]$/.test(context.state.sliceDoc(Math.max(0, context.pos - 1), context.pos))
  )
    return null;
  const schema = await schemaFor(Number(versionSelect.value));
  if (!schema) return null;
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

const initialQuery = config.examples[0]?.query ?? 'search publications return publications limit 5';

const view = new EditorView({
  parent: element('editor'),
  state: EditorState.create({
    doc: new URLSearchParams(location.search).get('q') ?? initialQuery,
    extensions: [
      lineNumbers(),
      history(),
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

function clearResults(): void {
  for (const chart of charts.splice(0)) chart.destroy();
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
    const text = view.state.doc.toString();
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

function renderTable(list: ResultList): HTMLElement {
  const wrapper = make('div', {
    class: 'table-wrap',
    tabindex: '0',
    role: 'region',
    'aria-label': `${list.name} table`,
  });
  const table = make('table', { class: 'results', 'data-result': list.name });
  const columns = [...new Set(list.rows.flatMap((row) => Object.keys(row)))];
  const headRow = make('tr');
  for (const column of columns) headRow.append(make('th', { scope: 'col' }, column));
  table.append(make('thead'));
  table.tHead?.append(headRow);
  const body = make('tbody');
  for (const row of list.rows) {
    const tr = make('tr');
    for (const column of columns) tr.append(make('td', {}, cellText(row[column])));
    body.append(tr);
  }
  table.append(body);
  wrapper.append(table);
  return wrapper;
}

function renderChart(list: ResultList): HTMLElement {
  const figure = make('figure', { class: 'chart' });
  const canvas = make('canvas', {
    role: 'img',
    'aria-label': `Bar chart of ${list.name} by count`,
    'data-result': list.name,
    'data-bars': String(list.rows.length),
  });
  figure.append(canvas, make('figcaption', {}, `${list.name}: count per value`));
  charts.push(
    new Chart(canvas, {
      type: 'bar',
      data: {
        labels: list.rows.map((row) => facetLabel(row).slice(0, 40)),
        datasets: [{ label: 'count', data: list.rows.map((row) => row.count as number), backgroundColor: '#1f5fbf' }],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: false } },
        scales: { x: { ticks: { autoSkip: false, maxRotation: 60 } } },
      },
    }),
  );
  return figure;
}

function showResult(result: Record<string, unknown>, query: string): void {
  const stats = result._stats as { total_count?: number } | undefined;
  const warnings = Array.isArray(result._warnings) ? (result._warnings as string[]) : [];
  if (warnings.length > 0) {
    const box = make('div', { class: 'warnings', role: 'note' });
    box.append(make('h2', {}, 'Warnings'));
    const list = make('ul');
    for (const w of warnings) list.append(make('li', {}, w));
    box.append(list);
    resultsPanel.append(box);
  }
  const lists = resultLists(result);
  const toolbar = make('div', { class: 'toolbar' });
  const jsonButton = make('button', { type: 'button', id: 'download-json' }, 'Download JSON');
  jsonButton.addEventListener('click', () =>
    download('quarry-result.json', 'application/json', JSON.stringify(result, null, 2)),
  );
  toolbar.append(jsonButton);
  resultsPanel.append(toolbar);
  for (const list of lists) {
    const section = make('section', { class: 'result-list', 'aria-label': list.name });
    const heading = make('h2', {}, `${list.name} `);
    heading.append(make('span', { class: 'muted' }, `(${list.rows.length} row${list.rows.length === 1 ? '' : 's'})`));
    const csvButton = make(
      'button',
      { type: 'button', class: 'download-csv', 'data-result': list.name },
      `Download ${list.name} as CSV`,
    );
    csvButton.addEventListener('click', () =>
      download(`${list.name.replace(/[^\w.-]/g, '_')}.csv`, 'text/csv', toCsv(list.rows)),
    );
    section.append(heading, csvButton);
    if (list.isFacet) section.append(renderChart(list));
    section.append(renderTable(list));
    resultsPanel.append(section);
  }
  if (lists.length === 0 && !('_stats' in result)) {
    // describe answers are objects: the raw JSON below is their view.
    resultsPanel.append(make('p', {}, 'This answer has no result lists; see the raw JSON.'));
  }
  const raw = make('details', { class: 'raw-json' });
  raw.append(make('summary', {}, 'Raw JSON'), make('pre', { id: 'raw-json' }, JSON.stringify(result, null, 2)));
  resultsPanel.append(raw);
  statusLine.textContent =
    stats?.total_count !== undefined
      ? `${stats.total_count} matching records. Query: ${query.length} characters.`
      : 'Done.';
}

let running = false;

async function runQuery(): Promise<void> {
  if (running) return;
  running = true;
  runButton.disabled = true;
  const query = view.state.doc.toString();
  clearResults();
  statusLine.textContent = 'Running…';
  const started = performance.now();
  try {
    const { status, body } = await post(query, Number(versionSelect.value));
    if (status === 200) {
      showResult(body as Record<string, unknown>, query);
      statusLine.textContent += ` (${Math.round(performance.now() - started)} ms)`;
    } else {
      showError(status, body as ErrorBody);
      statusLine.textContent = `The query failed (HTTP ${status}).`;
    }
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

runButton.addEventListener('click', () => void runQuery());
versionSelect.value = String(config.defaultVersion);
for (const example of config.examples) {
  const item = make('li');
  const button = make('button', { type: 'button', class: 'link-button' }, example.title);
  button.title = example.query;
  button.addEventListener('click', () => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: example.query } });
    view.focus();
  });
  item.append(button);
  exampleList.append(item);
}
void schemaFor(Number(versionSelect.value));
document.body.dataset.consoleReady = 'true';
