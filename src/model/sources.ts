/**
 * The registry of sources: every source Quarry holds, each declared once in its own module
 * (`src/sources/<name>/model.ts`, see `model/source-module.ts`). Everything that lists the
 * sources derives from `SOURCE_MODULES`: their names, the schema's field tables, the
 * storage layout (`storage.ts`), the record kinds an import writes and their order, the
 * client's record types, the names of the import formats. Adding a source is a module and a
 * line here (and, for a source with a generator or import formats, a line in
 * `src/data/sources.ts`).
 */
import { clinicalTrials } from '../sources/clinical_trials/model.ts';
import { datasets } from '../sources/datasets/model.ts';
import { funderGroups } from '../sources/funder_groups/model.ts';
import { grants } from '../sources/grants/model.ts';
import { organizations } from '../sources/organizations/model.ts';
import { patents } from '../sources/patents/model.ts';
import { policyDocuments } from '../sources/policy_documents/model.ts';
import { publications } from '../sources/publications/model.ts';
import { reports } from '../sources/reports/model.ts';
import { researchOrgGroups } from '../sources/research_org_groups/model.ts';
import { researchers } from '../sources/researchers/model.ts';
import { sourceTitles } from '../sources/source_titles/model.ts';
import type { SourceTable } from './field-table.ts';
import type { SourceDeclaration } from './source-module.ts';

/** Every source, in the order `describe schema` lists them. */
export const SOURCE_MODULES = [
  publications,
  grants,
  researchers,
  organizations,
  patents,
  datasets,
  clinicalTrials,
  policyDocuments,
  reports,
  sourceTitles,
  funderGroups,
  researchOrgGroups,
] as const;

/** A source's declaration, as the registry holds it. */
export type SourceModule = (typeof SOURCE_MODULES)[number];

/** The sources Quarry holds. */
export type SourceName = SourceModule['name'];
export const SOURCE_NAMES: readonly SourceName[] = SOURCE_MODULES.map((m) => m.name);

/** The `--format` names of the outside formats a source is imported from (`importFormats`). */
export type ImportFormatOf<S extends SourceModule> = S extends { readonly importFormats?: infer F }
  ? keyof NonNullable<F> & string
  : never;

/** The `--format` names of every source's outside formats. */
export type SourceFormatName = ImportFormatOf<SourceModule>;

/**
 * Every source's outside formats, in registry order and each source's own: the order detection
 * asks them in. Names and summaries only (the command line lists them); how they are
 * recognised and read is the data layer's (`src/data/sources.ts`).
 */
export const SOURCE_FORMAT_NAMES: readonly {
  readonly kind: SourceName;
  readonly name: SourceFormatName;
  readonly summary: string;
}[] = SOURCE_MODULES.flatMap((source) =>
  Object.entries<string>((source as SourceDeclaration).importFormats ?? {}).map(([name, summary]) => ({
    kind: source.name,
    name: name as SourceFormatName,
    summary,
  })),
);
{
  const seen = new Set<string>();
  for (const { kind, name } of SOURCE_FORMAT_NAMES) {
    if (seen.has(name)) throw new Error(`source ${kind}: import format ${name} is declared by another source too`);
    seen.add(name);
  }
}

/** The declarations, as their general type. */
export const DECLARED_SOURCES: readonly SourceDeclaration[] = SOURCE_MODULES;

const BY_NAME: ReadonlyMap<string, SourceDeclaration> = new Map(
  DECLARED_SOURCES.map((source) => [source.name, source]),
);

/** The declaration of a source by name; undefined for a record kind that is no source. */
export function declaredSource(kind: string): SourceDeclaration | undefined {
  return BY_NAME.get(kind);
}

/** A value for each source, by name. */
function bySource<T>(value: (source: SourceModule) => T): Readonly<Record<SourceName, T>> {
  return Object.fromEntries(SOURCE_MODULES.map((source) => [source.name, value(source)])) as Record<SourceName, T>;
}

/** The field table of every source (spec/data-model.md). */
export const SOURCE_FIELD_TABLES = bySource((source): SourceTable => source.fieldTable);

/**
 * The `long_description` of fields whose values are structured (spec/schema-2026.md §6.4):
 * the shape of each returned object, as `describe schema` gives it. Every other field's
 * `long_description` is null, as in the hosted service's answer for most fields.
 */
export const LONG_DESCRIPTIONS = bySource((source): Readonly<Record<string, string>> => source.longDescriptions ?? {});

/**
 * Record kinds that are no source: lists an import writes (`storage.ts` declares their
 * tables): the categories, and the journal metrics a user supplies (`title_metrics`:
 * `finish()` gives each source title the latest values of its ISSNs).
 */
export const RECORD_ONLY_KINDS = ['categories', 'title_metrics'] as const;

/** The record kinds, one JSONL shard family each (same names as the store's tables). */
export type NativeKind = SourceName | (typeof RECORD_ONLY_KINDS)[number];

/** The sources, then the record-only kinds: every kind with a table of its own. */
export const RECORD_KINDS: readonly NativeKind[] = [...SOURCE_NAMES, ...RECORD_ONLY_KINDS];

/**
 * Every kind in the order an import writes them: entities before the records naming them
 * (`SourceDeclaration.refersTo`, depth first in the order each declares them), so
 * categories, organizations, source titles, researchers, grants, publications.
 */
export const NATIVE_KINDS: readonly NativeKind[] = (() => {
  const order: NativeKind[] = [];
  const refersTo = (kind: NativeKind): readonly string[] => SOURCE_MODULES.find((m) => m.name === kind)?.refersTo ?? [];
  const visit = (kind: NativeKind, path: readonly NativeKind[]): void => {
    if (order.includes(kind)) return;
    if (path.includes(kind))
      throw new Error(`record kinds refer to each other in a cycle: ${[...path, kind].join(' → ')}`);
    for (const named of refersTo(kind)) {
      const known = RECORD_KINDS.find((k) => k === named);
      if (known === undefined) throw new Error(`source ${kind} refers to ${named}, which is no record kind`);
      visit(known, [...path, kind]);
    }
    order.push(kind);
  };
  for (const kind of RECORD_KINDS) visit(kind, []);
  return order;
})();
