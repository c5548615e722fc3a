// An import holds no line (nor record spanning lines) past its limit and unpacks no compressed
// input past its limits (in all, and per byte read from disk): a bomb of zeros with no line
// break is refused at file:line with a code, within a few MiB of memory, as a file cut short
// is (stop with what came before committed, or skip the file with --on-error skip).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createGzip, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { Zip, ZipDeflate } from 'fflate';
import { recordWriterFor } from '../../src/backends.ts';
import { importFiles, type ImportReport } from '../../src/data/import/index.ts';
import { splitLines } from '../../src/data/import/lines.ts';
import { count, tempRecordDbs } from './helpers/record-db.ts';

const DATA = fileURLToPath(new URL('../fixtures/data/', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const { work, freshDb } = tempRecordDbs('import-limits');
const MiB = 2 ** 20;

/** The bytes of a bomb: `mib` MiB of one byte, with no line break. */
function* filler(mib: number, byte = 0): Generator<Buffer> {
  const chunk = Buffer.alloc(MiB, byte);
  for (let k = 0; k < mib; k++) yield chunk;
}

/** A gzip file of `chunks`, compressed as a stream (never held whole). */
async function gzipFile(path: string, chunks: Iterable<Buffer>): Promise<string> {
  await pipeline(Readable.from(chunks), createGzip({ level: 9 }), createWriteStream(path));
  return path;
}

/** A zip holding one deflated entry of `chunks`, built as a stream. */
async function zipFile(path: string, entry: string, chunks: Iterable<Buffer>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const zip = new Zip((err, data, final) => {
      if (err !== null) reject(err);
      parts.push(data);
      if (final) resolve();
    });
    const file = new ZipDeflate(entry, { level: 9 });
    zip.add(file);
    for (const c of chunks) file.push(c);
    file.push(new Uint8Array(0), true);
    zip.end();
  });
  await done;
  const bytes = Buffer.concat(parts);
  writeFileSync(path, bytes);
  return bytes;
}

/**
 * The most the process's live memory (heap and buffers) grew while `run` ran, sampled every
 * few milliseconds (reading yields to the event loop at every chunk).
 */
async function growthWhile(run: () => Promise<unknown>): Promise<{ growth: number; error: unknown }> {
  const live = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = live();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, live())), 2);
  let error: unknown;
  try {
    await run();
  } catch (err) {
    error = err;
  } finally {
    clearInterval(timer);
    peak = Math.max(peak, live());
  }
  return { growth: peak - base, error };
}

const crossref = readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
/** Crossref work lines with distinct DOIs, `n` of them. */
const crossrefLines = (n: number, tag = 'x'): string[] =>
  Array.from({ length: n }, (_, k) => {
    const w = JSON.parse(crossref[k % crossref.length] as string) as Record<string, unknown>;
    return JSON.stringify({ ...w, DOI: `10.9999/${tag}.${k}` });
  });

const codeOf = (e: unknown): string | undefined => (e as { code?: string }).code;

