/**
 * The research fields papers and grants belong to: FoR 2020 divisions with their share of
 * output and their typical team size (humanities ~1.3 authors, biomedicine ~6).
 */
import type { NamedRef } from '../../model/native-records.ts';
import { Weighted } from './distributions.ts';
import type { ForCode } from './reference-data.ts';

/** Share of papers and mean authors per division (codes absent here are not drawn). */
const DIVISIONS: Readonly<Record<string, readonly [share: number, authors: number]>> = {
  '30': [0.03, 4.8],
  '31': [0.08, 5.2],
  '32': [0.2, 6.4],
  '33': [0.01, 2.8],
  '34': [0.06, 5.2],
  '35': [0.02, 2.6],
  '36': [0.01, 1.4],
  '37': [0.03, 4.6],
  '38': [0.02, 2.3],
  '39': [0.02, 2.5],
  '40': [0.12, 4.2],
  '41': [0.03, 4.4],
  '42': [0.08, 5.8],
  '43': [0.01, 1.3],
  '44': [0.03, 2.5],
  '46': [0.07, 3.9],
  '47': [0.01, 1.4],
  '48': [0.01, 1.5],
  '49': [0.03, 2.4],
  '50': [0.01, 1.3],
  '51': [0.05, 5.6],
  '52': [0.03, 3.9],
};

/** Divisions whose papers carry PubMed identifiers. */
export const BIOMEDICAL = new Set(['31', '32', '42']);
/** Divisions whose preprints carry arXiv ids and which have rare very large teams. */
export const PHYSICAL = new Set(['46', '49', '51']);

function titleCase(label: string): string {
  return label
    .toLowerCase()
    .split(' ')
    .map((w, k) =>
      k > 0 && ['and', 'of', 'the', 'in', 'for'].includes(w) ? w : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join(' ');
}

export interface Division {
  readonly code: string;
  readonly ref: NamedRef;
  readonly meanAuthors: number;
  /** Groups that classify papers (the "other" groups, ending in 99, are left out). */
  readonly groups: readonly NamedRef[];
}

export interface Fields {
  readonly divisions: readonly Division[];
  /** Draws a division index by share of output. */
  readonly byShare: Weighted;
  /** Every division and group, as category records. */
  readonly categories: readonly { id: string; name: string; scheme: string }[];
}

/** A FoR code as a category record: `46 Information and Computing Sciences`, `4611 Machine learning`. */
export function forCategory(code: ForCode): { id: string; name: string; scheme: string } {
  return {
    id: code.code,
    name: `${code.code} ${code.level === 'division' ? titleCase(code.label) : code.label}`,
    scheme: 'for',
  };
}

/** The fields model from the real FoR code list. */
export function buildFields(codes: readonly ForCode[]): Fields {
  const divisions: Division[] = [];
  const categories: { id: string; name: string; scheme: string }[] = [];
  for (const c of codes) if (c.level === 'division' || c.level === 'group') categories.push(forCategory(c));
  for (const c of codes) {
    const spec = DIVISIONS[c.code];
    if (c.level !== 'division' || spec === undefined) continue;
    const groups = codes
      .filter((g) => g.level === 'group' && g.parent === c.code && !g.code.endsWith('99'))
      .map((g) => ({ id: g.code, name: `${g.code} ${g.label}` }));
    if (groups.length === 0) continue;
    divisions.push({
      code: c.code,
      ref: { id: c.code, name: `${c.code} ${titleCase(c.label)}` },
      meanAuthors: spec[1],
      groups,
    });
  }
  return { divisions, byShare: new Weighted(divisions.map((d) => DIVISIONS[d.code]?.[0] ?? 0)), categories };
}
