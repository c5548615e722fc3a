/**
 * `check_researcher_ids(["ur.…", …])`: the status of researcher ids, in the hosted service's
 * documented shape (docs/functions.md):
 *
 * `{"researcher_ids": [{"id": "ur.1", "obsolete": 0}, {"id": "ur.2", "obsolete": 1, "redirect": ["ur.3"]}]}`
 *
 * one object per id asked, in the order asked. `obsolete` 0: the id is held and current.
 * `obsolete` 1 with `redirect`: the record was merged into the ids listed (several when it
 * was split); an empty `redirect` means the id is not held (deleted, or never known here).
 */
import type { FunctionCall } from '../dsl/ast.ts';
import { bindArguments, jsonOf } from './arguments.ts';
import type { ArgumentFailure, FunctionContext, QueryResult, StatementFunction, StatementParameter } from './types.ts';

/** Ids a call may check (the hosted service's limit on `in` lists). */
export const MAX_RESEARCHER_IDS = 400;

const PARAMETERS: readonly StatementParameter[] = [
  {
    name: 'ids',
    type: 'list',
    required: true,
    description: `researcher ids to check, a list of strings (at most ${MAX_RESEARCHER_IDS})`,
  },
];

function literal(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export const checkResearcherIds: StatementFunction<readonly string[]> = {
  name: 'check_researcher_ids',
  description:
    'The status of researcher ids: {"researcher_ids": [{"id", "obsolete": 0|1, "redirect": [ids the record was merged into; empty when the id is not held]}]}, in the order asked.',
  parameters: PARAMETERS,
  reads: ['researchers'],

  check(call: FunctionCall, fail: ArgumentFailure): readonly string[] {
    const list = bindArguments(call, PARAMETERS, fail).get('ids');
    if (list === undefined) return fail('ids is required', call.span);
    if (list.kind !== 'List')
      return fail('it takes a list of researcher ids: check_researcher_ids(["ur.…"])', list.span);
    if (list.items.length === 0) fail('the list of researcher ids is empty', list.span);
    if (list.items.length > MAX_RESEARCHER_IDS) fail(`at most ${MAX_RESEARCHER_IDS} researcher ids a call`, list.span);
    return list.items.map((item) => {
      const value = jsonOf(item);
      if (typeof value !== 'string' || value.trim() === '') {
        return fail('each researcher id must be a string in double quotes', item.span);
      }
      return value.trim();
    });
  },

  async run(ids: readonly string[], context: FunctionContext): Promise<QueryResult> {
    const wanted = [...new Set(ids)];
    const result = await context.query(
      `search researchers where id in [${wanted.map(literal).join(', ')}] return researchers[id + obsolete + redirect] limit 1000`,
    );
    const held = new Map<string, Record<string, unknown>>();
    for (const record of (result['researchers'] ?? []) as Record<string, unknown>[]) {
      if (typeof record['id'] === 'string') held.set(record['id'], record);
    }
    return {
      researcher_ids: ids.map((id) => {
        const record = held.get(id);
        if (record === undefined) return { id, obsolete: 1, redirect: [] };
        const redirect = Array.isArray(record['redirect']) ? record['redirect'] : [];
        if (record['obsolete'] === 1 || redirect.length > 0) return { id, obsolete: 1, redirect };
        return { id, obsolete: 0 };
      }),
    };
  },
};
