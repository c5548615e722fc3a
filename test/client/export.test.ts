// Exports to a file with a checkpoint, through the PROTOCOL DOUBLE (protocol-double.ts):
// an interrupted export keeps its complete pages, a half-written page is cut on resume, and
// the resumed export holds every record exactly once. (The same against the real service,
// with a killed process: cli.test.ts.)
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { connect } from '../../src/client/index.ts';
import { type QuarryClientError } from '../../src/client/errors.ts';
import { checkpointPath, exportToFile, type ExportFormat } from '../../src/client/export.ts';
import { GOOD_KEY, startProtocolDouble, type ProtocolDouble } from './protocol-double.ts';

const QUERY = 'search publications return publications[id]';
let double: ProtocolDouble;
const dir = mkdtempSync(join(tmpdir(), 'quarry-export-'));
before(async () => {
  double = await startProtocolDouble();
});
after(() => double.close());

const client = () => connect({ url: double.url, key: GOOD_KEY }, { sleep: () => Promise.resolve() });

function idsIn(file: string, format: ExportFormat): string[] {
  const text = readFileSync(file, 'utf8');
  if (format === 'json') return (JSON.parse(text) as Array<{ id: string }>).map((r) => r.id);
  if (format === 'csv') return text.split('\r\n').filter(Boolean).slice(1);
  return text
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);
}

for (const format of ['jsonl', 'csv', 'json'] as const) {
  test(`${format}: interrupted after two pages, a torn third page, then resumed: every record once`, async () => {
    double.records = 2345;
    const file = join(dir, `export.${format}`);
    const controller = new AbortController();
    await assert.rejects(
      exportToFile(client(), QUERY, {
        file,
        format,
        pageSize: 500,
        signal: controller.signal,
        onProgress: ({ done }) => done >= 1000 && controller.abort(new Error('stop')),
      }),
      /stop/,
    );
    const checkpoint = JSON.parse(readFileSync(checkpointPath(file), 'utf8'));
    assert.equal(checkpoint.nextSkip, 1000);
    assert.equal(checkpoint.records, 1000);
    // A kill in the middle of writing page three leaves part of it behind.
    appendFileSync(
      file,
      format === 'csv'
        ? 'pub.001001\r\npub.00'
        : format === 'json'
          ? ',\n{"id":"pub.001001"},\n{"id"'
          : '{"id":"pub.001001"}\n{"id":',
    );
    const report = await exportToFile(client(), QUERY, { file, format, pageSize: 500, resume: true });
    assert.equal(report.resumedAt, 1000);
    assert.equal(report.records, 2345);
    const ids = idsIn(file, format);
    assert.equal(ids.length, 2345);
    assert.equal(new Set(ids).size, 2345);
    assert.equal(ids[0], 'pub.000001');
    assert.equal(ids.at(-1), 'pub.002345');
    assert.equal(existsSync(checkpointPath(file)), false);
  });
}

test('resume refuses a different query, a different format, or no checkpoint', async () => {
  double.records = 30;
  const file = join(dir, 'mismatch.jsonl');
  const controller = new AbortController();
  await assert.rejects(
    exportToFile(client(), QUERY, {
      file,
      format: 'jsonl',
      pageSize: 10,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('stop')),
    }),
  );
  const refused = (e: QuarryClientError) => e.code === 'CLIENT_RESUME_MISMATCH';
  await assert.rejects(
    exportToFile(client(), `${QUERY} sort by year`, { file, format: 'jsonl', resume: true }),
    refused,
  );
  await assert.rejects(exportToFile(client(), QUERY, { file, format: 'csv', resume: true }), refused);
  await assert.rejects(
    exportToFile(client(), QUERY, { file: join(dir, 'never.jsonl'), format: 'jsonl', resume: true }),
    refused,
  );
  const done = await exportToFile(client(), QUERY, { file, format: 'jsonl', pageSize: 10, resume: true });
  assert.equal(done.records, 30);
});

test('at the depth limit the file is completed with the 50,000 reachable records, then the error says so', async () => {
  double.records = 50_500;
  const file = join(dir, 'deep.jsonl');
  await assert.rejects(
    exportToFile(client(), QUERY, { file, format: 'jsonl' }),
    (e: QuarryClientError) => e.code === 'CLIENT_DEPTH_LIMIT_REACHED',
  );
  assert.equal(idsIn(file, 'jsonl').length, 50_000);
  assert.equal(existsSync(checkpointPath(file)), false);
});

test('quarry query --all without --out streams every page to stdout; option mistakes are coded', async (t) => {
  const { runRemoteQuery } = await import('../../src/cli/commands/query-remote.ts');
  double.records = 25;
  let out = '';
  t.mock.method(process.stdout, 'write', (chunk: string, callback?: (error?: Error) => void) => {
    out += chunk;
    callback?.();
    return true;
  });
  await runRemoteQuery(QUERY, {
    url: double.url,
    key: GOOD_KEY,
    all: true,
    format: 'csv',
    pageSize: '10',
    progress: false,
  });
  t.mock.restoreAll();
  const lines = out.split('\r\n').filter(Boolean);
  assert.equal(lines[0], 'id');
  assert.deepEqual(
    lines.slice(1),
    Array.from({ length: 25 }, (_, i) => `pub.${String(i + 1).padStart(6, '0')}`),
  );
  const invalid = (e: QuarryClientError) => e.code === 'CLIENT_OPTION_INVALID';
  await assert.rejects(runRemoteQuery(QUERY, { url: double.url, key: GOOD_KEY, all: true, resume: true }), invalid);
  await assert.rejects(runRemoteQuery(QUERY, { url: double.url, key: GOOD_KEY, all: true, format: 'table' }), invalid);
  await assert.rejects(runRemoteQuery(QUERY, { url: double.url, key: GOOD_KEY, all: true, pageSize: 'ten' }), invalid);
});

test('csv: text a spreadsheet would run as a formula is written with a leading quote, numbers as they are', async () => {
  const records = [
    { id: 'pub.1', title: '=HYPERLINK("http://evil","click")', times_cited: -3 },
    { id: 'pub.2', title: '@SUM(A1)', times_cited: 4 },
  ];
  double.script.push({ status: 200, body: JSON.stringify({ publications: records, _stats: { total_count: 2 } }) });
  const file = join(dir, 'formulas.csv');
  await exportToFile(client(), 'search publications return publications[id + title + times_cited]', {
    file,
    format: 'csv',
    pageSize: 10,
  });
  assert.equal(
    readFileSync(file, 'utf8'),
    'id,title,times_cited\r\n' + `pub.1,"'=HYPERLINK(""http://evil"",""click"")",-3\r\n` + "pub.2,'@SUM(A1),4\r\n",
  );
});
