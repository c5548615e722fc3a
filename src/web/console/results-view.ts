/**
 * The console's view of one successful answer: per result list a heading, downloads, for
 * facets a chart of the chosen indicator (a picker when there are several; a line in year
 * order for year facets; a click on a bar adds that value as a filter) and the table, with
 * entity columns flattened (src/client/flatten.ts), numbers formatted, and at most
 * `TABLE_PAGE_ROWS` rows in the page at once. An empty answer says so and offers a broader
 * query; a records answer with more matches than rows offers the next page and "export all".
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartType,
} from 'chart.js';
import { toCsv } from './csv.ts';
import { chartRows, defaultIndicator, facetColumns, facetIndicators, formatNumber, isYearFacet } from './facets.ts';
import { entityLabel, flatColumns, flattenRecord, type FlatValue } from '../../client/flatten.ts';
import { make } from './dom.ts';
import { resultLists, type ResultList } from './result-shape.ts';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** Rows of a table shown at once; the rest are a page button away. */
export const TABLE_PAGE_ROWS = 50;

export interface ResultsHooks {
  /** The schema's indicator names for facet columns, when the schema is loaded. */
  readonly indicatorNames: () => ReadonlySet<string> | undefined;
  /** Whether a facet of the searched source is an entity (filters then use `.id`). */
  readonly isEntityFacet: (facet: string) => boolean;
  /** Adds `facet = value` to the query and runs it. */
  readonly addFilter: (facet: string, value: string | number, isEntity: boolean) => void;
  /** A broader query for an empty answer, if there is one. */
  readonly broaderQuery: () => string | undefined;
  /** Replaces the query text and runs it. */
  readonly runText: (text: string) => void;
  /** The same records query one page further (or back); undefined when it cannot be paged. */
  readonly pageQuery: (list: ResultList, direction: 1 | -1) => string | undefined;
  /** Fetches every record of the query, page by page, into a file. */
  readonly exportAll: (list: ResultList, format: 'csv' | 'jsonl') => Promise<void>;
  readonly download: (name: string, type: string, text: string) => void;
}

const charts: Chart[] = [];

export function destroyCharts(): void {
  for (const chart of charts.splice(0)) chart.destroy();
}

function cell(column: string, value: FlatValue): HTMLTableCellElement {
  if (typeof value === 'number') return make('td', { class: 'num' }, formatNumber(column, value));
  return make('td', {}, value === null ? '' : String(value));
}

/** A table of flat rows, one page of `TABLE_PAGE_ROWS` at a time. */
function renderTable(
  list: ResultList,
  columns: readonly string[],
  rows: readonly Readonly<Record<string, FlatValue>>[],
  filterButton?: (index: number) => HTMLElement,
): HTMLElement {
  const wrapper = make('div');
  const scroller = make('div', {
    class: 'table-wrap',
    tabindex: '0',
    role: 'region',
    'aria-label': `${list.name} table`,
  });
  const table = make('table', { class: 'results', 'data-result': list.name });
  const headRow = make('tr');
  for (const column of columns) headRow.append(make('th', { scope: 'col' }, column));
  if (filterButton) headRow.append(make('th', { scope: 'col' }, 'Filter'));
  table.append(make('thead'));
  table.tHead?.append(headRow);
  const body = make('tbody');
  table.append(body);
  scroller.append(table);
  wrapper.append(scroller);

  const pages = Math.ceil(rows.length / TABLE_PAGE_ROWS);
  const pager = make('nav', { class: 'pager', 'aria-label': `${list.name} table pages` });
  const previous = make('button', { type: 'button', class: 'secondary' }, 'Previous rows');
  const next = make('button', { type: 'button', class: 'secondary' }, 'Next rows');
  const where = make('span', { class: 'muted', 'aria-live': 'polite' });
  pager.append(previous, where, next);
  let current = 0;
  const show = (pageIndex: number) => {
    current = pageIndex;
    const start = pageIndex * TABLE_PAGE_ROWS;
    const slice = rows.slice(start, start + TABLE_PAGE_ROWS);
    body.replaceChildren(
      ...slice.map((row, i) => {
        const tr = make('tr');
        for (const column of columns) tr.append(cell(column, row[column] ?? null));
        if (filterButton) {
          const td = make('td');
          td.append(filterButton(start + i));
          tr.append(td);
        }
        return tr;
      }),
    );
    table.dataset.firstRow = String(start + 1);
    where.textContent = `Rows ${(start + 1).toLocaleString('en-US')}–${(start + slice.length).toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')}`;
    previous.disabled = pageIndex === 0;
    next.disabled = pageIndex >= pages - 1;
  };
  previous.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));
  show(0);
  if (pages > 1) wrapper.append(pager);
  return wrapper;
}

