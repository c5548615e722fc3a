import type { FieldSpec } from '../dsl/ast.ts';
import { resolveFieldset } from './resolve.ts';
import type { FieldDescriptor, Schema, SourceDescriptor } from './types.ts';
import type { ReturnedField } from './validated.ts';

/** The descriptors of these names, or undefined when one is not a field. */
function byNames(
  fields: ReadonlyMap<string, FieldDescriptor>,
  names: readonly string[],
): FieldDescriptor[] | undefined {
  const out: FieldDescriptor[] = [];
  for (const name of names) {
    const field = fields.get(name);
    if (field === undefined) return undefined;
    out.push(field);
  }
  return out;
}

/**
 * Expands a records field list into the ordered fields to return. Without a list, the
 * `basics` fieldset. Items apply left to right: a field or fieldset adds what is not there
 * yet, `- name` removes, `unnest(f)` adds `f` (or marks it) as unnested. A list that starts
 * with an exclusion starts from `basics` (`[-doi]` is `[basics - doi]`).
 *
 * Returns undefined when a name does not resolve to a whole field or fieldset (the rules
 * report why).
 *
 * @example expandFieldList(schema, publications, parse('... [basics - doi + times_cited]'))
 * // id, title, type, year, date, journal, volume, issue, pages, authors, times_cited
 */
export function expandFieldList(
  schema: Schema,
  source: SourceDescriptor,
  specs: readonly FieldSpec[] | undefined,
): ReturnedField[] | undefined {
  const fields = schema.fieldsBySource.get(source.name);
  if (fields === undefined) return undefined;
  const basics = byNames(fields, schema.fieldsetsBySource.get(source.name)?.get('basics')?.fields ?? []) ?? [];
  if (specs === undefined || specs.length === 0) return basics.map((field) => Object.freeze({ field, unnest: false }));

  const first = specs[0];
  // Plain arrays and index loops: this runs for every records return of every query.
  const list: FieldDescriptor[] = first?.kind === 'FieldRef' && first.exclude ? basics.slice() : [];
  const unnested: boolean[] = list.map(() => false);
  for (const spec of specs) {
    if (spec.path.segments.length !== 1) return undefined;
    const name = spec.path.path;
    if (spec.kind === 'Unnest') {
      const field = fields.get(name);
      if (field === undefined) return undefined;
      const index = list.indexOf(field);
      if (index < 0) {
        list.push(field);
        unnested.push(true);
      } else {
        unnested[index] = true;
      }
      continue;
    }
    const fieldset = resolveFieldset(schema, source, name);
    if (fieldset?.kind === 'removed-fieldset') return undefined;
    const named = fieldset === undefined ? byNames(fields, [name]) : byNames(fields, fieldset.fieldset.fields);
    if (named === undefined) return undefined;
    for (const field of named) {
      const index = list.indexOf(field);
      if (spec.exclude) {
        if (index >= 0) {
          list.splice(index, 1);
          unnested.splice(index, 1);
        }
      } else if (index < 0) {
        list.push(field);
        unnested.push(false);
      }
    }
  }
  const out: ReturnedField[] = [];
  for (let i = 0; i < list.length; i++)
    out.push(Object.freeze({ field: list[i] as FieldDescriptor, unnest: unnested[i] === true }));
  return out;
}