describe('a decompression bomb', () => {
  test('a gzip of 256 MiB of zeros with no line break is refused on its ratio, in bounded memory', async () => {
    const bomb = await gzipFile(join(work, 'publications.jsonl.gz'), filler(256));
    // Read when the format is told (detection reads the first line) and when it is given.
    for (const format of ['auto', 'quarry'] as const) {
      const { growth, error } = await growthWhile(() =>
        importFiles({ paths: [bomb], open: recordWriterFor(freshDb()), format }),
      );
      assert.equal(codeOf(error), 'DATA_COMPRESSION_RATIO', String(error));
      assert.match(
        (error as Error).message,
        new RegExp(
          `^${bomb}:1: it unpacks to [\\d.]+ MiB from [\\d.]+ KiB, more than 100:1 \\(raise it with --max-compression-ratio\\)`,
        ),
      );
      assert.ok(growth < 96 * MiB, `${format}: memory grew ${Math.round(growth / MiB)} MiB`);
    }
    // With --on-error skip the bomb is listed and the other files are read.
    const other = join(work, 'bomb-other.jsonl');
    writeFileSync(other, crossrefLines(2, 'bomb').join('\n') + '\n');
    const report = await importFiles({ paths: [bomb, other], open: recordWriterFor(freshDb()), onError: 'skip' });
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.line, p.code]),
      [[bomb, 1, 'DATA_COMPRESSION_RATIO']],
    );
    assert.equal(report.records.publications, 2);
  });

  test('past --max-compression-ratio, a line with no break stops at the line limit, never held whole', async () => {
    const bomb = await gzipFile(join(work, 'publications-a.jsonl.gz'), filler(256, 0x61));
    const { growth, error } = await growthWhile(() =>
      importFiles({
        paths: [bomb],
        open: recordWriterFor(freshDb()),
        limits: { maxCompressionRatio: 100_000, maxLineBytes: 4 * MiB },
      }),
    );
    assert.equal(codeOf(error), 'DATA_LINE_TOO_LONG', String(error));
    assert.match((error as Error).message, new RegExp(`^${bomb}:1: .* longer than 4 MiB.*--max-line-mb`));
    assert.ok(growth < 96 * MiB, `memory grew ${Math.round(growth / MiB)} MiB`);
  });

  test('a zip entry whose sizes say 32 MiB from a few KiB is refused before it is read', async () => {
    const zip = join(work, 'bomb.zip');
    await zipFile(zip, 'publications.jsonl', filler(32));
    await assert.rejects(importFiles({ paths: [zip], open: recordWriterFor(freshDb()) }), (e: Error) => {
      assert.equal(codeOf(e), 'DATA_COMPRESSION_RATIO');
      assert.match(
        e.message,
        new RegExp(`^${zip}!publications.jsonl:1: it unpacks to 32 MiB from [\\d.]+ KiB, more than 100:1`),
      );
      return true;
    });
  });

  test('a zip entry that lies about its size is stopped by what it unpacks to', async () => {
    const zip = join(work, 'liar.zip');
    const bytes = await zipFile(zip, 'publications.jsonl', filler(32));
    // The central directory's uncompressed size (offset 24) made equal to the compressed one (20).
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(bytes.readUInt32LE(central + 20), central + 24);
    writeFileSync(zip, bytes);
    const { growth, error } = await growthWhile(() => importFiles({ paths: [zip], open: recordWriterFor(freshDb()) }));
    assert.equal(codeOf(error), 'DATA_COMPRESSION_RATIO', String(error));
    assert.ok(growth < 96 * MiB, `memory grew ${Math.round(growth / MiB)} MiB`);
  });
});

