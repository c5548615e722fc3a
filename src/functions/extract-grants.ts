/**
 * `extract_grants(grant_number="…", fundref="…" | funder_name="…")` → `{"grant_id": "grant.…"}`
 * or `{"grant_id": null}`: the held grant a funder's grant number names (docs/functions.md).
 *
 * Numbers compare by the keys of `grant-numbers.ts` (case, spaces, dashes, dots and slashes
 * ignored; NIH numbers with or without type, activity code and support year). Every held
 * grant's `grant_number` and `project_numbers` are indexed once per data epoch (a key → grants
 * map, `FunctionContext.derived`), so a call is a map lookup. The funder, when given, must be
 * one of the grant's funders: by Crossref Funder Registry id (the `external_ids_fundref` of
 * the funder's organization record) or by name or acronym, compared without case, spacing or
 * punctuation. A funder argument given empty matches no grant, as the hosted service answers.
 * A fundref is looked up in organizations, so it needs a subscription that includes them.
 *
 * Several matches: a grant whose number matches whole (compact key) is preferred to one whose
 * NIH project matches; among those left, the latest start date, then the smallest id.
 */
import type { FunctionCall } from '../dsl/ast.ts';
import { bindArguments, stringOf } from './arguments.ts';
import { compactKey, funderNameKey, fundrefKey, grantNumberKeys } from './grant-numbers.ts';
import type { ArgumentFailure, FunctionContext, QueryResult, StatementFunction, StatementParameter } from './types.ts';

export interface ExtractGrantsArgs {
  readonly grantNumber: string;
  /** A Funder Registry number (`100000050`); '' when given but not one. */
  readonly fundref?: string;
  readonly funderName?: string;
}

/** One held grant, as the index keeps it. */
interface IndexedGrant {
  readonly id: string;
  readonly startDate: string;
  readonly funderIds: readonly string[];
  /** Funder names and acronyms, by `funderNameKey`. */
  readonly funderNames: readonly string[];
}

interface GrantIndex {
  readonly byCompact: ReadonlyMap<string, readonly IndexedGrant[]>;
  readonly byNih: ReadonlyMap<string, readonly IndexedGrant[]>;
}

const PARAMETERS: readonly StatementParameter[] = [
  {
    name: 'grant_number',
    type: 'string',
    required: true,
    description: 'the grant number as the funder or the grantee writes it',
  },
  {
    name: 'fundref',
    type: 'string',
    required: false,
    description: "the funder's Crossref Funder Registry id (100000050 or 10.13039/100000050)",
  },
  {
    name: 'funder_name',
    type: 'string',
    required: false,
    description: "the funder's name or acronym",
  },
];

const GRANT_FIELDS = [
  'grant_number',
  'project_numbers',
  'funders',
  'funder_org_name',
  'funder_org_acronym',
  'start_date',
];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  return [];
}

function indexedGrant(
  record: Readonly<Record<string, unknown>>,
): { grant: IndexedGrant; numbers: string[] } | undefined {
  const id = record['id'];
  if (typeof id !== 'string') return undefined;
  const funders = Array.isArray(record['funders']) ? (record['funders'] as unknown[]) : [];
  const funderIds: string[] = [];
  const names = new Set<string>();
  for (const funder of funders) {
    if (typeof funder === 'string') funderIds.push(funder);
    else if (typeof funder === 'object' && funder !== null) {
      const f = funder as Record<string, unknown>;
      if (typeof f['id'] === 'string') funderIds.push(f['id']);
      for (const name of [...strings(f['name']), ...strings(f['acronym'])]) names.add(funderNameKey(name));
    }
  }
  for (const name of [...strings(record['funder_org_name']), ...strings(record['funder_org_acronym'])])
    names.add(funderNameKey(name));
  names.delete('');
  const projectNumbers = Array.isArray(record['project_numbers']) ? (record['project_numbers'] as unknown[]) : [];
  const numbers = [
    ...strings(record['grant_number']),
    ...projectNumbers.flatMap((p) =>
      typeof p === 'object' && p !== null ? strings((p as Record<string, unknown>)['value']) : strings(p),
    ),
  ];
  const startDate = typeof record['start_date'] === 'string' ? record['start_date'] : '';
  return { grant: { id, startDate, funderIds, funderNames: [...names] }, numbers };
}

