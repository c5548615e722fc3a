/**
 * `extract_affiliations(affiliation="…")`, `(name=…, city=…, state=…, country=…)` and the
 * batch `json=[{"affiliation": "…"} | {"name": …, "city": …}, …]` (up to 200 a call): the
 * organizations each affiliation names, from the organizations the deployment holds, in the
 * hosted answer's shape `{"results": [{"input": …, "matches": [{"institutes":
 * [{"institute": {id, name, city, state, country}, "score": …}]}]}]}`.
 */
import type { ArgumentValue, FunctionCall } from '../dsl/ast.ts';
import type { Span } from '../errors/index.ts';
import { jsonOf } from './arguments.ts';
import { buildAffiliationIndex, type AffiliationIndex } from '../analytics/affiliations/index.ts';
import { matchAffiliation, matchStructured } from '../analytics/affiliations/match.ts';
import type { AffiliationMatch, MatchableOrganization } from '../analytics/affiliations/organization.ts';
import { fromOrganizationRecord, ORGANIZATION_FIELDS } from '../analytics/affiliations/records.ts';
import type { ArgumentFailure, FunctionContext, JsonValue, QueryResult, StatementFunction } from './types.ts';

/** The most affiliations one call may carry. */
export const MAX_AFFILIATIONS = 200;

const STRUCTURED = ['name', 'city', 'state', 'country'] as const;

/** One affiliation to match: free text, or a name with its place. */
export type AffiliationInput =
  | { readonly affiliation: string }
  | { readonly name?: string; readonly city?: string; readonly state?: string; readonly country?: string };

export interface ExtractAffiliationsArgs {
  readonly inputs: readonly AffiliationInput[];
}

/** The `json=` argument as JSON data: a JSON literal, or a string holding JSON. */
function jsonArgument(value: ArgumentValue, fail: ArgumentFailure): JsonValue {
  if (value.kind !== 'String') return jsonOf(value);
  try {
    return JSON.parse(value.value) as JsonValue;
  } catch {
    return fail('json= takes a list of objects such as [{"affiliation": "…"}]', value.span);
  }
}

function inputOf(item: JsonValue, at: number, span: Span, fail: ArgumentFailure): AffiliationInput {
  if (typeof item === 'string') return { affiliation: item };
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return fail(`json= item ${at + 1} must be an object such as {"affiliation": "…"}`, span);
  }
  const object = item as Record<string, JsonValue>;
  for (const key of Object.keys(object)) {
    if (key !== 'affiliation' && !(STRUCTURED as readonly string[]).includes(key)) {
      return fail(`json= item ${at + 1} has an unknown key; use affiliation, or name, city, state and country`, span);
    }
    if (typeof object[key] !== 'string') return fail(`json= item ${at + 1}: ${key} must be a string`, span);
  }
  const text = (key: string): string | undefined => (typeof object[key] === 'string' ? object[key] : undefined);
  const affiliation = text('affiliation');
  if (affiliation !== undefined) {
    if (STRUCTURED.some((k) => k in object)) {
      return fail(`json= item ${at + 1}: give affiliation, or name with city, state and country, not both`, span);
    }
    return { affiliation };
  }
  if (text('name') === undefined) return fail(`json= item ${at + 1} needs affiliation or name`, span);
  return Object.fromEntries(STRUCTURED.filter((k) => text(k) !== undefined).map((k) => [k, text(k) as string]));
}

