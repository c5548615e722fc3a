/**
 * The input side of `quarry shell`, kept apart from the terminal so it can be tested:
 * collecting multi-line queries, and completing words from `describe schema`.
 */
import { KEYWORDS } from '../dsl/index.ts';
import type { DescribedSchema } from './records.ts';

/**
 * Collects lines into queries: a query ends with a line ending in `;` (dropped) or with a
 * blank line. A line starting with `.` outside a query is a console command.
 *
 * @example
 * const buffer = new QueryBuffer();
 * buffer.push('search grants');          // undefined (more to come)
 * buffer.push('return grants limit 5;'); // { kind: 'query', text: 'search grants\nreturn grants limit 5' }
 */
export class QueryBuffer {
  #lines: string[] = [];

  /** True while a query is incomplete (the prompt shows a continuation mark). */
  get pending(): boolean {
    return this.#lines.length > 0;
  }

  push(
    line: string,
  ): { kind: 'query'; text: string } | { kind: 'command'; name: string; argument: string } | undefined {
    const trimmed = line.trim();
    if (!this.pending && trimmed.startsWith('.')) {
      const [name = '', ...rest] = trimmed.slice(1).split(/\s+/);
      return { kind: 'command', name: name.toLowerCase(), argument: rest.join(' ') };
    }
    if (trimmed === '') return this.#flush();
    if (/;\s*$/.test(line)) {
      this.#lines.push(line.replace(/;\s*$/, ''));
      return this.#flush();
    }
    this.#lines.push(line);
    return undefined;
  }

  /** Drops what was collected (Ctrl-C on a half-written query). */
  clear(): void {
    this.#lines = [];
  }

  #flush(): { kind: 'query'; text: string } | undefined {
    const text = this.#lines.join('\n').trim();
    this.#lines = [];
    return text === '' ? undefined : { kind: 'query', text };
  }
}

/** The words the shell completes: keywords, sources, fields (with dotted entity sub-fields), fieldsets, indexes. */
export function completionWords(schema?: DescribedSchema): string[] {
  const words = new Set<string>(KEYWORDS.map((k) => k.toLowerCase()));
  for (const word of ['describe', 'version', 'schema', 'source', 'entity', 'unnest']) words.add(word);
  if (schema !== undefined) {
    for (const [name, source] of Object.entries(schema.sources)) {
      words.add(name);
      for (const [field, info] of Object.entries(source.fields)) {
        words.add(field);
        const entity = schema.entities[info.type];
        if (info.is_entity && entity !== undefined)
          for (const sub of Object.keys(entity.fields)) words.add(`${field}.${sub}`);
      }
      for (const fieldset of source.fieldsets ?? []) words.add(fieldset);
      for (const index of source.search_fields ?? []) words.add(index);
    }
    for (const name of Object.keys(schema.entities)) words.add(name);
  }
  return [...words].sort();
}

/**
 * node:readline's completer: the candidates for the word under the cursor (the text after
 * the last space, bracket, `+` or comma).
 *
 * @example complete('search publications where ye', words) // [['year'], 'ye']
 */
export function complete(line: string, words: readonly string[]): [string[], string] {
  const word = /[\w.]*$/.exec(line)?.[0] ?? '';
  if (line.trimStart().startsWith('.')) {
    const commands = ['.help', '.describe', '.export', '.exit'];
    const typed = line.trim();
    return [commands.filter((c) => c.startsWith(typed)), typed];
  }
  if (word === '') return [[], word];
  return [words.filter((w) => w.startsWith(word)), word];
}