/** Where each drawn bar or point is, in CSS pixels of the canvas, for tests and tooling. */
function recordPoints(chart: Chart, canvas: HTMLCanvasElement): void {
  const points = chart.getDatasetMeta(0).data.map((element) => [Math.round(element.x), Math.round(element.y)]);
  canvas.dataset.points = JSON.stringify(points);
}

function renderChart(list: ResultList, indicators: readonly string[], hooks: ResultsHooks): HTMLElement {
  const figure = make('figure', { class: 'chart' });
  const rows = chartRows(list.name, list.rows);
  const line = isYearFacet(list.name, list.rows);
  const facet = list.name.split('.').pop() ?? list.name;
  const isEntity = hooks.isEntityFacet(facet);
  let metric = defaultIndicator(indicators);
  const canvas = make('canvas', { 'data-result': list.name, 'data-bars': String(rows.length) });
  const caption = make('figcaption');
  const describe = () => {
    const kind = line ? 'Line chart' : 'Bar chart';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${kind} of ${metric} per ${facet}`);
    canvas.dataset.metric = metric;
    caption.textContent = `${list.name}: ${metric} per ${facet}${line ? ', in year order' : ''}. Select a ${line ? 'point' : 'bar'} to add it as a filter.`;
  };
  const values = () => rows.map((row) => (typeof row[metric] === 'number' ? (row[metric] as number) : 0));
  const type: ChartType = line ? 'line' : 'bar';
  const chart = new Chart(canvas, {
    type,
    data: {
      labels: rows.map((row) => entityLabel(row).slice(0, 40)),
      datasets: [
        {
          label: metric,
          data: values(),
          backgroundColor: '#1f5fbf',
          borderColor: '#1f5fbf',
          pointRadius: line ? 4 : 0,
          pointHoverRadius: 6,
        },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => `${metric}: ${formatNumber(metric, Number(item.raw))}` } },
      },
      scales: {
        x: { ticks: { autoSkip: line, maxRotation: 60 } },
        y: { beginAtZero: true, ticks: { callback: (value) => formatNumber(metric, Number(value)) } },
      },
      onClick: (_event, elements) => {
        const index = elements[0]?.index;
        const row = index === undefined ? undefined : rows[index];
        if (row && (typeof row.id === 'string' || typeof row.id === 'number')) hooks.addFilter(facet, row.id, isEntity);
      },
      onHover: (event, elements) => {
        const target = event.native?.target as HTMLElement | undefined;
        if (target) target.style.cursor = elements.length > 0 ? 'pointer' : 'default';
      },
    },
    plugins: [{ id: 'points', afterRender: (c) => recordPoints(c, canvas) }],
  });
  charts.push(chart);
  describe();

  if (indicators.length > 1) {
    const pickerId = `metric-${list.name.replace(/[^\w-]/g, '_')}`;
    const picker = make('div', { class: 'metric-picker' });
    const label = make('label', { for: pickerId }, `Chart indicator for ${list.name}`);
    const select = make('select', { id: pickerId, 'data-result': list.name });
    for (const name of indicators) {
      const option = make('option', { value: name }, name);
      option.selected = name === metric;
      select.append(option);
    }
    select.addEventListener('change', () => {
      metric = select.value;
      const dataset = chart.data.datasets[0];
      if (dataset) {
        dataset.label = metric;
        dataset.data = values();
      }
      describe();
      chart.update();
    });
    picker.append(label, select);
    figure.append(picker);
  }
  const frame = make('div', { class: 'chart-frame' });
  frame.append(canvas);
  figure.append(frame, caption);
  return figure;
}

function renderList(list: ResultList, result: Readonly<Record<string, unknown>>, hooks: ResultsHooks): HTMLElement {
  const section = make('section', { class: 'result-list', 'aria-label': list.name });
  const heading = make('h2', {}, `${list.name} `);
  heading.append(make('span', { class: 'muted' }, `(${list.rows.length} row${list.rows.length === 1 ? '' : 's'})`));
  const actions = make('div', { class: 'toolbar' });
  const csvButton = make(
    'button',
    { type: 'button', class: 'download-csv secondary', 'data-result': list.name },
    `Download ${list.name} as CSV`,
  );
  csvButton.addEventListener('click', () =>
    hooks.download(`${list.name.replace(/[^\w.-]/g, '_')}.csv`, 'text/csv', toCsv(list.rows)),
  );
  actions.append(csvButton);
  section.append(heading, actions);

  const flat = list.rows.map((row) => flattenRecord(row));
  if (list.isFacet) {
    const indicators = facetIndicators(list.rows, hooks.indicatorNames());
    const facet = list.name.split('.').pop() ?? list.name;
    const isEntity = hooks.isEntityFacet(facet);
    section.append(renderChart(list, indicators, hooks));
    const filterButton = (index: number) => {
      const row = list.rows[index];
      const id = row?.id;
      const label = row ? entityLabel(row) : '';
      const button = make(
        'button',
        { type: 'button', class: 'link-button', 'aria-label': `Filter on ${facet} ${label}` },
        'Filter',
      );
      button.addEventListener('click', () => {
        if (typeof id === 'string' || typeof id === 'number') hooks.addFilter(facet, id, isEntity);
      });
      return button;
    };
    section.append(renderTable(list, facetColumns(flatColumns(flat), indicators), flat, filterButton));
  } else {
    section.append(renderTable(list, flatColumns(flat), flat));
    const stats = result._stats as { total_count?: number; offset?: number } | undefined;
    const total = stats?.total_count;
    const previousQuery = hooks.pageQuery(list, -1);
    const nextQuery = hooks.pageQuery(list, 1);
    if (total !== undefined && (previousQuery !== undefined || nextQuery !== undefined) && list.rows.length > 0) {
      const offset = stats?.offset ?? 0;
      const paging = make('nav', { class: 'pager', 'aria-label': `${list.name} result pages` });
      const back = make('button', { type: 'button', class: 'secondary' }, 'Previous page');
      const forward = make('button', { type: 'button', class: 'secondary' }, 'Next page');
      back.disabled = previousQuery === undefined || offset === 0;
      forward.disabled = nextQuery === undefined || offset + list.rows.length >= total;
      back.addEventListener('click', () => previousQuery && hooks.runText(previousQuery));
      forward.addEventListener('click', () => nextQuery && hooks.runText(nextQuery));
      paging.append(
        back,
        make(
          'span',
          { class: 'muted', id: `records-range-${list.name}` },
          `Records ${(offset + 1).toLocaleString('en-US')}–${(offset + list.rows.length).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
        ),
        forward,
      );
      section.append(paging);
    }
    if (nextQuery !== undefined || previousQuery !== undefined) {
      for (const format of ['csv', 'jsonl'] as const) {
        const button = make(
          'button',
          { type: 'button', class: 'secondary export-all', 'data-format': format },
          `Export all ${list.name} as ${format === 'csv' ? 'CSV' : 'JSON lines'}`,
        );
        button.addEventListener('click', () => {
          button.disabled = true;
          void hooks.exportAll(list, format).finally(() => {
            button.disabled = false;
          });
        });
        actions.append(button);
      }
    }
  }
  return section;
}