/** Every held grant by the keys of its numbers; built once per data epoch. */
async function buildIndex(context: FunctionContext): Promise<GrantIndex> {
  const byCompact = new Map<string, IndexedGrant[]>();
  const byNih = new Map<string, IndexedGrant[]>();
  const add = (map: Map<string, IndexedGrant[]>, key: string, grant: IndexedGrant): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [grant]);
    else if (!list.includes(grant)) list.push(grant);
  };
  for await (const batch of context.readAll('grants', GRANT_FIELDS)) {
    for (const record of batch) {
      const indexed = indexedGrant(record);
      if (indexed === undefined) continue;
      for (const number of indexed.numbers) {
        const keys = grantNumberKeys(number);
        if (keys.compact !== undefined) add(byCompact, keys.compact, indexed.grant);
        if (keys.nih !== undefined) add(byNih, keys.nih, indexed.grant);
      }
    }
  }
  return { byCompact, byNih };
}

/** The organizations whose Funder Registry ids include `fundref`. */
async function fundedBy(context: FunctionContext, fundref: string): Promise<ReadonlySet<string>> {
  const result = await context.query(
    `search organizations where external_ids_fundref = "${fundref}" return organizations[id] limit 1000`,
  );
  const orgs = (result['organizations'] ?? []) as { id?: unknown }[];
  return new Set(orgs.map((o) => o.id).filter((id): id is string => typeof id === 'string'));
}

/** Latest start first, then the smallest id. */
function byPreference(a: IndexedGrant, b: IndexedGrant): number {
  if (a.startDate !== b.startDate) return a.startDate < b.startDate ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const extractGrants: StatementFunction<ExtractGrantsArgs> = {
  name: 'extract_grants',
  description:
    'The held grant a grant number names, optionally of a given funder (by Crossref Funder Registry id or by name): {"grant_id": "grant.…"}, or {"grant_id": null} when none is held.',
  parameters: PARAMETERS,
  // A fundref is resolved through organizations (their external_ids_fundref), read under the
  // caller's subscription: a caller without organizations gives the funder by name.
  reads: ['grants'],

  check(call: FunctionCall, fail: ArgumentFailure): ExtractGrantsArgs {
    const args = bindArguments(call, PARAMETERS, fail);
    const numberValue = args.get('grant_number');
    if (numberValue === undefined) return fail('grant_number is required', call.span);
    const grantNumber = stringOf(numberValue, 'grant_number', fail);
    if (compactKey(grantNumber) === '') fail('grant_number holds no letters or digits', numberValue.span);
    const fundrefValue = args.get('fundref');
    const nameValue = args.get('funder_name');
    if (fundrefValue !== undefined && nameValue !== undefined) {
      fail('give the funder either by fundref or by funder_name, not both', nameValue.span);
    }
    let fundref: string | undefined;
    if (fundrefValue !== undefined) {
      const text = stringOf(fundrefValue, 'fundref', fail);
      fundref = text === '' ? '' : fundrefKey(text);
      if (fundref === undefined) {
        fail(
          'fundref must be a Crossref Funder Registry id such as "100000050" or "10.13039/100000050"',
          fundrefValue.span,
        );
      }
    }
    const funderName = nameValue === undefined ? undefined : stringOf(nameValue, 'funder_name', fail);
    return {
      grantNumber,
      ...(fundref === undefined ? {} : { fundref }),
      ...(funderName === undefined ? {} : { funderName }),
    };
  },

  async run(args: ExtractGrantsArgs, context: FunctionContext): Promise<QueryResult> {
    const index = await context.derived('grant-number-index', () => buildIndex(context));
    const keys = grantNumberKeys(args.grantNumber);
    let accepts: (grant: IndexedGrant) => boolean = () => true;
    if (args.fundref !== undefined) {
      const orgs = args.fundref === '' ? new Set<string>() : await fundedBy(context, args.fundref);
      accepts = (grant) => grant.funderIds.some((id) => orgs.has(id));
    } else if (args.funderName !== undefined) {
      const name = funderNameKey(args.funderName);
      accepts = (grant) => name !== '' && grant.funderNames.includes(name);
    }
    for (const found of [
      keys.compact === undefined ? undefined : index.byCompact.get(keys.compact),
      keys.nih === undefined ? undefined : index.byNih.get(keys.nih),
    ]) {
      const matches = (found ?? []).filter(accepts);
      const [best] = [...matches].sort(byPreference);
      if (best !== undefined) return { grant_id: best.id };
    }
    return { grant_id: null };
  },
};
