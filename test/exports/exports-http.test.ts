// Bulk exports over HTTP on a database larger than the 50,000-record paging window: the
// export equals the union of the year-split pages; the job is its owner's alone; CSV,
// byte ranges, cancel, the per-account cap and retention.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parseCsvLine } from '../../src/data/csv.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { exportApp, jsonLinesOf, signIn, sqliteEngine, syntheticDatabase, tempDir, type ExportApp } from './harness.ts';

const ROWS = 60_000;
const EVERYTHING = 'search publications return publications';

interface Job {
  id: string;
  state: string;
  records: number;
  total: number | null;
  url: string;
  error?: string;
}

describe('bulk exports over HTTP (SQLite, 60,000 publications)', () => {
  const dir = tempDir('quarry-exports-');
  let engine: QueryEngine;
  let t: ExportApp;
  let ana: { jwt: string; bearer: string };
  let ben: { jwt: string; bearer: string };
  const jwt = (who: { jwt: string }) => ({ authorization: `JWT ${who.jwt}` });
  const bearer = (who: { bearer: string }) => ({ authorization: `Bearer ${who.bearer}` });

  before(async () => {
    const dbPath = syntheticDatabase(dir.path, ROWS);
    engine = sqliteEngine(dbPath);
    // Kept an hour, within the tokens' two hours, so the clock can pass it without signing in again.
    t = await exportApp({
      dbPath,
      exportDir: `${dir.path}/exports`,
      engine,
      config: { exports: { retentionHours: 1 } },
    });
    ana = await signIn(t, 'ana@example.org');
    ben = await signIn(t, 'ben@example.org');
  });
  after(async () => {
    await t.close();
    await engine.close();
    dir.remove();
  });

  /** Polls the job until it has ended. */
  async function finished(id: string, headers: Record<string, string>, base = '/api/exports'): Promise<Job> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `${base}/${id}`, headers });
      assert.equal(res.statusCode, 200, res.body);
      const job = res.json<Job>();
      if (job.state === 'done' || job.state === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${job.state} after 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function submit(text: string, headers: Record<string, string>, url = '/api/exports') {
    return t.app.inject({ method: 'POST', url, headers, payload: text });
  }

  /** Every record through the paged query API, one year at a time (each under the window). */
  async function yearSplitPages(): Promise<Array<Record<string, unknown>>> {
    const all: Array<Record<string, unknown>> = [];
    for (let year = 1995; year <= 2024; year++) {
      for (let skip = 0; ; skip += 1000) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/dsl/v2',
          headers: jwt(ana),
          payload: `search publications where year = ${year} return publications limit 1000 skip ${skip}`,
        });
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json<{ publications: Array<Record<string, unknown>> }>().publications;
        all.push(...page);
        if (page.length < 1000) break;
      }
    }
    return all;
  }

  let fullExport: Buffer;
  let fullJob: Job;

  test('the paged API stops at the 50,000-record window', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: jwt(ana),
      payload: `${EVERYTHING} limit 1000 skip 50000`,
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors.query.code, 'SCHEMA_PAGING_TOO_DEEP');
  });

  test('an export of every record answers 202 at once, then holds the union of the year-split pages', async () => {
    const res = await submit(EVERYTHING, jwt(ana));
    assert.equal(res.statusCode, 202, res.body);
    const queued = res.json<Job>();
    assert.match(queued.id, /^[0-9a-f]{32}$/);
    assert.equal(queued.url, `/api/exports/${queued.id}/download`);
    assert.equal(res.headers.location, `/api/exports/${queued.id}`);
    assert.ok(['queued', 'running'].includes(queued.state));
    fullJob = await finished(queued.id, jwt(ana));
    assert.equal(fullJob.state, 'done', fullJob.error);
    assert.equal(fullJob.records, ROWS);
    assert.equal(fullJob.total, ROWS);

    const download = await t.app.inject({ method: 'GET', url: fullJob.url, headers: jwt(ana) });
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'application/gzip');
    assert.equal(download.headers['accept-ranges'], 'bytes');
    fullExport = download.rawPayload;
    const exported = jsonLinesOf(fullExport);
    assert.equal(exported.length, ROWS);
    const ids = exported.map((r) => r.id as string);
    assert.deepEqual(ids, [...ids].sort(), 'written in record id order');
    assert.equal(new Set(ids).size, ROWS, 'no record twice');

    const paged = await yearSplitPages();
    assert.ok(paged.length > 50_000);
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      (a.id as string) < (b.id as string) ? -1 : 1;
    assert.deepEqual(exported, [...paged].sort(byId));
  });

  test('another account cannot see, download or cancel the job: 404, as for an id that never existed', async () => {
    const unknown = 'f'.repeat(32);
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/download'],
      ['DELETE', ''],
    ] as const) {
      const theirs = await t.app.inject({ method, url: `/api/exports/${fullJob.id}${suffix}`, headers: jwt(ben) });
      const none = await t.app.inject({ method, url: `/api/exports/${unknown}${suffix}`, headers: jwt(ben) });
      assert.equal(theirs.statusCode, 404, `${method} ${suffix}`);
      assert.equal(none.statusCode, 404);
      assert.equal(theirs.json().errors.query.code, 'SERVICE_EXPORT_NOT_FOUND');
      assert.equal(
        theirs.json().errors.query.details[0].replace(fullJob.id, 'ID'),
        none.json().errors.query.details[0].replace(unknown, 'ID'),
      );
    }
    // Through the other family too, and the owner still has it.
    const v3 = await t.app.inject({ method: 'GET', url: `/v3/api/exports/${fullJob.id}`, headers: bearer(ben) });
    assert.equal(v3.statusCode, 404);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/exports/${fullJob.id}`, headers: jwt(ana) })).statusCode,
      200,
    );
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/exports/${fullJob.id}` })).statusCode, 401);
  });

  test('a byte range answers 206 with exactly those bytes; past the end 416', async () => {
    const part = await t.app.inject({
      method: 'GET',
      url: fullJob.url,
      headers: { ...jwt(ana), range: 'bytes=10-99' },
    });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers['content-range'], `bytes 10-99/${fullExport.length}`);
    assert.deepEqual(part.rawPayload, fullExport.subarray(10, 100));
    const rest = await t.app.inject({
      method: 'GET',
      url: fullJob.url,
      headers: { ...jwt(ana), range: 'bytes=1000-' },
    });
    assert.equal(rest.statusCode, 206);
    assert.deepEqual(Buffer.concat([fullExport.subarray(0, 1000), rest.rawPayload]), fullExport);
    const past = await t.app.inject({
      method: 'GET',
      url: fullJob.url,
      headers: { ...jwt(ana), range: `bytes=${fullExport.length}-` },
    });
    assert.equal(past.statusCode, 416);
    assert.equal(past.headers['content-range'], `bytes */${fullExport.length}`);
  });

  test('token-path with Bearer, CSV on request: a header, then one row per record', async () => {
    const res = await submit(
      'search publications where year = 2000 return publications[id + year + type]',
      bearer(ana),
      '/v3/api/exports?format=csv',
    );
    assert.equal(res.statusCode, 202, res.body);
    const job = await finished(res.json<Job>().id, bearer(ana), '/v3/api/exports');
    assert.equal(job.state, 'done', job.error);
    assert.equal(job.url, `/v3/api/exports/${job.id}/download`);
    const download = await t.app.inject({ method: 'GET', url: job.url, headers: bearer(ana) });
    assert.match(download.headers['content-disposition'] as string, /\.csv\.gz"$/);
    const lines = gunzipSync(download.rawPayload).toString('utf8').split('\r\n').filter(Boolean);
    assert.deepEqual(parseCsvLine(lines[0]!), ['id', 'year', 'type']);
    assert.equal(lines.length - 1, ROWS / 30);
    for (const line of lines.slice(1)) assert.equal(parseCsvLine(line)[1], '2000');
  });

  test('a query that cannot be exported is refused with the reason; a mistake with its position', async () => {
    const limited = await submit(`${EVERYTHING} limit 5`, jwt(ana));
    assert.equal(limited.statusCode, 400);
    assert.equal(limited.json().errors.query.code, 'SERVICE_EXPORT_NOT_EXPORTABLE');
    assert.match(limited.json().errors.query.details[0], /limit or skip/);
    const facet = await submit('search publications return year', jwt(ana));
    assert.equal(facet.json().errors.query.code, 'SERVICE_EXPORT_NOT_EXPORTABLE');
    const typo = await submit('search publications where yeer = 2000 return publications', jwt(ana));
    assert.equal(typo.statusCode, 400);
    assert.match(JSON.stringify(typo.json()), /yeer/);
    const format = await submit(EVERYTHING, jwt(ana), '/api/exports?format=xml');
    assert.equal(format.statusCode, 400);
    assert.equal(format.json().errors.query.code, 'SERVICE_EXPORT_FORMAT');
  });

  test('an account may have two exports queued or running; the third answers 429 with Retry-After', async () => {
    const first = await submit(EVERYTHING, jwt(ben));
    const second = await submit(EVERYTHING, jwt(ben));
    const third = await submit(EVERYTHING, jwt(ben));
    assert.equal(first.statusCode, 202);
    assert.equal(second.statusCode, 202);
    assert.equal(third.statusCode, 429);
    assert.equal(third.headers['retry-after'], '30');
    assert.equal(third.json().errors.query.code, 'SERVICE_EXPORT_LIMIT');
    // Not done yet: its file cannot be downloaded.
    const early = await t.app.inject({
      method: 'GET',
      url: `/api/exports/${second.json<Job>().id}/download`,
      headers: jwt(ben),
    });
    assert.equal(early.statusCode, 409);
    assert.equal(early.json().errors.query.code, 'SERVICE_EXPORT_NOT_READY');
    // Cancel: the job is gone (404 after), and so is any file it had begun.
    for (const res of [first, second]) {
      const id = res.json<Job>().id;
      const cancel = await t.app.inject({ method: 'DELETE', url: `/api/exports/${id}`, headers: jwt(ben) });
      assert.equal(cancel.statusCode, 204);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: jwt(ben) })).statusCode,
        404,
      );
    }
    await t.exports.idle();
    const left = readdirSync(`${dir.path}/exports`).filter(
      (f) => f.startsWith(first.json<Job>().id) || f.startsWith(second.json<Job>().id),
    );
    assert.deepEqual(left, []);
    assert.equal((await submit(EVERYTHING, jwt(ben))).statusCode, 202, 'room again after cancelling');
  });

  test('the OpenAPI document lists the export routes of both families with their schemes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    }>();
    for (const [base, tag, scheme] of [
      ['/api/exports', 'auth-path', 'jwt'],
      ['/v3/api/exports', 'token-path', 'bearerToken'],
    ] as const) {
      assert.deepEqual(doc.paths[base]?.post?.security, [{ [scheme]: [] }]);
      assert.deepEqual(doc.paths[base]?.post?.tags, [tag]);
      assert.ok(doc.paths[`${base}/{id}`]?.get && doc.paths[`${base}/{id}`]?.delete, base);
      assert.ok(doc.paths[`${base}/{id}/download`]?.get, base);
    }
  });

  test('a finished export is deleted, file and job, once its retention period has passed', async () => {
    const file = `${dir.path}/exports/${fullJob.id}.jsonl.gz`;
    assert.ok(existsSync(file));
    t.clock.advance(t.config.exports.retentionHours * 3600_000 + 1000);
    assert.ok((await t.exports.sweep()) >= 1);
    assert.equal(existsSync(file), false);
    const gone = await t.app.inject({ method: 'GET', url: `/api/exports/${fullJob.id}`, headers: jwt(ana) });
    assert.equal(gone.statusCode, 404);
  });
});
