/**
 * OpenAlex's merged ids (`merged_ids/works/<date>.csv.gz`: `merge_date, id, merge_into_id`):
 * a work merged into another is removed (its replacement is a record of its own, imported
 * from the partitions); so are merged authors (`merged_ids/authors/`), sources and
 * institutions or funders without a ROR id. Quarry keys OpenAlex records by their short id
 * (`W123`, `A123`, `S123`).
 */
import type { NativeKind } from '../../../model/native-records.ts';
import { MalformedRecord, MissingColumn, openAlexId, type Mapped } from './common.ts';
import type { FormatReader } from './reader.ts';

/** The kind each merged-ids folder removes from (`merged_ids/<entity>/`). */
const MERGED_KINDS: Readonly<Record<string, NativeKind>> = {
  works: 'publications',
  authors: 'researchers',
  sources: 'source_titles',
  // Institutions and funders are kept under their ROR id, which an OpenAlex merge does not
  // change; only those OpenAlex knew no ROR id for are keyed (and removed) by the OpenAlex id.
  institutions: 'organizations',
  funders: 'organizations',
};

/** The kind an OpenAlex merged-ids file removes, from its folder (`merged_ids/works/`). */
export function mergedKind(path: string): NativeKind | undefined {
  const entity = /merged_ids[\\/](\w+)[\\/]/.exec(path)?.[1];
  return entity === undefined ? 'publications' : MERGED_KINDS[entity];
}

export class OpenAlexMergedIdsReader implements FormatReader {
  readonly container = 'csv' as const;

  constructor(private readonly kind: NativeKind | undefined) {}

  header(columns: readonly string[]): void {
    for (const c of ['id', 'merge_into_id'])
      if (!columns.includes(c)) throw new MissingColumn('OpenAlex merged ids', c);
  }

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    if (typeof source === 'string') throw new MalformedRecord('not a CSV row');
    const id = openAlexId(source['id']);
    if (id === undefined) throw new MalformedRecord('a merged-id row without an id');
    // Entities Quarry keys otherwise (institutions by ROR id) have nothing to remove.
    return this.kind === undefined ? [] : [{ kind: this.kind, remove: id }];
  }

  end(): Mapped[] {
    return [];
  }
}