/** Fills `panel` with the answer; returns the status line's text. */
export function showResult(
  panel: HTMLElement,
  result: Readonly<Record<string, unknown>>,
  hooks: ResultsHooks,
): { status: string; empty: boolean } {
  const stats = result._stats as { total_count?: number } | undefined;
  const warnings = Array.isArray(result._warnings) ? (result._warnings as string[]) : [];
  if (warnings.length > 0) {
    const box = make('div', { class: 'warnings', role: 'note' });
    box.append(make('h2', {}, 'Warnings'));
    const list = make('ul');
    for (const w of warnings) list.append(make('li', {}, w));
    box.append(list);
    panel.append(box);
  }
  const lists = resultLists(result);
  const toolbar = make('div', { class: 'toolbar' });
  const jsonButton = make('button', { type: 'button', id: 'download-json', class: 'secondary' }, 'Download JSON');
  jsonButton.addEventListener('click', () =>
    hooks.download('quarry-result.json', 'application/json', JSON.stringify(result, null, 2)),
  );
  toolbar.append(jsonButton);
  panel.append(toolbar);

  const empty = lists.length > 0 && lists.every((l) => l.rows.length === 0);
  if (empty) {
    const box = make('div', { class: 'notice warn', id: 'empty-result', role: 'status' });
    box.append(
      make('p', {}, 'No records match this query.'),
      make(
        'p',
        {},
        'Try a broader query: drop or loosen a filter (a wider year range, fewer values), use fewer or more general full-text words, or search another source.',
      ),
    );
    const wider = hooks.broaderQuery();
    if (wider !== undefined) {
      const button = make('button', { type: 'button', id: 'run-broader' }, 'Run it without the filter');
      button.title = wider;
      button.addEventListener('click', () => hooks.runText(wider));
      box.append(button);
    }
    panel.append(box);
  } else {
    for (const list of lists) panel.append(renderList(list, result, hooks));
  }
  if (lists.length === 0 && !('_stats' in result)) {
    // describe answers are objects: the raw JSON below is their view (and the schema browser's source).
    panel.append(make('p', {}, 'This answer has no result lists; see the raw JSON.'));
  }
  const raw = make('details', { class: 'raw-json' });
  raw.append(make('summary', {}, 'Raw JSON'), make('pre', { id: 'raw-json' }, JSON.stringify(result, null, 2)));
  panel.append(raw);
  const status =
    stats?.total_count !== undefined ? `${stats.total_count.toLocaleString('en-US')} matching records.` : 'Done.';
  return { status, empty };
}
