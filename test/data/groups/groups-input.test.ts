// What an administrator gives to define a group, before anything is stored: the members file
// (JSON or CSV, as documented in docs/operations.md "Organization groups") and the checks of
// a group's id, name and members, each failure a coded error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkedGroup, groupSource, idFromName, MAX_GROUP_MEMBERS } from '../../../src/data/groups/group-sources.ts';
import { parseMembers, readMembersText } from '../../../src/data/groups/members-file.ts';
import { isQuarryError } from '../../../src/errors/index.ts';

const coded = (code: string) => (e: unknown) => isQuarryError(e) && e.code === code;
const dir = mkdtempSync(join(tmpdir(), 'quarry-group-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the members file', () => {
  const ids = ['https://ror.org/01ev6gy70', 'grid.1008.9', 'doi:10.13039/100000050'];
  const cases: readonly (readonly [name: string, text: string])[] = [
    ['a JSON array', JSON.stringify(ids)],
    ['a JSON object with organization_ids', JSON.stringify({ name: 'x', organization_ids: ids })],
    ['CSV, one id per line', ids.join('\n')],
    [
      'CSV with a header, more columns, quotes, CRLF, blank lines and a BOM',
      `\uFEFFid,name\r\n"${ids[0]}",Escola Naval\r\n\r\n${ids[1]},Melbourne\r\n${ids[2]},"NHLBI, NIH"\r\n`,
    ],
  ];
  for (const [name, text] of cases)
    test(`reads ${name}`, () => {
      assert.deepEqual(parseMembers(text, 'members'), ids);
    });

  test('refuses JSON that is not a list of strings, naming the file and why', () => {
    assert.throws(
      () => parseMembers('[1, 2]', 'm.json'),
      (e) => coded('GROUP_MEMBERS_UNREADABLE')(e) && /m\.json.*item 1/.test((e as Error).message),
    );
    assert.throws(() => parseMembers('{"ids": []}', 'm.json'), coded('GROUP_MEMBERS_UNREADABLE'));
    assert.throws(
      () => parseMembers('[ "a", ', 'm.json'),
      (e) => coded('GROUP_MEMBERS_UNREADABLE')(e) && /not valid JSON/.test((e as Error).message),
    );
  });

  test('refuses a value that cannot be an organization id', () => {
    assert.throws(
      () => parseMembers('grid.1\nUniversity of Melbourne\n', 'm.csv'),
      (e) => coded('GROUP_MEMBERS_UNREADABLE')(e) && /University of Melbourne/.test((e as Error).message),
    );
  });

  test('reads a file, and names a missing one with DATA_FILE_NOT_FOUND', async () => {
    const path = join(dir, 'members.csv');
    writeFileSync(path, `organization_id\n${ids.join('\n')}\n`);
    assert.deepEqual(parseMembers(await readMembersText(path), path), ids);
    await assert.rejects(readMembersText(join(dir, 'absent.csv')), coded('DATA_FILE_NOT_FOUND'));
  });
});

describe('a group', () => {
  test('takes its id from the name when none is given', () => {
    assert.equal(idFromName('Wellcome & UKRI funders'), 'wellcome-ukri-funders');
    assert.equal(idFromName('Écoles militaires (Portugal)'), 'ecoles-militaires-portugal');
    assert.deepEqual(checkedGroup({ name: '  Military schools ', organizationIds: ['b', 'a', 'b', ' '] }), {
      id: 'military-schools',
      name: 'Military schools',
      organization_ids: ['b', 'a'],
    });
    assert.equal(checkedGroup({ id: 'rg.7', name: 'x', organizationIds: ['a'] }).id, 'rg.7');
  });

  test('refuses a bad id, a bad name, no members and too many, each with its code', () => {
    assert.throws(() => checkedGroup({ id: 'no spaces', name: 'x', organizationIds: ['a'] }), coded('GROUP_BAD_ID'));
    assert.throws(() => checkedGroup({ id: '-x', name: 'x', organizationIds: ['a'] }), coded('GROUP_BAD_ID'));
    // A name of nothing but punctuation makes no id.
    assert.throws(() => checkedGroup({ name: '***', organizationIds: ['a'] }), coded('GROUP_BAD_ID'));
    assert.throws(() => checkedGroup({ name: ' ', organizationIds: ['a'] }), coded('GROUP_BAD_NAME'));
    assert.throws(() => checkedGroup({ name: 'two\nlines', organizationIds: ['a'] }), coded('GROUP_BAD_NAME'));
    assert.throws(() => checkedGroup({ name: 'x'.repeat(201), organizationIds: ['a'] }), coded('GROUP_BAD_NAME'));
    assert.throws(() => checkedGroup({ name: 'x', organizationIds: [' '] }), coded('GROUP_NO_MEMBERS'));
    const many = Array.from({ length: MAX_GROUP_MEMBERS + 1 }, (_, i) => `grid.${i}`);
    assert.throws(() => checkedGroup({ name: 'x', organizationIds: many }), coded('GROUP_TOO_MANY_MEMBERS'));
  });

  test('names its source; another name is a coded error listing the two', () => {
    assert.equal(groupSource('research_org_groups'), 'research_org_groups');
    assert.throws(
      () => groupSource('university_groups'),
      (e) => coded('GROUP_UNKNOWN_SOURCE')(e) && /funder_groups, research_org_groups/.test((e as Error).message),
    );
  });
});