describe('a file past a limit is refused like a file cut short', () => {
  const lines = crossrefLines(600);
  const gz = join(work, 'works.jsonl.gz');
  writeFileSync(gz, gzipSync(lines.join('\n') + '\n'));
  const other = join(work, 'other.jsonl');
  writeFileSync(other, crossrefLines(5, 'other').join('\n') + '\n');

  test('past --max-decompressed-gb: abort keeps the records before the line; skip goes on to the next file', async () => {
    const limits = { maxDecompressedBytes: MiB };
    const db = freshDb();
    let line = 0;
    await assert.rejects(importFiles({ paths: [gz], open: recordWriterFor(db), batchSize: 7, limits }), (e: Error) => {
      assert.equal(codeOf(e), 'DATA_DECOMPRESSED_TOO_LARGE');
      const m = new RegExp(`^${gz}:(\\d+): it unpacks to more than 1 MiB, .*--max-decompressed-gb`).exec(e.message);
      assert.ok(m !== null, e.message);
      line = Number(m[1]);
      return true;
    });
    // Every whole line before the limit is committed: the line reached is the first not read whole.
    const before = Buffer.byteLength(lines.slice(0, line - 1).join('\n') + '\n');
    assert.ok(before <= MiB && before + Buffer.byteLength(lines[line - 1]!) + 1 > MiB - 64 * 1024, `line ${line}`);
    assert.equal(count(db, 'publications'), line - 1);

    const skipDb = freshDb();
    const report = await importFiles({ paths: [gz, other], open: recordWriterFor(skipDb), onError: 'skip', limits });
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.line, p.code]),
      [[gz, line, 'DATA_DECOMPRESSED_TOO_LARGE']],
    );
    assert.equal(count(skipDb, 'publications'), line - 1 + 5);
  });

  test('a long line stops the file at file:line; the lines before it are imported', async () => {
    const long = join(work, 'long.jsonl');
    writeFileSync(
      long,
      [...crossrefLines(3, 'long'), 'x'.repeat(2 * MiB), ...crossrefLines(3, 'after')].join('\n') + '\n',
    );
    const limits = { maxLineBytes: MiB };
    const db = freshDb();
    await assert.rejects(importFiles({ paths: [long], open: recordWriterFor(db), format: 'crossref', limits }), {
      code: 'DATA_LINE_TOO_LONG',
      message: new RegExp(`^${long}:4: a line, or a record spanning lines, is longer than 1 MiB.*--max-line-mb`),
    });
    assert.equal(count(db, 'publications'), 3);
    const skip: ImportReport = await importFiles({
      paths: [long, other],
      open: recordWriterFor(freshDb()),
      onError: 'skip',
      limits,
    });
    assert.deepEqual(
      skip.problems.map((p) => [p.file, p.line, p.code]),
      [[long, 4, 'DATA_LINE_TOO_LONG']],
    );
    assert.equal(skip.records.publications, 3 + 5);
  });

  test('--resume reads with the limits of the run it completes', async () => {
    const file = join(work, 'resumed.jsonl');
    const [first, second] = crossrefLines(2, 'resumed') as [string, string];
    const long = JSON.stringify({ ...(JSON.parse(second) as object), title: ['x'.repeat(2 * MiB)] });
    writeFileSync(file, `${first}\n${long}\n`);
    const db = freshDb();
    const limits = { maxLineBytes: MiB };
    await assert.rejects(importFiles({ paths: [file], open: recordWriterFor(db), limits }), {
      code: 'DATA_LINE_TOO_LONG',
    });
    // What a crash leaves: a run that never ended. Resumed, it stops at the same line again
    // (with the default limits the long record would import).
    const conn = new Database(db);
    conn.prepare("UPDATE import_runs SET state = 'running', finished_at = NULL").run();
    conn.close();
    await assert.rejects(importFiles({ paths: [], open: recordWriterFor(db), resume: true }), {
      code: 'DATA_LINE_TOO_LONG',
      message: new RegExp(`^${file}:2: `),
    });
    assert.equal(count(db, 'publications'), 1);
  });

  test('a record spanning lines is held up to the limit: a pretty-printed JSON element, a quoted CSV field', async () => {
    const filling = Array.from({ length: 1500 }, () => `    "${'n'.repeat(1000)}",`);
    const ror = join(work, 'ror.json');
    writeFileSync(
      ror,
      ['[', '  {', '    "id": "https://ror.org/0abc",', '    "names": [', ...filling, '""]}', ']'].join('\n'),
    );
    const csv = join(work, 'for_codes.csv');
    const text = Array.from({ length: 1500 }, () => 'n'.repeat(1000));
    writeFileSync(csv, ['code,level,label,parent_code', '30,division,"Open', ...text, '",'].join('\n'));
    const limits = { maxLineBytes: MiB };
    for (const [file, line] of [
      [ror, 2],
      [csv, 2],
    ] as const)
      await assert.rejects(importFiles({ paths: [file], open: recordWriterFor(freshDb()), limits }), {
        code: 'DATA_LINE_TOO_LONG',
        message: new RegExp(`^${file}:${line}: `),
      });
  });

  test('limits must be positive numbers, in importFiles and on the command line', async () => {
    await assert.rejects(
      importFiles({ paths: [other], open: recordWriterFor(freshDb()), limits: { maxLineBytes: 0 } }),
      {
        code: 'DATA_BAD_LIMIT_OPTION',
      },
    );
    const bad = spawnSync(process.execPath, [BIN, 'import', other, '--db', freshDb(), '--max-line-mb', 'lots'], {
      encoding: 'utf8',
    });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /DATA_BAD_LIMIT_OPTION/);
    assert.match(bad.stderr, /--max-line-mb must be a positive number; got lots/);
    const long = join(work, 'long-cli.jsonl');
    writeFileSync(long, crossrefLines(2, 'cli').join('\n') + '\n' + 'x'.repeat(3 * MiB) + '\n');
    const low = spawnSync(process.execPath, [BIN, 'import', long, '--db', freshDb(), '--max-line-mb', '2'], {
      encoding: 'utf8',
    });
    assert.equal(low.status, 1);
    assert.match(low.stderr, /DATA_LINE_TOO_LONG/);
    assert.ok(low.stderr.includes(`${long}:3: a line, or a record spanning lines, is longer than 2 MiB`), low.stderr);
    const raised = spawnSync(process.execPath, [BIN, 'import', long, '--db', freshDb(), '--max-line-mb', '4'], {
      encoding: 'utf8',
    });
    // Past the raised limit the line is read, and refused as the malformed record it is.
    assert.match(raised.stderr, /DATA_IMPORT_ABORTED/);
  });
});

test('lines are cut at the limit wherever the chunks break: a line of the limit passes, one byte more throws', async () => {
  const text = Buffer.from('abcd\r\nabcde\nxy');
  const lines = async (chunks: Buffer[], max: number): Promise<string[] | string> => {
    const out: string[] = [];
    try {
      for await (const line of splitLines(Readable.from(chunks), max)) out.push(line);
    } catch (err) {
      return String(codeOf(err));
    }
    return out;
  };
  for (let cut = 0; cut <= text.length; cut++) {
    const chunks = [text.subarray(0, cut), text.subarray(cut)].filter((c) => c.length > 0);
    assert.deepEqual(await lines(chunks, 5), ['abcd', 'abcde', 'xy'], `cut at ${cut}`);
    assert.equal(await lines(chunks, 4), 'DATA_LINE_TOO_LONG', `cut at ${cut}`);
  }
});
