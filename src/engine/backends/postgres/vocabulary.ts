/**
 * Wildcard patterns (`ital?`, `te*t`) are expanded against each source's word list
 * (`<source>_vocab`, filled by `finish()`) before the query is compiled, since the compiler
 * asks for expansions synchronously. Capped as SQLite's expansion is, with the same warning.
 */
import type pg from 'pg';
import type { SearchPlan, TextExpr } from '../../../compile/plan.ts';
import { patternGlob } from '../../../compile/postgres/tsquery.ts';
import { ident } from '../../../compile/sql.ts';
import { MAX_PATTERN_TERMS, patternCapWarning } from '../../pattern-limit.ts';

function patterns(expr: TextExpr, out: string[]): string[] {
  switch (expr.kind) {
    case 'pattern':
      out.push(expr.pattern);
      break;
    case 'all':
    case 'any':
      for (const item of expr.items) patterns(item, out);
      break;
    case 'not':
      patterns(expr.item, out);
      break;
    case 'word':
    case 'prefix':
    case 'phrase':
      break;
  }
  return out;
}

/** A GLOB over folded words as LIKE (`?` → `_`, `*` → `%`, `[[]` → `[`), specials escaped. */
export function globToLike(glob: string): string {
  let out = '';
  glob = glob.replaceAll('\0', '');
  for (let k = 0; k < glob.length; k++) {
    const c = glob[k] as string;
    if (c === '[' && glob.startsWith('[[]', k)) {
      out += '[';
      k += 2;
    } else if (c === '?') out += '_';
    else if (c === '*') out += '%';
    else if (c === '%' || c === '_' || c === '\\') out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** `vocabulary\0glob` → the most frequent matching words. */
export async function expandPatterns(
  client: pg.PoolClient,
  plan: SearchPlan,
  warnings: string[],
): Promise<Map<string, readonly string[]>> {
  const out = new Map<string, readonly string[]>();
  if (plan.fullText === undefined) return out;
  const vocabulary = `${plan.source}_vocab`;
  for (const pattern of patterns(plan.fullText.expr, [])) {
    const glob = patternGlob(pattern);
    const rows = await client.query<{ word: string }>(
      `SELECT word FROM ${ident(vocabulary)} WHERE word LIKE $1 ESCAPE '\\' ORDER BY ndoc DESC, word LIMIT $2`,
      [globToLike(glob), MAX_PATTERN_TERMS + 1],
    );
    let words = rows.rows.map((r) => r.word);
    if (words.length > MAX_PATTERN_TERMS) {
      warnings.push(patternCapWarning(glob));
      words = words.slice(0, MAX_PATTERN_TERMS);
    }
    out.set(`${vocabulary}\u0000${glob}`, words);
  }
  return out;
}
