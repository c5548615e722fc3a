/**
 * `identify experts from concepts "..." [using publications|grants] [where ...] return
 * experts[...] [limit N [skip M]] [annotate coauthorship, organizational overlap with [...]]`:
 * the researchers whose documents match the concepts, ranked by `score`, the sum of the
 * relevance of their matching documents (`docs_found` is how many there are), best first,
 * ties by more documents, then by id.
 *
 * Everything is read through DSL queries (`FunctionContext.query`), so both engines answer
 * it unchanged: the matching documents page by page in relevance order with their
 * researchers and score, then the researchers' records with the fields asked for, then for
 * the annotations the given researchers' organizations and the publications they share.
 */
import type { ValidatedIdentifyExperts } from '../schema/validated.ts';
import { VERSION_INFO } from '../schema/index.ts';
import type { SourceName } from '../model/sources.ts';
import type { FunctionContext, PreparedFunction, QueryResult, StatementFunction } from './types.ts';

/** The most matching documents read (relevance order); a warning says when more matched. */
export const MAX_EXPERT_DOCUMENTS = 10_000;
const PAGE = 1000;

export const EXPERTS_COPYRIGHT =
  'Records from the open data sets this deployment imported; each keeps the licence of its source.';

interface Candidate {
  readonly id: string;
  docsFound: number;
  score: number;
}

type Row = Readonly<Record<string, unknown>>;

/**
 * The registry entry: `identify experts ...` is its own statement, checked by
 * schema/identify-experts.ts, whose ValidatedStatement names this function with the
 * checked statement as its arguments. Called as `identify_experts(...)` it is refused.
 */
export const identifyExpertsFunction: StatementFunction<ValidatedIdentifyExperts> = {
  name: 'identify_experts',
  description:
    'identify experts from concepts "..." [using publications|grants] [where ...] return experts[...]: researchers ranked by the summed relevance of their documents matching the concepts, with docs_found and score (docs/functions.md).',
  parameters: [],
  reads: ['publications', 'grants', 'researchers'],
  check(call, fail) {
    return fail('it is a statement, not a call: identify experts from concepts "..." return experts', call.span);
  },
  run: (args, context) => identifyExperts(args, context),
};

/** The prepared statement the engine runs (reads the documents' source and researchers). */
export function prepareIdentifyExperts(checked: ValidatedIdentifyExperts): PreparedFunction {
  return {
    name: 'identify_experts',
    reads: [
      ...new Set<SourceName>([
        checked.using,
        'researchers',
        ...(checked.annotate?.coauthorship === true ? (['publications'] as const) : []),
      ]),
    ],
    run: (context) => identifyExperts(checked, context),
  };
}

export async function identifyExperts(
  checked: ValidatedIdentifyExperts,
  context: FunctionContext,
): Promise<QueryResult> {
  const candidates = new Map<string, Candidate>();
  const warnings: string[] = [];
  for (let skip = 0; skip < MAX_EXPERT_DOCUMENTS; skip += PAGE) {
    context.signal?.throwIfAborted();
    const page = await context.query(
      `${checked.documents} return ${checked.using}[id + score + researchers] limit ${PAGE} skip ${skip}`,
    );
    const docs = rows(page[checked.using]);
    for (const doc of docs) {
      const score = typeof doc.score === 'number' ? doc.score : 0;
      const seen = new Set<string>();
      for (const id of ids(doc.researchers)) {
        if (seen.has(id)) continue;
        seen.add(id);
        let c = candidates.get(id);
        if (c === undefined) {
          c = { id, docsFound: 0, score: 0 };
          candidates.set(id, c);
        }
        c.docsFound += 1;
        c.score += score;
      }
    }
    const total = totalCount(page);
    if (docs.length < PAGE || skip + PAGE >= total) break;
    if (skip + PAGE >= MAX_EXPERT_DOCUMENTS) {
      warnings.push(
        `${total} documents match; experts are ranked from the ${MAX_EXPERT_DOCUMENTS} most relevant. Narrow the concepts or add a where filter.`,
      );
    }
  }
  const ranked = [...candidates.values()].sort(
    (a, b) => b.score - a.score || b.docsFound - a.docsFound || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const chosen = ranked.slice(checked.skip, checked.skip + checked.limit);
  const records = await researcherRecords(
    context,
    chosen.map((c) => c.id),
    checked.fields,
  );
  const annotations = checked.annotate === undefined ? undefined : await annotate(checked, context, chosen);
  const experts = chosen.map((c) => {
    const record = records.get(c.id) ?? { id: c.id };
    return {
      ...record,
      ...(checked.docsFound ? { docs_found: c.docsFound } : {}),
      ...(checked.score ? { score: c.score } : {}),
      ...(annotations === undefined ? {} : { annotations: annotations.get(c.id) ?? {} }),
    };
  });
  return {
    experts,
    _stats: { total_count: ranked.length },
    ...(warnings.length > 0 ? { _warnings: warnings } : {}),
    _copyright: EXPERTS_COPYRIGHT,
    _version: { ...VERSION_INFO[checked.dslVersion] },
  };
}

/** The researchers' records with the fields asked for, by id. */
async function researcherRecords(
  context: FunctionContext,
  researcherIds: readonly string[],
  fields: string,
): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  if (researcherIds.length === 0) return out;
  const result = await context.query(
    `search researchers where id in ${list(researcherIds)} return researchers[${fields}] limit ${PAGE}`,
  );
  for (const row of rows(result.researchers)) {
    if (typeof row.id === 'string') out.set(row.id, row);
  }
  return out;
}

