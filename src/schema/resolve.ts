/**
 * Name resolution against the schema, shared by the rules (which report what does not
 * resolve) and by the lowering to the validated query (which runs only once everything
 * resolved).
 */
import type {
  EntityDescriptor,
  EntityFieldDescriptor,
  FieldDescriptor,
  FieldsetDescriptor,
  Schema,
  SourceDescriptor,
} from './types.ts';

export type PathResolution =
  | { readonly kind: 'field'; readonly field: FieldDescriptor; readonly subfield?: EntityFieldDescriptor }
  /** Version 2 only: a version-1 field that was removed. */
  | { readonly kind: 'removed'; readonly name: string; readonly replacement: string }
  | { readonly kind: 'unknown'; readonly name: string }
  | {
      readonly kind: 'unknown-subfield';
      readonly field: FieldDescriptor;
      readonly entity: EntityDescriptor;
      readonly name: string;
    }
  | { readonly kind: 'not-entity'; readonly field: FieldDescriptor };

/**
 * Resolves a dotted path (`research_orgs.name`, `year`) on a source.
 *
 * @example resolvePath(schemaFor(2), publications, ['journal', 'title'])
 * // { kind: 'field', field: <journal>, subfield: <journals.title> }
 */
export function resolvePath(schema: Schema, source: SourceDescriptor, segments: readonly string[]): PathResolution {
  const [head = '', ...rest] = segments;
  const field = schema.fieldsBySource.get(source.name)?.get(head);
  if (field === undefined) {
    const removed = removedField(schema, source, head);
    return removed === undefined
      ? { kind: 'unknown', name: head }
      : { kind: 'removed', name: head, replacement: removed.replacement };
  }
  if (rest.length === 0) return { kind: 'field', field };
  if (field.entity === undefined) return { kind: 'not-entity', field };
  const entity = schema.entities.get(field.entity);
  if (entity === undefined)
    throw new Error(`entity ${field.entity} of ${source.name}.${field.name} is not in the schema`);
  const subName = rest.length === 1 ? (rest[0] ?? '') : rest.join('.');
  const subfield = rest.length === 1 ? schema.entityFields.get(entity.name)?.get(subName) : undefined;
  return subfield === undefined
    ? { kind: 'unknown-subfield', field, entity, name: subName }
    : { kind: 'field', field, subfield };
}

/** The version-1 deprecation of a name version 2 does not know, if it was removed. */
export function removedField(
  schema: Schema,
  source: SourceDescriptor,
  name: string,
): { replacement: string } | undefined {
  const removed = schema.removedBySource.get(source.name)?.get(name);
  return removed?.kind === 'field' ? removed : undefined;
}

export type FieldsetResolution =
  | { readonly kind: 'fieldset'; readonly fieldset: FieldsetDescriptor }
  | { readonly kind: 'removed-fieldset'; readonly name: string; readonly replacement: string };

/** A fieldset of the source, `removed-fieldset` for `all` under version 2, undefined when the name is no fieldset. */
export function resolveFieldset(
  schema: Schema,
  source: SourceDescriptor,
  name: string,
): FieldsetResolution | undefined {
  const fieldset = schema.fieldsetsBySource.get(source.name)?.get(name);
  if (fieldset !== undefined) return { kind: 'fieldset', fieldset };
  const removed = schema.removedBySource.get(source.name)?.get(name);
  return removed?.kind === 'fieldset'
    ? { kind: 'removed-fieldset', name, replacement: removed.replacement }
    : undefined;
}

/** Names a field list may use on this source: fields (not removed ones) and fieldsets. */
export function returnableNames(source: SourceDescriptor): string[] {
  return [
    ...source.fields.filter((f) => f.deprecated === undefined).map((f) => f.name),
    ...source.fieldsets.map((fs) => fs.name),
  ];
}

/** Current (non-deprecated) field names, for suggestions. */
export function fieldNames(source: SourceDescriptor): string[] {
  return source.fields.filter((f) => f.deprecated === undefined).map((f) => f.name);
}
