// Typed results: a query text naming a source gives that source's record type (checked by
// `npm run typecheck`: the assignments below only compile when the inference works), and the
// values are the service's (through the PROTOCOL DOUBLE, protocol-double.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect, type Grant, type Publication, type QuarryRecord } from '../../src/index.ts';
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
