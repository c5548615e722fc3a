// `quarry groups define|list|remove` on a SQLite database holding real ROR records
// (test/fixtures/data/ror/ror_v2_hierarchy.jsonl): each command's output and exit status, that
// queries see the groups, and the coded errors of a wrong source, a wrong members option, a
// missing group and a database that does not exist.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openLocalQueries, recordWriterFor } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
const ROR = new URL('../fixtures/data/ror/ror_v2_hierarchy.jsonl', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'quarry-groups-cli-'));
const db = join(dir, 'records.db');

function quarry(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, 'groups', ...args, '--db', db], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_DB: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  await importFiles({ paths: [ROR], open: recordWriterFor(db), format: 'ror', onError: 'abort' });
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('define from a CSV file and from an organization with its descendants; list shows both', async () => {
  const csv = join(dir, 'space.csv');
  writeFileSync(
    csv,
    'organization_id,name\nhttps://ror.org/000kjq947,Department of Space\nhttps://ror.org/00cwrns71,ISRO\n',
  );
  const fromFile = quarry(['define', 'funder_groups', '--name', 'Indian space funders', '--members', csv]);
  assert.equal(fromFile.status, 0, fromFile.stderr);
  assert.equal(fromFile.stdout, 'Saved funder_groups indian-space-funders "Indian space funders": 2 organizations\n');

  const fromTree = quarry([
    'define',
    'research_org_groups',
    '--id',
    'pt-military',
    '--name',
    'Portuguese military schools',
    '--organization',
    'https://ror.org/029me2p54',
  ]);
  assert.equal(fromTree.status, 0, fromTree.stderr);
  // The Instituto Universitário Militar, its three schools and the research centre of one.
  assert.match(fromTree.stdout, /research_org_groups pt-military "Portuguese military schools": 5 organizations/);

  const listed = quarry(['list']);
  assert.equal(listed.status, 0, listed.stderr);
  assert.equal(
    listed.stdout,
    'funder_groups\tindian-space-funders\tIndian space funders\t2 organizations\n' +
      'research_org_groups\tpt-military\tPortuguese military schools\t5 organizations\n',
  );
  const json = JSON.parse(quarry(['list', 'funder_groups', '--json']).stdout) as unknown;
  assert.deepEqual(json, [
    {
      source: 'funder_groups',
      id: 'indian-space-funders',
      name: 'Indian space funders',
      organization_ids: ['https://ror.org/000kjq947', 'https://ror.org/00cwrns71'],
    },
  ]);

  const queries = await openLocalQueries(db, 2);
  try {
    const answer = (await queries.post(
      'search research_org_groups where organization_ids = "https://ror.org/01sabsj32" return research_org_groups[id]',
    )) as { research_org_groups: unknown };
    assert.deepEqual(answer.research_org_groups, [{ id: 'pt-military' }]);
  } finally {
    await queries.close();
  }

  const removed = quarry(['remove', 'funder_groups', 'indian-space-funders']);
  assert.equal(removed.status, 0, removed.stderr);
  assert.equal(removed.stdout, 'Removed funder_groups indian-space-funders\n');
  assert.equal(quarry(['list', 'funder_groups']).stdout, 'no groups\n');
});

test('each mistake is refused with its code and exit status 1, and nothing is written', () => {
  const cases: readonly (readonly [args: string[], code: string])[] = [
    [['define', 'university_groups', '--name', 'x', '--members', 'm.csv'], 'GROUP_UNKNOWN_SOURCE'],
    [['define', 'funder_groups', '--name', 'x'], 'GROUP_MEMBERS_OPTION'],
    [
      ['define', 'funder_groups', '--name', 'x', '--members', 'm.csv', '--organization', 'grid.1'],
      'GROUP_MEMBERS_OPTION',
    ],
    [['define', 'funder_groups', '--name', 'x', '--members', join(dir, 'absent.csv')], 'DATA_FILE_NOT_FOUND'],
    [
      ['define', 'funder_groups', '--name', 'x', '--organization', 'https://ror.org/0000000xx'],
      'GROUP_ORGANIZATION_NOT_FOUND',
    ],
    [
      ['define', 'funder_groups', '--name', 'x', '--id', 'a b', '--organization', 'https://ror.org/01ev6gy70'],
      'GROUP_BAD_ID',
    ],
    [['remove', 'funder_groups', 'nope'], 'GROUP_NOT_FOUND'],
    [['list', 'org_groups'], 'GROUP_UNKNOWN_SOURCE'],
  ];
  for (const [args, code] of cases) {
    const r = quarry(args);
    assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`\\[${code}\\]`), args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
  assert.equal(quarry(['list', 'funder_groups']).stdout, 'no groups\n');
});

test('a database that does not exist is refused, not created', () => {
  const r = spawnSync(process.execPath, [bin, 'groups', 'list', '--db', join(dir, 'absent.db')], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_DB: '' },
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /absent\.db/);
});
