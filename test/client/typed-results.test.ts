// Typed results: a query text naming a source gives that source's record type (checked by
// `npm run typecheck`: the assignments below only compile when the inference works), and the
// values are the service's (through the PROTOCOL DOUBLE, protocol-double.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  connect,
  type Grant,
  type Organization,
  type Publication,
  type QuarryRecord,
  type Researcher,
} from '../../src/index.ts';
import { GOOD_KEY, startProtocolDouble, type ProtocolDouble } from './protocol-double.ts';

let double: ProtocolDouble;
before(async () => {
  double = await startProtocolDouble();
  double.records = 3;
});
after(() => double.close());

test('query, iterate and all are typed by the source the text names', async () => {
  const client = connect({ url: double.url, key: GOOD_KEY }, { family: 'auth', dslVersion: 2 });
  const result = await client.query('search publications return publications[id]');
  const first: Publication | undefined = result.publications[0];
  const id: string | null | undefined = first?.id;
  assert.equal(id, 'pub.000001');
  const year: number | null | undefined = first?.year;
  assert.equal(year, undefined);
  const all: Publication[] = await client.all('search publications return publications[id]');
  assert.equal(all.length, 3);
  // A text that does not start `search SOURCE ` on one line names its record type itself.
  for await (const record of client.iterate<Publication>('search publications\nreturn publications[id]')) {
    const typed: Publication = record;
    assert.match(typed.id ?? '', /^pub\./);
  }
  // A grant's funders are organizations; a text that is not a literal gives plain records.
  const funders: Grant['funders'] = [{ id: 'grid.1', name: 'Funder' }];
  assert.equal(funders?.[0]?.name, 'Funder');
  const text: string = 'search publications return publications[id]';
  const untyped: QuarryRecord[] = await client.all(text);
  assert.equal(untyped.length, 3);
});

test('record types are derived from the model field tables', () => {
  // Each assignment compiles only if the derived type is right; the @ts-expect-error lines
  // fail the typecheck if a wrong value were accepted.
  const publication: Publication = {
    year: 2020,
    authors: [{ first_name: 'Ana', affiliations: [] }],
    category_for: [{ id: '31', name: 'Biological sciences' }],
    journal: { id: 'jour.1', title: 'J' },
    open_access: ['oa_all'],
    concepts: ['cell'],
  };
  // @ts-expect-error year is a number
  const badYear: Publication = { year: '2020' };
  // @ts-expect-error a multi-value field is a list
  const badList: Publication = { mesh_terms: 'Humans' };
  const researcher: Researcher = { orcid_id: ['0000-0002-1825-0097'], current_research_org: { id: 'grid.1' } };
  const organization: Organization = { linkout: ['https://example.org'], latitude: 1.5 };
  // @ts-expect-error no such field
  const unknown: Organization = { title: 'x' };
  assert.equal(publication.year, 2020);
  assert.ok(badYear !== undefined && badList !== undefined && unknown !== undefined);
  assert.equal(researcher.current_research_org?.id, 'grid.1');
  assert.equal(organization.latitude, 1.5);
});
