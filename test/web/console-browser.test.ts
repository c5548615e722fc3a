// The query console's features in Chromium against a real server: indicator charts and
// tables with a metric picker, year facets as lines in year order, a selected bar or point
// added as a filter, formatted numbers, flattened entities, empty answers, paging and export
// all, history and permalinks, code snippets, the schema browser and value completion, the
// language versions served, the links to the language reference. States are checked with
// axe and photographed at 1366 and 390 px (test-results/web/console-*.png).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parseCsv } from '../../src/web/console/csv.ts';
import { TABLE_PAGE_ROWS } from '../../src/web/console/results-view.ts';
import { assertAccessible, launchBrowser, newContext, shots, signIn } from './helpers/browser.ts';
import { HOLDER, startWebServer, type WebServer } from './helpers/server.ts';

let server: WebServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let external: string[];

/** The console's own endpoint, as the page calls it, for comparing answers. */
async function apiAnswer(query: string): Promise<Record<string, unknown>> {
  return page.evaluate(async (q) => {
    const config = JSON.parse(document.getElementById('console-config')?.textContent ?? '{}') as {
      csrfToken: string;
    };
    const response = await fetch('/console/api/query', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': config.csrfToken },
      body: JSON.stringify({ query: q, version: 2 }),
    });
    return (await response.json()) as Record<string, unknown>;
  }, query);
}

async function typeQuery(text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}

async function editorText(): Promise<string> {
  return page
    .locator('.cm-content')
    .evaluate((el) => [...el.querySelectorAll('.cm-line')].map((line) => line.textContent ?? '').join('\n'));
}

/** Runs the query in the editor and waits for the answer. */
/**
 * Clears the results' finished state before something runs a query, so that waiting for
 * `data-state="done"` waits for that query, not the one before it.
 */
async function forgetResultState(): Promise<void> {
  await page.evaluate(() => document.getElementById('console-results')?.removeAttribute('data-state'));
}

async function run(text?: string): Promise<void> {
  if (text !== undefined) await typeQuery(text);
  await forgetResultState();
  await page.getByRole('button', { name: /^Run/ }).click();
  await page.locator('#console-results[data-state]').waitFor({ state: 'attached' });
}

async function openConsole(path = '/console'): Promise<void> {
  await page.goto(server.url + path);
  await page.locator('body[data-console-ready="true"]').waitFor();
}

