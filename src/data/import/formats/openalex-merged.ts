/**
 * OpenAlex's merged ids (`merged_ids/works/<date>.csv.gz`: `merge_date, id, merge_into_id`):
 * a work merged into another is removed (its replacement is a record of its own, imported
 * from the partitions). Quarry keys OpenAlex works by their short id (`W123`).
 */
import type { NativeKind } from '../../../model/native-records.ts';
import { MalformedRecord, MissingColumn, openAlexId, type Mapped } from './common.ts';
import type { FormatReader } from './reader.ts';

/** The kind an OpenAlex merged-ids file removes, from its folder (`merged_ids/works/`). */
export function mergedKind(path: string): NativeKind | undefined {
  const entity = /merged_ids[\\/](\w+)[\\/]/.exec(path)?.[1];
  return entity === 'works' || entity === undefined ? 'publications' : entity === 'authors' ? 'researchers' : undefined;
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
