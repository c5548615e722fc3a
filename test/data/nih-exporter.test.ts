// NIH ExPORTER as published: each fiscal year's projects and abstracts come as a zip holding
// one CSV (`RePORTER_PRJ_C_FY2024.zip` -> `RePORTER_PRJ_C_FY2024.csv`), and recent years'
// project files call the FOA_NUMBER column `OPPORTUNITY NUMBER`. No ExPORTER file is among
// the real samples (none was found in public repositories): these rows use the published
// column names with values of the real award actions in test/fixtures/data/nih_reporter/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { strToU8, zipSync } from 'fflate';
import { detectFormat, expandInputs } from '../../src/data/import/detect.ts';
import { recordWriterFor } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { registerUnpackText } from '../../src/store/sqlite/text-dictionaries.ts';

const DATA = fileURLToPath(new URL('../fixtures/data/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-nih-exporter-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEADER =
  'APPLICATION_ID,ACTIVITY,ADMINISTERING_IC,APPLICATION_TYPE,ARRA_FUNDED,AWARD_NOTICE_DATE,BUDGET_START,BUDGET_END,CFDA_CODE,CORE_PROJECT_NUM,ED_INST_TYPE,FULL_PROJECT_NUM,SUBPROJECT_ID,FUNDING_ICs,FY,IC_NAME,NIH_SPENDING_CATS,ORG_CITY,ORG_COUNTRY,ORG_DEPT,ORG_DISTRICT,ORG_DUNS,ORG_FIPS,ORG_NAME,ORG_STATE,ORG_ZIPCODE,PHR,PI_IDS,PI_NAMEs,PROGRAM_OFFICER_NAME,PROJECT_START,PROJECT_END,PROJECT_TERMS,PROJECT_TITLE,SERIAL_NUMBER,STUDY_SECTION,STUDY_SECTION_NAME,SUFFIX,SUPPORT_YEAR,TOTAL_COST,TOTAL_COST_SUB_PROJECT,OPPORTUNITY NUMBER,FUNDING_MECHANISM,ORG_IPF_CODE,DIRECT_COST_AMT,INDIRECT_COST_AMT';

/** ExPORTER project rows for the first real award actions (project number, amount, date). */
function projectRows(n: number): { csv: string; awards: { project: string; amount: number; date: string }[] } {
  const [, ...lines] = readFileSync(join(DATA, 'nih_reporter/nih_awards.csv'), 'utf8').trim().split('\n');
  const awards = lines.slice(0, n).map((l) => {
    const [date, project, amount] = l.split(',');
    return { project: project!, amount: Number(amount), date: date! };
  });
  const rows = awards.map(({ project, amount, date }, k) => {
    const [, type, activity, ic, serial] = /^(\d)([A-Z]\d{2}|[A-Z]{2}\d|[A-Z]\d[A-Z])([A-Z]{2})(\d{6})/.exec(project)!;
    const [y, m, d] = date.split('-');
    const us = `${Number(m)}/${Number(d)}/${y}`;
    const values: Record<string, string> = {
      APPLICATION_ID: String(10900000 + k),
      ACTIVITY: activity!,
      ADMINISTERING_IC: ic!,
      APPLICATION_TYPE: type!,
      AWARD_NOTICE_DATE: us,
      BUDGET_START: us,
      FULL_PROJECT_NUM: project,
      CORE_PROJECT_NUM: `${activity}${ic}${serial}`,
      FY: y!,
      PI_NAMEs: `"PI${k}, ANA (contact)"`,
      PROJECT_TITLE: `"Project ${k}, as titled"`,
      SERIAL_NUMBER: serial!,
      TOTAL_COST: String(amount),
      'OPPORTUNITY NUMBER': `PA-24-${String(100 + k)}`,
      FUNDING_MECHANISM: 'Non-SBIR/STTR',
    };
    return HEADER.split(',')
      .map((c) => values[c] ?? '')
      .join(',');
  });
  return { csv: [HEADER, ...rows].join('\r\n') + '\r\n', awards };
}

test('zipped ExPORTER years import without --format; OPPORTUNITY NUMBER is the FOA number', async () => {
  const { csv, awards } = projectRows(12);
  const dir = join(work, 'exporter');
  mkdirSync(dir);
  const projects = join(dir, 'RePORTER_PRJ_C_FY2024.zip');
  writeFileSync(projects, zipSync({ 'RePORTER_PRJ_C_FY2024.csv': strToU8(csv) }));
  writeFileSync(
    join(dir, 'RePORTER_PRJABS_C_FY2024.zip'),
    zipSync({
      'RePORTER_PRJABS_C_FY2024.csv': strToU8('APPLICATION_ID,ABSTRACT_TEXT\r\n10900000,"An abstract, quoted."\r\n'),
    }),
  );
  const [input] = await expandInputs([projects]);
  assert.equal(input!.name, `${projects}!RePORTER_PRJ_C_FY2024.csv`);
  assert.equal(await detectFormat(input!), 'nih');

  const db = join(work, 'exporter.db');
  const report = await importFiles({ paths: [dir], open: recordWriterFor(db) });
  assert.deepEqual(report.problems, []);
  assert.equal(report.records.grants, awards.length);
  const conn = new Database(db, { readonly: true });
  try {
    registerUnpackText(conn);
    const rows = conn
      .prepare(
        'SELECT g.id, g.title, unpack_text(a.abstract) AS abstract, g.funding_usd, g.foa_number AS foa FROM grants g LEFT JOIN grant_abstracts a ON a.pk = g.pk ORDER BY g.id',
      )
      .all() as Record<string, unknown>[];
    assert.equal(rows.length, new Set(awards.map((a) => a.project)).size);
    const first = rows.find((r) => r['id'] === `nih.${awards[0]!.project}`)!;
    assert.deepEqual(first, {
      id: `nih.${awards[0]!.project}`,
      title: 'Project 0, as titled',
      abstract: 'An abstract, quoted.',
      funding_usd: awards[0]!.amount,
      foa: 'PA-24-100',
    });
  } finally {
    conn.close();
  }
});

test('a truncated abstracts file is refused with its coded error, the projects beside it imported', async () => {
  const { csv, awards } = projectRows(6);
  const dir = join(work, 'truncated');
  mkdirSync(dir);
  writeFileSync(join(dir, 'RePORTER_PRJ_C_FY2024.csv'), csv);
  const abstracts = [
    'APPLICATION_ID,ABSTRACT_TEXT',
    ...Array.from({ length: 2000 }, (_, k) => `${10900000 + k},"An abstract about cells, number ${k}."`),
  ].join('\r\n');
  const gz = gzipSync(Buffer.from(abstracts));
  writeFileSync(join(dir, 'RePORTER_PRJABS_C_FY2024.csv.gz'), gz.subarray(0, Math.floor(gz.length / 2)));

  const report = await importFiles({
    paths: [dir],
    open: recordWriterFor(join(work, 'truncated.db')),
    onError: 'skip',
  });
  assert.deepEqual(
    report.problems.map((p) => p.code),
    ['DATA_FILE_TRUNCATED'],
  );
  assert.equal(report.records.grants, new Set(awards.map((a) => a.project)).size);
  await assert.rejects(importFiles({ paths: [dir], open: recordWriterFor(join(work, 'truncated-abort.db')) }), {
    code: 'DATA_FILE_TRUNCATED',
  });
});