before(async () => {
  // Each test runs many queries in a minute; the auth-path limit is raised so none is refused.
  server = await startWebServer({ config: { rateLimits: { authPath: { max: 10_000 } } } });
  browser = await launchBrowser();
  ({ context, page, external } = await newContext(browser, server.url));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signIn(page, server.url, HOLDER.email, HOLDER.password);
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('the console in the browser', () => {
  test('the top funders example charts and tables the funding, formatted and in view, with a metric picker', async () => {
    await openConsole();
    await page.getByRole('button', { name: 'Top funders with funding totals' }).click();
    await run();
    const api = (await apiAnswer(await editorText())) as { funders: { id: string; funding: number; count: number }[] };
    const canvas = page.locator('canvas[data-result="funders"]');
    assert.equal(await canvas.getAttribute('data-metric'), 'funding');
    assert.equal(await canvas.getAttribute('aria-label'), 'Bar chart of funding per funders');
    const picker = page.getByLabel('Chart indicator for funders');
    assert.deepEqual(await picker.locator('option').allTextContents(), ['count', 'funding']);

    // The funding column comes right after the name, formatted, and is inside the visible table.
    const headers = await page.locator('table[data-result="funders"] th').allTextContents();
    assert.deepEqual(headers.slice(0, 4), ['id', 'name', 'count', 'funding']);
    const firstFunding = page.locator('table[data-result="funders"] tbody tr').first().locator('td').nth(3);
    const top = api.funders[0]!;
    assert.equal(await firstFunding.textContent(), top.funding.toLocaleString('en-US', { maximumFractionDigits: 2 }));
    const [cellBox, wrapBox] = await Promise.all([
      firstFunding.boundingBox(),
      page.locator('table[data-result="funders"]').locator('xpath=..').boundingBox(),
    ]);
    assert.ok(cellBox && wrapBox && cellBox.x + cellBox.width <= wrapBox.x + wrapBox.width + 1, 'funding is in view');
    await assertAccessible(page, 'the console with a facet chart');
    await shots(page, 'console-funders');

    await picker.selectOption('count');
    assert.equal(await canvas.getAttribute('data-metric'), 'count');
    assert.equal(await canvas.getAttribute('aria-label'), 'Bar chart of count per funders');
  });

  test('a year facet is a line in year order, and selecting a point adds it as a filter', async () => {
    await run('search publications where year >= 2015\nreturn year aggregate citations_total limit 8');
    const canvas = page.locator('canvas[data-result="year"]');
    assert.equal(await canvas.getAttribute('aria-label'), 'Line chart of citations_total per year');
    const points = JSON.parse((await canvas.getAttribute('data-points')) ?? '[]') as [number, number][];
    assert.equal(points.length, 8);
    assert.ok(
      points.every((p, i) => i === 0 || p[0] > points[i - 1]![0]),
      'points run left to right',
    );
    const api = (await apiAnswer(await editorText())) as { year: { id: number; citations_total: number }[] };
    const oldest = Math.min(...api.year.map((r) => r.id));
    // The table keeps the server's order (by count); the chart's first point is the oldest year.
    const box = await canvas.boundingBox();
    const [x, y] = points[0]!;
    await shots(page, 'console-year-line');
    // The chart redraws at the laptop width after the phone's screenshot.
    await page.waitForFunction(
      (expected) => document.querySelector('canvas[data-result="year"]')?.getAttribute('data-points') === expected,
      JSON.stringify(points),
    );
    await forgetResultState();
    await page.mouse.click(box!.x + x, box!.y + y);
    await page.locator('#console-results[data-state="done"]').waitFor();
    assert.equal(
      await editorText(),
      `search publications where year >= 2015 and year = ${oldest}\nreturn year aggregate citations_total limit 8`,
    );
    assert.equal(await page.locator('table[data-result="year"] tbody tr').count(), 1);

    // The table's Filter buttons do the same from the keyboard, on an entity facet by its id.
    await run('search grants\nreturn funders limit 3');
    const firstRow = page.locator('table[data-result="funders"] tbody tr').first();
    const id = await firstRow.locator('td').first().textContent();
    await forgetResultState();
    await firstRow.getByRole('button', { name: /^Filter on funders/ }).click();
    await page.locator('#console-results[data-state="done"]').waitFor();
    assert.equal(await editorText(), `search grants\nwhere funders.id = "${id}"\nreturn funders limit 3`);
  });

  test('an error is marked at its line and column, and the page stays accessible', async () => {
    await run('search publications\nwhere year = 2019 retrun year');
    const error = page.locator('#console-error');
    await error.waitFor();
    assert.equal(await error.getAttribute('data-line'), '2');
    assert.equal(await error.getAttribute('data-column'), String('where year = 2019 '.length + 1));
    assert.equal(await page.locator('.cm-lintRange-error').textContent(), 'retrun');
    await assertAccessible(page, 'the console showing an error');
    await shots(page, 'console-error');
  });

  test('selecting a bar adds its value as a filter; counts are formatted, years are not', async () => {
    await run('search publications where year >= 2015\nreturn type limit 5');
    const api = (await apiAnswer(await editorText())) as { type: { id: string; count: number }[] };
    assert.ok(api.type.length >= 2, 'at least two bars');
    const canvas = page.locator('canvas[data-result="type"]');
    assert.equal(await canvas.getAttribute('aria-label'), 'Bar chart of count per type');
    assert.deepEqual(
      await page
        .locator('table[data-result="type"] tbody tr')
        .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent))),
      api.type.map((r) => [r.id, r.count.toLocaleString('en-US')]),
      'the table holds the answer, counts with thousands separators',
    );
    await assertAccessible(page, 'the console with a bar chart');
    const drawn = (await canvas.getAttribute('data-points')) ?? '[]';
    await shots(page, 'console-bar-chart');
    // The chart redraws at the laptop width after the phone's screenshot.
    await page.waitForFunction(
      (expected) => document.querySelector('canvas[data-result="type"]')?.getAttribute('data-points') === expected,
      drawn,
    );
    // The second bar, not the first: the click picks the bar under the pointer.
    const points = JSON.parse(drawn) as [number, number][];
    assert.equal(points.length, api.type.length);
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const [x, top] = points[1]!;
    await forgetResultState();
    await page.mouse.click(box!.x + x, box!.y + top + 3);
    await page.locator('#console-results[data-state="done"]').waitFor();
    const chosen = api.type[1]!;
    assert.equal(
      await editorText(),
      `search publications where year >= 2015 and type = "${chosen.id}"\nreturn type limit 5`,
    );
    assert.deepEqual(await page.locator('table[data-result="type"] tbody tr td:first-child').allTextContents(), [
      chosen.id,
    ]);
    await shots(page, 'console-bar-filtered');

    // Years are labels, not quantities: 2019, never 2,019; funding totals have their commas.
    await run('search grants return start_year aggregate funding limit 3');
    const years = (await apiAnswer(await editorText())) as { start_year: { id: number; funding: number }[] };
    const cells = await page
      .locator('table[data-result="start_year"] tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    const headers = await page.locator('table[data-result="start_year"] th').allTextContents();
    const funding = headers.indexOf('funding');
    assert.deepEqual(
      cells.map((c) => [c[0], c[funding]]),
      years.start_year.map((r) => [String(r.id), r.funding.toLocaleString('en-US', { maximumFractionDigits: 2 })]),
    );
    assert.ok(
      years.start_year.every((r) => r.id >= 1000 && r.funding >= 1000),
      'four-digit years and totals over a thousand, so a wrong separator would show',
    );
  });

  test('entities are flattened into columns, not shown as JSON text', async () => {
    await run('search publications return publications[id + title + journal + authors + research_orgs] limit 5');
    const headers = await page.locator('table[data-result="publications"] th').allTextContents();
    assert.ok(headers.includes('journal.title') && headers.includes('journal.id'), headers.join(','));
    const cells = await page.locator('table[data-result="publications"] td').allTextContents();
    assert.ok(cells.length > 0);
    assert.deepEqual(
      cells.filter((c) => /^[[{]/.test(c)),
      [],
      'no cell holds JSON text',
    );
    const api = (await apiAnswer(await editorText())) as {
      publications: { authors: { first_name: string; last_name: string }[] }[];
    };
    const authors = api.publications[0]!.authors.map((a) => `${a.first_name} ${a.last_name}`).join('; ');
    const column = headers.indexOf('authors');
    assert.equal(
      await page.locator('table[data-result="publications"] tbody tr').first().locator('td').nth(column).textContent(),
      authors,
    );
    await assertAccessible(page, 'the console with records');
    await shots(page, 'console-records');
  });

  test('an empty answer says so and offers a broader query', async () => {
    await run('search publications where type = "no such type"\nreturn publications[id + title] limit 5');
    const empty = page.locator('#empty-result');
    assert.match((await empty.textContent()) ?? '', /No records match this query[\s\S]*broader query/);
    await assertAccessible(page, 'the console with an empty answer');
    await shots(page, 'console-empty');
    await page.getByRole('button', { name: 'Run it without the filter' }).click();
    await page.locator('table[data-result="publications"]').waitFor();
    assert.equal(await editorText(), 'search publications\nreturn publications[id + title] limit 5');
  });

  test('1,000 records show a page of rows at a time; result pages and export all', async () => {
    await run('search publications return publications[id + title + year] limit 1000');
    const rows = page.locator('table[data-result="publications"] tbody tr');
    assert.equal(await rows.count(), TABLE_PAGE_ROWS);
    const api = (await apiAnswer(await editorText())) as { publications: { id: string }[] };
    await page.getByRole('button', { name: 'Next rows' }).click();
    assert.equal(await rows.first().locator('td').first().textContent(), api.publications[TABLE_PAGE_ROWS]!.id);
    assert.match((await page.locator('.pager span').first().textContent()) ?? '', /Rows 51–100 of 1,000/);
    await assertAccessible(page, 'the console with a page of rows');
    await shots(page, 'console-table-pages');

    await run('search grants where start_year >= 2015 return grants[id + title + funders] limit 10');
    const total = ((await apiAnswer(await editorText())) as { _stats: { total_count: number } })._stats.total_count;
    assert.ok(total > 20, `enough grants to page through (${total})`);
    await forgetResultState();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('#console-results[data-state="done"]').waitFor();
    assert.equal(
      await editorText(),
      'search grants where start_year >= 2015 return grants[id + title + funders] limit 10 skip 10',
    );
    assert.match(
      (await page.locator('[id="records-range-grants"]').textContent()) ?? '',
      new RegExp(`Records 11–20 of ${total}`),
    );

    const [jsonl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export all grants as JSON lines' }).click(),
    ]);
    const lines = readFileSync(await jsonl.path(), 'utf8')
      .trim()
      .split('\n');
    assert.equal(lines.length, total);
    assert.equal(new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id)).size, total, 'no record twice');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export all grants as CSV' }).click(),
    ]);
    assert.equal(csv.suggestedFilename(), 'grants.csv');
    const table = parseCsv(readFileSync(await csv.path(), 'utf8'));
    assert.deepEqual(table[0], ['id', 'title', 'funders']);
    assert.equal(table.length, total + 1);
    assert.match(
      (await page.locator('#console-status').textContent()) ?? '',
      new RegExp(`Exported ${total} of ${total}`),
    );
  });

  test('history survives a reload, a permalink loads and runs, and the query copies as curl, Python and R', async () => {
    const query = 'search publications where year = 2020\nreturn type limit 5';
    await run(query);
    await page.reload();
    await page.locator('body[data-console-ready="true"]').waitFor();
    const history = await page.locator('#console-history .history-entry').allTextContents();
    assert.equal(history[0], query.replace(/\s+/g, ' '));
    assert.ok(history.length >= 5, 'the earlier queries are kept too');
    assert.equal(await editorText(), query, 'the last query is back in the editor');

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.locator('#share-status', { hasText: 'Copied link.' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(link, `${server.url}/console?${new URLSearchParams({ q: query }).toString()}`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(link);
    await page.locator('#console-results[data-state="done"]').waitFor();
    assert.equal(await editorText(), query);
    const api = (await apiAnswer(query)) as { type: { id: string }[] };
    assert.deepEqual(
      await page.locator('table[data-result="type"] tbody tr td:first-child').allTextContents(),
      api.type.map((r) => r.id),
    );

    // The curl snippet runs as shown against this server, with a key in QUARRY_KEY.
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const curl = await page.locator('#share-text').textContent();
    const { key } = await server.accounts.createKey(HOLDER.email, 'snippet');
    // Asynchronously: the server answering curl runs in this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', curl ?? ''], {
      env: { ...process.env, QUARRY_KEY: key },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.deepEqual((JSON.parse(out) as { type: unknown }).type, api.type);
    await page.getByRole('button', { name: 'Copy as Python (dimcli)' }).click();
    const python = (await page.locator('#share-text').textContent()) ?? '';
    assert.match(python, /import dimcli/);
    assert.ok(python.includes(`endpoint="${server.url}"`) && python.includes(`"""${query}"""`), python);
    await page.getByRole('button', { name: 'Copy as R (dimensionsR)' }).click();
    const r = (await page.locator('#share-text').textContent()) ?? '';
    assert.ok(r.includes('library(dimensionsR)') && r.includes(`${server.url}/api/dsl.json`), r);
    await assertAccessible(page, 'the console after a permalink');
    await shots(page, 'console-share');
  });

  test('the schema browser lists a source’s fields, and completion offers values after type =', async () => {
    await openConsole();
    await page.getByLabel('Source', { exact: true }).selectOption('grants');
    await page.getByLabel('Find a field').fill('fund');
    // Fields whose name or description mentions funding, and nothing else.
    const names = await page.locator('#schema-fields > ul > li > .schema-name').allTextContents();
    assert.ok(
      names.includes('funders') && names.includes('funding_usd') && names.includes('abstract'),
      names.join(','),
    );
    assert.ok(!names.includes('title') && !names.includes('start_year'), names.join(','));
    assert.match(
      (await page.locator('#schema-fields > p').textContent()) ?? '',
      new RegExp(`^${names.length} of \\d+ fields$`),
    );
    await typeQuery('search grants where ');
    await page
      .locator('#schema-fields .schema-name', { hasText: /^funders$/ })
      .first()
      .click();
    assert.equal(await editorText(), 'search grants where funders');
    await assertAccessible(page, 'the console with the schema browser filtered');
    await shots(page, 'console-schema');

    await typeQuery('search publications where type = ');
    await page.keyboard.press('End');
    await page.keyboard.press('Control+Space');
    const options = page.locator('.cm-tooltip-autocomplete li .cm-completionLabel');
    await options.first().waitFor();
    const types = await options.allTextContents();
    const api = (await apiAnswer('search publications return type limit 100')) as { type: { id: string }[] };
    assert.deepEqual(types.sort(), api.type.map((t) => `"${t.id}"`).sort());
    await page.keyboard.press('Escape');

    await typeQuery('search publications where year = ');
    await page.keyboard.press('End');
    await page.keyboard.press('Control+Space');
    await options.first().waitFor();
    const years = (await options.allTextContents()).map(Number);
    assert.ok(years.length > 5 && years.every((y) => y >= 1900 && y <= 2100), years.join(','));
    assert.deepEqual(
      years,
      [...years].sort((a, b) => b - a),
      'the latest year first',
    );
    await shots(page, 'console-value-completion');
    await page.keyboard.press('Escape');

    assert.deepEqual(external, [], 'the console made no request to another host');
  });

  test('the language version offers only what the server serves', async () => {
    await openConsole();
    // v1 is removed by default (since 2022-04-01), so only version 2 is offered.
    assert.deepEqual(await page.locator('#dsl-version option').allTextContents(), ['2 (current)']);
    await shots(page, 'console-v2-only');

    // A server that keeps v1 offers it, and a query runs in it.
    const legacy = await startWebServer({ config: { versions: { v1RemovedFrom: null } } });
    const other = await newContext(browser, legacy.url);
    try {
      await signIn(other.page, legacy.url, HOLDER.email, HOLDER.password);
      await other.page.goto(`${legacy.url}/console`);
      await other.page.locator('body[data-console-ready="true"]').waitFor();
      const version = other.page.getByLabel('Language version');
      assert.deepEqual(await version.locator('option').allTextContents(), ['2 (current)', '1 (legacy, being retired)']);
      await version.selectOption('1');
      await other.page.locator('.cm-content').click();
      await other.page.keyboard.press('Control+A');
      await other.page.keyboard.insertText('search publications return publications limit 3');
      await other.page.keyboard.press('Escape');
      await other.page.getByRole('button', { name: /^Run/ }).click();
      await other.page.locator('#console-results[data-state="done"]').waitFor();
      assert.equal(await other.page.locator('table[data-result="publications"] tbody tr').count(), 3);
      await assertAccessible(other.page, 'the console with version 1 offered');
      await shots(other.page, 'console-v1-served');
      assert.deepEqual(other.external, []);
    } finally {
      await other.context.close();
      await legacy.close();
    }
  });

  test('the console links the language reference and the error codes', async () => {
    await openConsole();
    await page.getByRole('link', { name: 'language reference' }).click();
    await page.waitForURL(`${server.url}/docs/language`);
    assert.match((await page.locator('h1').first().textContent()) ?? '', /language/i);
    await page.goBack();
    await page.getByRole('link', { name: 'Error codes' }).click();
    await page.waitForURL(`${server.url}/docs/errors`);
    assert.ok((await page.locator('#schema_unknown_field').count()) === 1, 'an error code has its anchor');
  });
});
