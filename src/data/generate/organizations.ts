/**
 * Synthetic organizations and funders drawn from real ROR records: real names and places
 * under synthetic `grid.9…` ids (the real ROR id kept as an external id). When a run needs
 * more organizations than the file holds, records are reused as further sites ("… (site 2)").
 */
import type { OrganizationRecord } from '../../model/native-records.ts';
import { Weighted, zipfWeights } from './distributions.ts';
import { organizationId } from './ids.ts';
import { organizationExtras } from './organization-extras.ts';
import type { Plan } from './plan.ts';
import { shuffledWith, type RandomSource } from './prng.ts';
import { organizationDescription, type RorOrganization } from '../ror-organization.ts';

/** The organizations of a run: records plus the weights used to place researchers. */
export interface OrganizationSet {
  readonly records: readonly OrganizationRecord[];
  /** Research organizations are indexes [0, plan.organizations). */
  readonly research: Weighted;
  /** Funders are indexes [plan.organizations, plan.organizations + plan.funders). */
  readonly firstFunder: number;
}

const TYPE_WEIGHT: Readonly<Record<string, number>> = {
  education: 5,
  healthcare: 2.5,
  facility: 2,
  government: 1,
  nonprofit: 1,
  company: 0.6,
};

function shuffled<T>(items: readonly T[], random: RandomSource, name: string): T[] {
  return shuffledWith(items, random.draws('shuffle', 0, name));
}

function toRecord(index: number, org: RorOrganization, cycle: number): OrganizationRecord {
  const suffix = cycle === 0 ? '' : ` (site ${cycle + 1})`;
  return {
    id: organizationId(index),
    name: org.name + suffix,
    ...organizationDescription(org),
    status: 'active',
    ...(cycle === 0 ? { ror_ids: [org.rorId] } : {}),
    ...(cycle === 0 && org.wikidata.length > 0 ? { wikidata_ids: org.wikidata } : {}),
    ...(cycle === 0 && org.isni.length > 0 ? { isni_ids: org.isni } : {}),
    ...(cycle === 0 && org.fundref.length > 0 ? { external_ids_fundref: org.fundref } : {}),
    ...(org.links.length > 0 ? { linkout: org.links } : {}),
  };
}

/** Picks research organizations and funders for the plan from the real records. */
export function buildOrganizations(plan: Plan, ror: readonly RorOrganization[], random: RandomSource): OrganizationSet {
  if (ror.length === 0) throw new Error('no organizations in the ROR reference data');
  const funderPool = shuffled(
    ror.filter((o) => o.types.includes('funder')),
    random,
    'funders',
  );
  const researchPool = shuffled(
    ror.filter((o) => !o.types.includes('funder') && o.types.some((t) => t in TYPE_WEIGHT)),
    random,
    'organizations',
  );
  const records: OrganizationRecord[] = [];
  const weights = new Float64Array(plan.organizations);
  const zipf = zipfWeights(plan.organizations, 0.9);
  for (let k = 0; k < plan.organizations; k++) {
    const org = researchPool[k % researchPool.length] as RorOrganization;
    const cycle = Math.floor(k / researchPool.length);
    records.push({ ...toRecord(k, org, cycle), ...organizationExtras(k, org, cycle, random) });
    const typeWeight = Math.max(...org.types.map((t) => TYPE_WEIGHT[t] ?? 0.3));
    weights[k] = (zipf[k] as number) * typeWeight;
  }
  const pool = funderPool.length > 0 ? funderPool : researchPool;
  for (let k = 0; k < plan.funders; k++) {
    const org = pool[k % pool.length] as RorOrganization;
    const cycle = Math.floor(k / pool.length);
    const rec = {
      ...toRecord(plan.organizations + k, org, cycle),
      ...organizationExtras(plan.organizations + k, org, cycle, random),
    };
    records.push(rec.types.includes('Funder') ? rec : { ...rec, types: [...rec.types, 'Funder'] });
  }
  return { records, research: new Weighted(weights), firstFunder: plan.organizations };
}
