/**
 * The field list of an entity facet (`return research_orgs[name]`,
 * `return researchers[basics + current_research_org]`): which fields of the entity each row
 * shows besides `id` and `count`. An entity that is itself a source (organizations,
 * researchers) takes that source's fields and fieldsets, as `search <source> return
 * <source>[...]` would; another entity (categories, countries, ...) takes its sub-fields.
 * Shared by the `return-target` rule (which reports what does not resolve) and the lowering.
 */
import type { FieldSpec, Span } from '../dsl/ast.ts';
import { expandFieldList } from './expand-fields.ts';
import { resolveFieldset, returnableNames } from './resolve.ts';
import type { EntityFieldDescriptor, FieldDescriptor, Schema, SourceDescriptor } from './types.ts';

export type FacetFieldList =
  /** The entity is a source: its records' fields, in order (fieldsets expanded, exclusions applied). */
  | { readonly kind: 'source'; readonly source: SourceDescriptor; readonly fields: readonly FieldDescriptor[] }
  /** Another entity: its sub-fields, in order. */
  | { readonly kind: 'entity'; readonly fields: readonly EntityFieldDescriptor[] }
  /** A name that is no field of the entity (or an `unnest`/dotted path, which facet rows cannot hold). */
  | {
      readonly kind: 'unknown';
      readonly name: string;
      readonly span: Span;
      readonly candidates: readonly string[];
      /** True for `unnest(...)` and dotted paths, which a facet row (one per entity) cannot hold. */
      readonly shape: boolean;
    };

/** The entity's source, when the entity is one of the sources (organizations, researchers). */
export function entitySource(schema: Schema, field: FieldDescriptor): SourceDescriptor | undefined {
  return field.entity === undefined ? undefined : [...schema.sources.values()].find((s) => s.name === field.entity);
}

/**
 * @example facetFieldList(schema, researchersField, parse('[basics + current_research_org]'))
 * // { kind: 'source', source: <researchers>, fields: [id, first_name, last_name, research_orgs, current_research_org] }
 */
export function facetFieldList(schema: Schema, field: FieldDescriptor, specs: readonly FieldSpec[]): FacetFieldList {
  const source = entitySource(schema, field);
  if (source !== undefined) {
    const candidates = returnableNames(source);
    for (const spec of specs) {
      const name = spec.path.path;
      const named = schema.fieldsBySource.get(source.name)?.get(name);
      const known =
        spec.kind !== 'Unnest' &&
        spec.path.segments.length === 1 &&
        ((named !== undefined && named.deprecated === undefined) ||
          resolveFieldset(schema, source, name)?.kind === 'fieldset');
      if (!known) return { kind: 'unknown', name, span: spec.path.span, candidates, shape: shapeOf(spec) };
    }
    const expanded = expandFieldList(schema, source, specs) ?? [];
    return { kind: 'source', source, fields: expanded.map((f) => f.field) };
  }
  const entity = field.entity === undefined ? undefined : schema.entities.get(field.entity);
  const subfields = entity === undefined ? undefined : schema.entityFields.get(entity.name);
  const candidates = [...(subfields?.keys() ?? []), 'basics'];
  const out: EntityFieldDescriptor[] = [];
  for (const spec of specs) {
    const name = spec.path.path;
    const named =
      spec.kind === 'Unnest' || spec.path.segments.length !== 1 || subfields === undefined
        ? undefined
        : name === 'basics'
          ? [...subfields.values()]
          : [subfields.get(name)].filter((f): f is EntityFieldDescriptor => f !== undefined);
    if (named === undefined || named.length === 0)
      return { kind: 'unknown', name, span: spec.path.span, candidates, shape: shapeOf(spec) };
    for (const f of named) {
      const at = out.indexOf(f);
      if (spec.kind === 'FieldRef' && spec.exclude) {
        if (at >= 0) out.splice(at, 1);
      } else if (at < 0) out.push(f);
    }
  }
  return { kind: 'entity', fields: out };
}

function shapeOf(spec: FieldSpec): boolean {
  return spec.kind === 'Unnest' || spec.path.segments.length !== 1;
}