/**
 * Per expert: `coauthorship`, the number of publications the expert shares with the given
 * researchers (`ur.` ids); `organizational`, whether the expert's organizations include one
 * of the given organizations or one of the given researchers' organizations.
 */
async function annotate(
  checked: ValidatedIdentifyExperts,
  context: FunctionContext,
  chosen: readonly Candidate[],
): Promise<Map<string, Record<string, unknown>>> {
  const annotateWith = checked.annotate;
  const out = new Map<string, Record<string, unknown>>();
  if (annotateWith === undefined || chosen.length === 0) return out;
  const expertIds = chosen.map((c) => c.id);
  const people = annotateWith.ids.filter((id) => id.startsWith('ur.'));
  const orgs = new Set(annotateWith.ids.filter((id) => !id.startsWith('ur.')));
  const coauthored = new Map<string, number>();
  if (annotateWith.coauthorship) {
    for (const person of people) {
      const result = await context.query(
        `search publications where researchers = ${quote(person)} and researchers in ${list(expertIds)} return researchers limit ${PAGE}`,
      );
      for (const row of rows(result.researchers)) {
        if (typeof row.id !== 'string' || row.id === person || typeof row.count !== 'number') continue;
        coauthored.set(row.id, (coauthored.get(row.id) ?? 0) + row.count);
      }
    }
  }
  const orgsOf = new Map<string, Set<string>>();
  if (annotateWith.organizational) {
    const result = await context.query(
      `search researchers where id in ${list([...new Set([...expertIds, ...people])])} return researchers[id + research_orgs] limit ${PAGE}`,
    );
    for (const row of rows(result.researchers)) {
      if (typeof row.id === 'string') orgsOf.set(row.id, new Set(ids(row.research_orgs)));
    }
    for (const person of people) for (const org of orgsOf.get(person) ?? []) orgs.add(org);
  }
  for (const id of expertIds) {
    const entry: Record<string, unknown> = {};
    if (annotateWith.coauthorship) entry.coauthorship = coauthored.get(id) ?? 0;
    if (annotateWith.organizational) entry.organizational = [...(orgsOf.get(id) ?? [])].some((o) => orgs.has(o));
    out.set(id, entry);
  }
  return out;
}

function rows(value: unknown): readonly Row[] {
  return Array.isArray(value) ? (value as Row[]).filter((r) => typeof r === 'object' && r !== null) : [];
}

/** Ids of a list of entities, given as ids or as objects with an `id`. */
function ids(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value as unknown[]) {
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'object' && item !== null && typeof (item as Row).id === 'string') {
      out.push((item as Row).id as string);
    }
  }
  return out;
}

function totalCount(result: QueryResult): number {
  const stats = result._stats as Row | undefined;
  return typeof stats?.total_count === 'number' ? stats.total_count : 0;
}

function quote(value: string): string {
  return JSON.stringify(value);
}

function list(values: readonly string[]): string {
  return `[${values.map(quote).join(', ')}]`;
}
