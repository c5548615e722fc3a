// The shell's input handling: multi-line queries and completion from `describe schema`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DescribedSchema } from '../../src/client/records.ts';
import { complete, completionWords, QueryBuffer } from '../../src/client/shell-input.ts';

test('a query ends with ";" or a blank line; dot commands only outside a query', () => {
  const buffer = new QueryBuffer();
  assert.equal(buffer.push('search grants'), undefined);
  assert.equal(buffer.pending, true);
  assert.equal(buffer.push('  .not a command inside a query'), undefined);
  assert.deepEqual(buffer.push('return grants limit 5;'), {
    kind: 'query',
    text: 'search grants\n  .not a command inside a query\nreturn grants limit 5',
  });
  assert.equal(buffer.pending, false);
  assert.equal(buffer.push(''), undefined);
  buffer.push('describe version');
  assert.deepEqual(buffer.push(''), { kind: 'query', text: 'describe version' });
  assert.deepEqual(buffer.push('.describe grants'), { kind: 'command', name: 'describe', argument: 'grants' });
  buffer.push('search oops');
  buffer.clear();
  assert.equal(buffer.pending, false);
});

test('completion offers keywords, sources, fields, entity sub-fields and fieldsets', () => {
  const field = (type: string, is_entity = false) => ({
    type,
    is_entity,
    is_filter: true,
    is_facet: false,
    is_multivalue: false,
  });
  const schema: DescribedSchema = {
    sources: {
      publications: {
        fields: { year: field('integer'), journal: field('journals', true) },
        fieldsets: ['basics'],
        search_fields: ['title_only'],
      },
    },
    entities: { journals: { fields: { id: field('string'), title: field('string') } } },
  };
  const words = completionWords(schema);
  assert.deepEqual(complete('search pub', words), [['publications'], 'pub']);
  assert.deepEqual(complete('search publications where ye', words), [['year'], 'ye']);
  assert.deepEqual(complete('search publications where journal.t', words), [['journal.title'], 'journal.t']);
  assert.deepEqual(complete('search publications return publications[ba', words), [['basics'], 'ba']);
  assert.deepEqual(complete('search publications in title_', words), [['title_only'], 'title_']);
  assert.deepEqual(complete('search publications whe', words)[0], ['where']);
  assert.deepEqual(complete('.de', words), [['.describe'], '.de']);
  assert.ok(completionWords().includes('return'));
});
