/**
 * The statement functions this deployment offers, by name. A function is one file in this
 * folder implementing `StatementFunction` (types.ts) and one line here; validation checks its
 * arguments, the engines run it (`engine/function-context.ts`), `describe schema` lists it.
 */
import { checkResearcherIds } from './check-researcher-ids.ts';
import { classifyFunction } from './classify.ts';
import { extractAffiliations } from './extract-affiliations.ts';
import { extractConceptsFunction } from './extract-concepts.ts';
import { extractGrants } from './extract-grants.ts';
import { identifyExpertsFunction } from './identify-experts.ts';
import type { StatementFunction } from './types.ts';

export const STATEMENT_FUNCTIONS: ReadonlyMap<string, StatementFunction> = new Map<string, StatementFunction>([
  ['extract_grants', extractGrants],
  ['check_researcher_ids', checkResearcherIds],
  ['extract_concepts', extractConceptsFunction],
  ['classify', classifyFunction],
  ['extract_affiliations', extractAffiliations],
  ['identify_experts', identifyExpertsFunction],
]);
