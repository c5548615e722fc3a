/**
 * Completion for the console editor, fed by the server's `describe schema` answer. What is
 * offered depends on the words before the cursor: sources after `search`, facets and the
 * source after `return`, fields and fieldsets inside `[...]`, filterable fields after
 * `where`/`and`/`or`, indicators after `aggregate` and in a facet's `sort by`, indexes after
 * `in`, entity sub-fields after `field.`. Pure functions, so they are tested without a browser.
 */
import { KEYWORDS } from '../../dsl/keywords.ts';

export interface FieldDoc {
  readonly type: string;
  readonly description?: string;
  readonly is_entity?: boolean;
  readonly is_filter?: boolean;
  readonly is_facet?: boolean;
  readonly is_multivalue?: boolean;
}

/** The parts of `describe schema` completion reads. */
export interface SchemaDoc {
  readonly sources: Readonly<
    Record<
      string,
      {
        readonly fields: Readonly<Record<string, FieldDoc>>;
        readonly fieldsets?: readonly string[];
        readonly metrics?: Readonly<Record<string, { readonly description?: string }>>;
        readonly search_fields?: readonly string[];
      }
    >
  >;
  readonly entities?: Readonly<Record<string, { readonly fields: Readonly<Record<string, FieldDoc>> }>>;
  readonly functions?: Readonly<
    Record<string, { readonly description?: string; readonly sources?: readonly string[] }>
  >;
}

export type SuggestionKind = 'keyword' | 'source' | 'field' | 'facet' | 'fieldset' | 'indicator' | 'index' | 'function';

export interface Suggestion {
  readonly label: string;
  readonly kind: SuggestionKind;
  readonly detail?: string;
}

/** The source named after `search` in the text before the cursor, if any. */
export function searchedSource(before: string): string | undefined {
  const match = /\bsearch\s+([A-Za-z_]\w*)/i.exec(before);
  return match?.[1]?.toLowerCase();
}

