/**
 * Quarry's own JSONL (what `quarry generate` writes): one native record per line, the kind
 * given by the shard's name (`publications-0000.jsonl`, ...).
 */
import { basename } from 'node:path';
import { NATIVE_KINDS, type NativeKind, type NativeRecord } from '../../../model/native-records.ts';
import { SOURCE_MODULES, type SourceName } from '../../../model/sources.ts';
import { MalformedRecord, parseObject, type Mapped } from './common.ts';
import type { FormatReader } from './reader.ts';

/** The kind a native shard holds, from its file name; undefined when the name says nothing. */
export function kindOfShard(path: string): NativeKind | undefined {
  const name = basename(path).toLowerCase();
  // Shards written before source titles were a source name them `journals-NNNN.jsonl`: the
  // same records (id, title, publisher, issn), read as source titles.
  if (name.startsWith('journals')) return 'source_titles';
  return NATIVE_KINDS.find((k) => name.startsWith(k));
}

/**
 * Required fields (with their JSON type) per kind: enough for the store to place the record.
 * A source declares its own (`SourceDeclaration.requiredFields`).
 */
const REQUIRED: Readonly<Record<NativeKind, readonly (readonly [string, string])[]>> = {
  ...(Object.fromEntries(SOURCE_MODULES.map((source) => [source.name, source.requiredFields ?? []])) as Record<
    SourceName,
    readonly (readonly [string, string])[]
  >),
  categories: [['name', 'string']],
  title_metrics: [['issn', 'string']],
};

export class NativeReader implements FormatReader {
  readonly container = 'jsonl' as const;
  readonly pure = true;
  constructor(private readonly kind: NativeKind) {}

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    const record = parseObject(source as string);
    const id = record['id'];
    if (typeof id !== 'string' || id.length === 0) throw new MalformedRecord(`a ${this.kind} record without an id`);
    for (const [field, type] of REQUIRED[this.kind]) {
      if (typeof record[field] !== type)
        throw new MalformedRecord(`${this.kind} record ${id}: ${field} must be a ${type}`);
    }
    return [{ kind: this.kind, record: record as unknown as NativeRecord }];
  }

  end(): Mapped[] {
    return [];
  }
}
