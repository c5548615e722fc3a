// Output formats of `quarry query` and the shell.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatResult } from '../../src/cli/commands/query-remote.ts';
import { cellText, columnsOf, csvCell, csvLine } from '../../src/client/output.ts';
import { table } from '../../src/client/terminal-table.ts';
import { backoffDelay, parseRetryAfter } from '../../src/client/backoff.ts';

const result = {
  publications: [
    { id: 'pub.1', title: 'Graphene, "quoted"\nand a line break', year: 2020, journal: { id: 'j1', title: 'J' } },
    { id: 'pub.2', year: 2021, authors: [{ first_name: 'Ana' }] },
  ],
  _stats: { total_count: 7 },
};

test('CSV quotes what needs quoting and keeps nested values as JSON', () => {
  assert.equal(csvLine(['a', 'b,c', 'say "hi"', 'x\ny']), 'a,"b,c","say ""hi""","x\ny"\r\n');
  assert.deepEqual(columnsOf(result.publications), ['id', 'title', 'year', 'journal', 'authors']);
  const csv = formatResult(result, 'csv');
  assert.equal(
    csv,
    'id,title,year,journal,authors\r\n' +
      'pub.1,"Graphene, ""quoted""\nand a line break",2020,"{""id"":""j1"",""title"":""J""}",\r\n' +
      'pub.2,,2021,,"[{""first_name"":""Ana""}]"\r\n',
  );
  assert.equal(cellText(null), '');
});

// OWASP "CSV injection": text starting with = + - @ tab or CR is run as a formula by
// spreadsheets; it gets a leading ' (shown as text). Numbers are left alone: -3 stays -3.
test('CSV text a spreadsheet would run as a formula gets a leading quote; numbers stay numbers', () => {
  for (const text of ['=HYPERLINK("http://x","y")', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx'])
    assert.equal(csvCell(text), `'${text}`);
  for (const value of [-3, -0.5, 2020, true, 'plain', 'a=b', '', null, ['=x'], { id: '-j' }])
    assert.equal(csvCell(value), cellText(value));
  assert.equal(csvLine(['-x', -3, '=1,2']), `'-x,-3,"'=1,2"\r\n`);
  const csv = formatResult(
    {
      publications: [
        { id: 'pub.1', title: '=HYPERLINK("http://evil","click")', score: -3, note: '@cmd', tab: '\t=1', plus: '+44' },
      ],
    },
    'csv',
  );
  assert.equal(
    csv,
    'id,title,score,note,tab,plus\r\n' + `pub.1,"'=HYPERLINK(""http://evil"",""click"")",-3,'@cmd,'\t=1,'+44\r\n`,
  );
});

test('JSON lines, tables with the total, and describe results as JSON', () => {
  assert.deepEqual(
    formatResult(result, 'jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown),
    result.publications,
  );
  const shown = formatResult(result, 'table');
  assert.match(shown, /^id {4}\| title/);
  assert.match(shown, /Graphene, "quoted" and a line break/);
  assert.match(shown, /\(2 shown, 7 matching\)\n$/);
  assert.deepEqual(JSON.parse(formatResult({ release: '2.0', version: '2.0.0' }, 'table')), {
    release: '2.0',
    version: '2.0.0',
  });
  assert.equal(table([{ id: 2020, count: 5 }]), 'id   | count\n-----+------\n2020 | 5\n');
});

test('Retry-After as seconds or a date; backoff doubles up to the ceiling', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('7', now), 7000);
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((a) => backoffDelay(a, policy, () => 0)),
    [50, 100, 200, 400, 500, 500],
  );
  assert.deepEqual(
    [0, 1, 5].map((a) => backoffDelay(a, policy, () => 1)),
    [100, 200, 1000],
  );
});