/** The last unclosed `[` in the text, ignoring quoted strings: inside a field list. */
function insideFieldList(before: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < before.length; i++) {
    const ch = before[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[') depth++;
    else if (ch === ']') depth = Math.max(0, depth - 1);
  }
  return depth > 0 && !/\bwhere\b[^[]*\bin\s*\[[^\]]*$/i.test(before);
}

function keywords(): Suggestion[] {
  return KEYWORDS.map((k) => ({ label: k, kind: 'keyword' as const }));
}

/**
 * What to offer at the end of `before` (the text up to the cursor, without the word being
 * typed). `before` is the whole query up to there, so the searched source is known.
 *
 * @example suggestionsAt(schema, 'search ') // the sources
 */
export function suggestionsAt(schema: SchemaDoc, before: string): Suggestion[] {
  // A value is being typed: the console offers the field's values (valueContext), never fields.
  if (valueContext(before)) return [];
  const sourceName = searchedSource(before);
  const source = sourceName === undefined ? undefined : schema.sources[sourceName];
  const trimmed = before.replace(/\s+$/, '');
  const lastWord = (/([A-Za-z_]\w*)$/.exec(trimmed)?.[1] ?? '').toLowerCase();
  const fields = source ? Object.entries(source.fields) : [];
  const fieldSuggestions = (filter: (f: FieldDoc) => boolean, kind: SuggestionKind = 'field'): Suggestion[] =>
    fields.filter(([, f]) => filter(f)).map(([name, f]) => ({ label: name, kind, detail: f.type }));
  const indicators = (): Suggestion[] =>
    Object.keys(source?.metrics ?? { count: {} }).map((name) => ({
      label: name,
      kind: 'indicator' as const,
      detail: 'indicator',
    }));

  // `field.` → the entity's sub-fields.
  const dotted = /([A-Za-z_]\w*)\.$/.exec(before);
  if (dotted && source) {
    const field = source.fields[dotted[1] ?? ''];
    const entity = field?.is_entity ? schema.entities?.[field.type] : undefined;
    return entity
      ? Object.entries(entity.fields).map(([name, f]) => ({ label: name, kind: 'field' as const, detail: f.type }))
      : [];
  }
  if (/\bsearch$/i.test(trimmed) || /\bdescribe\s+source$/i.test(trimmed)) {
    return Object.keys(schema.sources).map((name) => ({ label: name, kind: 'source' as const }));
  }
  if (/\bdescribe$/i.test(trimmed))
    return ['version', 'schema', 'source', 'entity'].map((label) => ({ label, kind: 'keyword' as const }));
  if (/\bdescribe\s+entity$/i.test(trimmed))
    return Object.keys(schema.entities ?? {}).map((label) => ({ label, kind: 'source' as const }));
  if (insideFieldList(before)) {
    return [
      ...(source?.fieldsets ?? []).map((name) => ({ label: name, kind: 'fieldset' as const, detail: 'fieldset' })),
      ...fieldSuggestions(() => true),
      { label: 'unnest', kind: 'keyword' },
    ];
  }
  if (
    /\bsearch\s+\w+\s+in$/i.test(trimmed) ||
    (lastWord === 'in' && !/\bwhere\b/i.test(trimmed) && !/\breturn\s+in$/i.test(trimmed))
  ) {
    return (source?.search_fields ?? []).map((name) => ({
      label: name,
      kind: 'index' as const,
      detail: 'full-text index',
    }));
  }
  if (lastWord === 'return') {
    const functions = Object.entries(schema.functions ?? {})
      .filter(([, fn]) => sourceName === undefined || !fn.sources || fn.sources.includes(sourceName))
      .map(([name, fn]) => ({ label: name, kind: 'function' as const, detail: fn.description ?? 'function' }));
    return [
      ...(sourceName ? [{ label: sourceName, kind: 'source' as const, detail: 'the searched source' }] : []),
      ...fieldSuggestions((f) => f.is_facet === true, 'facet'),
      ...functions,
    ];
  }
  if (
    lastWord === 'aggregate' ||
    (/\baggregate\s+[\w\s,]*,$/i.test(trimmed) && !/\b(sort|limit|return)\b[^,]*,$/i.test(trimmed))
  ) {
    return indicators().filter((s) => s.label !== 'count' || lastWord === 'aggregate');
  }
  if (/\bsort\s+by$/i.test(trimmed)) {
    // A facet result sorts by an indicator; a source result by a field.
    const returned = /\breturn\s+(?:in\s+"[^"]*"\s+)?([A-Za-z_]\w*)(?![\s\S]*\breturn\b)/i
      .exec(trimmed)?.[1]
      ?.toLowerCase();
    const isFacet = returned !== undefined && returned !== sourceName && source?.fields[returned]?.is_facet === true;
    return isFacet ? indicators() : [...fieldSuggestions(() => true), { label: 'relevance', kind: 'keyword' }];
  }
  if (/\b(where|and|or|not)$/i.test(trimmed) || /\bwhere\b[^"]*\($/i.test(trimmed)) {
    return [
      ...fieldSuggestions((f) => f.is_filter !== false),
      { label: 'count', kind: 'function', detail: 'count(field) on multi-value fields' },
    ];
  }
  if (/\bsort$/i.test(trimmed)) return [{ label: 'by', kind: 'keyword' }];
  return [...keywords(), ...fieldSuggestions(() => true)];
}

/** A comparison whose value is being typed, as `valueContext` reads it. */
export interface ValueContext {
  /** The field path before the operator (`type`, `category_for.name`). */
  readonly field: string;
  /** Whether a string's opening quote is already typed. */
  readonly quoted: boolean;
}

/**
 * The field whose value the cursor is at: after `type = `, `year >= `, `type = "ar` or inside
 * `year in [2019, `. Undefined elsewhere, so field completion applies there.
 *
 * @example valueContext('search publications where type = "ar') // { field: 'type', quoted: true }
 */
export function valueContext(before: string): ValueContext | undefined {
  if (!/\bwhere\b/i.test(before)) return undefined;
  const quoted = /"[\w .,:;'&()-]*$/.test(before) && (before.match(/"/g)?.length ?? 0) % 2 === 1;
  const head = quoted ? before.replace(/"[^"]*$/, '') : before.replace(/[\w.-]*$/, '');
  const compare = /([A-Za-z_][\w.]*)\s*(?:=|!=|>=|<=|>|<)\s*$/.exec(head);
  const list = /([A-Za-z_][\w.]*)\s+in\s*\[[^\]]*?[[,]\s*$/i.exec(head);
  const field = compare?.[1] ?? list?.[1];
  return field === undefined ? undefined : { field, quoted };
}

/**
 * Whether a field of the searched source has few enough distinct values to offer them after
 * `=`: scalar facets (`type`, `year`, `open_access`) and category entities
 * (`category_for`, `category_for.name`). Values come from a facet query, and are offered
 * only when the facet has fewer than its limit.
 */
export function valueField(schema: SchemaDoc, source: string | undefined, path: string): FieldDoc | undefined {
  const fields = source === undefined ? undefined : schema.sources[source]?.fields;
  const [head = '', sub] = path.split('.');
  const field = fields?.[head];
  if (!field?.is_facet) return undefined;
  if (field.is_entity)
    return field.type === 'categories' && (sub === undefined || sub === 'id' || sub === 'name') ? field : undefined;
  return sub === undefined && (field.type === 'string' || field.type === 'integer') ? field : undefined;
}
