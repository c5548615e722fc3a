/**
 * Inputs read together: a source format whose records are joined across files (PatentsView:
 * a patent's rows are spread over a dozen tables, each its own file) is read as one input
 * holding all its files of the import (`parts`), at the place of the first. That one input is
 * what the journal checkpoints and `--resume` compares, and its reader sees every table.
 * Each part keeps its own name for the problems found in it.
 */
import type { ImportFormat } from './format-names.ts';
import type { ImportInput } from './inputs.ts';
import { SOURCE_IMPORT_FORMATS } from './source-formats.ts';

const TOGETHER: ReadonlySet<ImportFormat> = new Set(SOURCE_IMPORT_FORMATS.filter((f) => f.together).map((f) => f.name));

/**
 * The name of inputs read together: their folder once and their names in braces, as a shell
 * writes them (`/data/pv/{g_patent.tsv,g_cpc_current.tsv.zip!g_cpc_current.tsv}`), or, in no
 * one folder, their names joined with ` + `.
 */
export function togetherName(parts: readonly ImportInput[]): string {
  const names = parts.map((p) => p.name);
  if (names.length === 1) return names[0] as string;
  // The longest run of folders every name starts with.
  const folders = (names[0] as string).split('/').slice(0, -1);
  let shared = folders.length;
  for (const name of names) {
    const own = name.split('/').slice(0, -1);
    let k = 0;
    while (k < shared && own[k] === folders[k]) k++;
    shared = k;
  }
  if (shared === 0) return names.join(' + ');
  const prefix = `${folders.slice(0, shared).join('/')}/`;
  return `${prefix}{${names.map((n) => n.slice(prefix.length)).join(',')}}`;
}

/**
 * The inputs in import order with the inputs of each format read together merged into one
 * (`togetherName`), and the formats of the result. Inputs of no format (refused before the
 * run) stay as they are.
 */
export function readTogether(
  inputs: readonly ImportInput[],
  formats: ReadonlyMap<ImportInput, ImportFormat>,
): { inputs: ImportInput[]; formats: Map<ImportInput, ImportFormat> } {
  const parts = new Map<ImportFormat, ImportInput[]>();
  for (const input of inputs) {
    const format = formats.get(input);
    if (format !== undefined && TOGETHER.has(format)) parts.set(format, [...(parts.get(format) ?? []), input]);
  }
  const out: ImportInput[] = [];
  const outFormats = new Map<ImportInput, ImportFormat>();
  for (const input of inputs) {
    const format = formats.get(input);
    const group = format === undefined ? undefined : parts.get(format);
    if (format === undefined || group === undefined) {
      out.push(input);
      if (format !== undefined) outFormats.set(input, format);
      continue;
    }
    if (group[0] !== input) continue;
    const first = group[0];
    const merged: ImportInput = {
      name: togetherName(group),
      file: first.file,
      size: group.reduce((sum, p) => sum + p.size, 0),
      parts: group,
    };
    out.push(merged);
    outFormats.set(merged, format);
  }
  return { inputs: out, formats: outFormats };
}