function checkArgs(call: FunctionCall, fail: ArgumentFailure): ExtractAffiliationsArgs {
  const named = new Map<string, ArgumentValue>();
  for (const arg of call.args) {
    if (arg.kind === 'PositionalArgument') {
      if (call.args.length === 1 && arg.value.kind === 'String') return { inputs: [{ affiliation: arg.value.value }] };
      return fail(
        'extract_affiliations takes named arguments: affiliation=, or name=, city=, state=, country=, or json=',
        arg.span,
      );
    }
    const key = arg.name.value;
    if (key !== 'affiliation' && key !== 'json' && !(STRUCTURED as readonly string[]).includes(key)) {
      return fail(
        `extract_affiliations has no argument ${key}; use affiliation, name, city, state, country or json`,
        arg.name.span,
      );
    }
    if (named.has(key)) return fail(`${key} is given twice`, arg.name.span);
    if (key !== 'json' && arg.value.kind !== 'String') return fail(`${key} must be a string`, arg.value.span);
    named.set(key, arg.value);
  }
  const json = named.get('json');
  if (json !== undefined) {
    if (named.size > 1) return fail('json= is given alone, each item carrying its affiliation', call.span);
    const value = jsonArgument(json, fail);
    if (!Array.isArray(value)) return fail('json= takes a list of objects such as [{"affiliation": "…"}]', json.span);
    const list = value as readonly JsonValue[];
    if (list.length === 0) return fail('json= needs at least one affiliation', json.span);
    if (list.length > MAX_AFFILIATIONS) {
      return fail(`json= carries ${list.length} affiliations; at most ${MAX_AFFILIATIONS} a call`, json.span);
    }
    return { inputs: list.map((item, at) => inputOf(item, at, json.span, fail)) };
  }
  const text = (key: string): string | undefined => {
    const v = named.get(key);
    return v?.kind === 'String' ? v.value : undefined;
  };
  const affiliation = text('affiliation');
  if (affiliation !== undefined) {
    if (STRUCTURED.some((k) => named.has(k))) {
      return fail('give affiliation=, or name= with city=, state=, country=, not both', call.span);
    }
    return { inputs: [{ affiliation }] };
  }
  if (text('name') === undefined) {
    return fail(
      'extract_affiliations needs affiliation="…", or name="…" (with city, state, country), or json=[…]',
      call.span,
    );
  }
  return {
    inputs: [Object.fromEntries(STRUCTURED.filter((k) => text(k) !== undefined).map((k) => [k, text(k) as string]))],
  };
}

/** The matcher's index over the organizations the deployment holds, built once per data epoch. */
export async function affiliationIndex(context: FunctionContext): Promise<AffiliationIndex> {
  return context.derived('affiliations', async () => {
    const organizations: MatchableOrganization[] = [];
    for await (const batch of context.readAll('organizations', ORGANIZATION_FIELDS)) {
      context.signal?.throwIfAborted();
      for (const row of batch) {
        const org = fromOrganizationRecord(row);
        if (org !== undefined) organizations.push(org);
      }
    }
    return buildAffiliationIndex(organizations);
  });
}

function institute(match: AffiliationMatch): Record<string, unknown> {
  const org = match.organization;
  return {
    institute: {
      id: org.id,
      name: org.name,
      city: org.city ?? null,
      state: org.state ?? null,
      country: org.countryName ?? null,
    },
    score: Math.round(match.score * 1000) / 1000,
  };
}

export const extractAffiliations: StatementFunction<ExtractAffiliationsArgs> = {
  name: 'extract_affiliations',
  description:
    'The organizations free-text or structured affiliations name, from the organizations held: for each input, its matches with id, name, city, state, country and a score. Returns no match rather than a doubtful one.',
  parameters: [
    { name: 'affiliation', type: 'string', required: false, description: 'A free-text affiliation string.' },
    { name: 'name', type: 'string', required: false, description: 'Structured form: the organization name.' },
    { name: 'city', type: 'string', required: false, description: 'Structured form: the city.' },
    { name: 'state', type: 'string', required: false, description: 'Structured form: the state or region.' },
    { name: 'country', type: 'string', required: false, description: 'Structured form: the country.' },
    {
      name: 'json',
      type: 'list',
      required: false,
      description: `Batch form: up to ${MAX_AFFILIATIONS} objects, each {"affiliation": …} or {"name": …, "city": …, "state": …, "country": …}.`,
    },
  ],
  reads: ['organizations'],
  check: checkArgs,
  async run(args, context): Promise<QueryResult> {
    const index = await affiliationIndex(context);
    const results = args.inputs.map((input) => {
      const matches =
        'affiliation' in input ? matchAffiliation(index, input.affiliation) : matchStructured(index, input);
      return { input, matches: matches.length === 0 ? [] : [{ institutes: matches.map(institute) }] };
    });
    return { results };
  },
};
