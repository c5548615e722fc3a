/** Researcher records, made last: every total and year is counted from the written papers and grants. */
import type { ResearcherRecord } from '../../model/native-records.ts';
import { ORGS_PER_RESEARCHER, type Context } from './context.ts';
import { hasOrcid } from './grants.ts';
import { researcherId, syntheticOrcid } from './ids.ts';

export function makeResearcher(ctx: Context, r: number): ResearcherRecord {
  const { stats, people, orgs } = ctx;
  const orgIds: string[] = [];
  for (let k = 0; k < ORGS_PER_RESEARCHER; k++) {
    const o = stats.orgs[r * ORGS_PER_RESEARCHER + k] as number;
    if (o >= 0) orgIds.push((orgs.records[o] as { id: string }).id);
  }
  const current = stats.currentOrg[r] as number;
  const firstYear = stats.firstYear[r] as number;
  const firstGrant = stats.firstGrantYear[r] as number;
  return {
    id: researcherId(r),
    first_name: ctx.names.first[people.first[r] as number] as string,
    last_name: ctx.names.last[people.last[r] as number] as string,
    ...(hasOrcid(ctx, r) ? { orcid_id: [syntheticOrcid(r)] } : {}),
    research_orgs: orgIds,
    ...(current >= 0 ? { current_research_org: (orgs.records[current] as { id: string }).id } : {}),
    ...(firstYear > 0 ? { first_publication_year: firstYear, last_publication_year: stats.lastYear[r] as number } : {}),
    ...(firstGrant > 0 ? { first_grant_year: firstGrant, last_grant_year: stats.lastGrantYear[r] as number } : {}),
    total_publications: stats.publications[r] as number,
    total_grants: stats.grants[r] as number,
    obsolete: 0,
    ...(holdsNihProfile(ctx, r) ? { nih_ppid: String(1_000_000 + ((r * 7_919) % 14_000_000)) } : {}),
  };
}

/**
 * Does researcher r have an NIH PI profile: most grant holders whose current organization is
 * in the United States (drawn from a stream of its own).
 */
function holdsNihProfile(ctx: Context, r: number): boolean {
  const current = ctx.stats.currentOrg[r] as number;
  if (current < 0 || (ctx.stats.grants[r] as number) === 0) return false;
  const country = (ctx.orgs.records[current] as { country_code?: string }).country_code;
  return country === 'US' && ctx.random.uniform('researcher', r, 'nih_ppid') < 0.7;
}
