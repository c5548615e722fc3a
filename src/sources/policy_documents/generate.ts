/**
 * Synthetic policy documents for the demo and benchmark data, published by the run's
 * government organizations and citing its publications (made before them; nothing of theirs
 * changes). Shapes:
 * - 5,000 documents per 1,000,000 publications (the hosted service holds about 700,000 beside
 *   about 140 M publications), year by year from five years after the first publication year
 *   (a policy cites research some years old), growing like the publications;
 * - the publisher is an organization of the run typed government (any organization when the
 *   run has none), with its country, city and state;
 * - 70% cite publications: one to eight, published in the ten years before the document,
 *   of the document's field where the draws find them;
 * - one field of research (a division and one of its groups), the title from the field's
 *   text model with a policy document's opening.
 */
import type { Context } from '../../data/generate/context.ts';
import { publicationDoi, publicationId } from '../../data/generate/ids.ts';
import { classifyBeyondFor } from '../../data/generate/category-schemes.ts';
import { FIRST_YEAR, LAST_YEAR, yearOfIndex, yearStarts } from '../../data/generate/plan.ts';
import type { NamedRef } from '../../model/native-records.ts';
import { governmentsOf } from '../reports/generate.ts';
import type { PolicyDocumentRecord, PolicyPublicationLink } from './native.ts';

/** The first year documents are published in: cited research has had some years to appear. */
export const POLICY_FIRST_YEAR = FIRST_YEAR + 5;

/** How many policy documents a run of `publications` publications makes. */
export function policyDocumentCount(publications: number): number {
  return Math.min(9_999_999, Math.max(10, Math.round((publications * 5_000) / 1_000_000)));
}

/** `policy.9` + 7 digits (the hosted ids are `policy.` and digits). */
export function policyDocumentId(index: number): string {
  return `policy.9${String(index + 1).padStart(7, '0')}`;
}

export interface PolicyPlan {
  readonly count: number;
  readonly starts: Int32Array;
  /** Indexes of the publishing organizations: those typed government, else all. */
  readonly publishers: readonly number[];
}

/** The plan of a run's policy documents: `documents` of them (default: the run's scale's number). */
export function planPolicyDocuments(
  ctx: Pick<Context, 'plan' | 'orgs'>,
  documents = policyDocumentCount(ctx.plan.publications),
): PolicyPlan {
  const count = Math.min(9_999_999, documents);
  const governments = governmentsOf(ctx);
  return {
    count,
    starts: yearStarts(count, POLICY_FIRST_YEAR, LAST_YEAR),
    publishers: governments.length > 0 ? governments : ctx.orgs.records.map((_, k) => k),
  };
}

/** Openings of policy documents' titles. */
const OPENINGS = ['Guidelines on', 'Strategy for', 'Policy brief:', 'Recommendations on', 'National plan for'];

/** Makes policy document k of the run (any order: every draw is keyed by the document). */
export function makePolicyDocument(ctx: Context, plan: PolicyPlan, k: number): PolicyDocumentRecord {
  const { random, fields, orgs } = ctx;
  const r = random.draws('policy_document', k, 'make');
  const year = yearOfIndex(plan.starts, POLICY_FIRST_YEAR, k);
  const d = fields.byShare.sample(r.next());
  const div = fields.divisions[d];
  if (div === undefined) throw new Error('a policy document without a field');
  const topics = ctx.text.topics(div.code, r, r.int(2, 3));
  const subject = ctx.text.title(div.code, topics, r);
  const title = `${r.pick(OPENINGS)} ${subject.charAt(0).toLowerCase()}${subject.slice(1)}`;
  const publisher = orgs.records[plan.publishers[Math.floor(r.next() * plan.publishers.length)] as number];

  // Publications of the ten years before, of the document's field where the draws find them.
  const publications: PolicyPublicationLink[] = [];
  if (r.chance(0.7) && ctx.plan.publications > 0) {
    const at = (y: number): number =>
      ctx.pubStarts[Math.max(0, Math.min(ctx.pubStarts.length - 1, y - FIRST_YEAR))] as number;
    const lo = at(year - 10);
    const hi = Math.max(lo + 1, at(year));
    const want = r.chance(0.5) ? r.int(1, 2) : r.int(3, 8);
    const seen = new Set<number>();
    for (let tries = 0; publications.length < want && tries < want * 8; tries++) {
      const i = Math.min(ctx.plan.publications - 1, lo + Math.floor(r.next() * (hi - lo)));
      if (seen.has(i)) continue;
      // Of its field for the first tries, then of any field.
      if (tries < want * 4 && ctx.division[i] !== d) continue;
      seen.add(i);
      publications.push({ id: publicationId(i), doi: publicationDoi(i) });
    }
  }
  const categories: NamedRef[] = [div.ref, ...(div.groups.length === 0 ? [] : [r.pick(div.groups)])];
  const id = policyDocumentId(k);
  return {
    id,
    title,
    year,
    linkout: `https://policy.example.org/${id}`,
    ...(publisher === undefined
      ? {}
      : {
          publisher_org: publisher.id,
          publisher_org_name: publisher.name,
          ...(publisher.country_code === undefined ? {} : { publisher_org_country: publisher.country_code }),
          ...(publisher.city_id !== undefined
            ? { publisher_org_city: publisher.city_id }
            : publisher.city_name === undefined
              ? {}
              : { publisher_org_city: publisher.city_name }),
          ...(publisher.state_code === undefined ? {} : { publisher_org_state: publisher.state_code }),
        }),
    ...(publications.length === 0 ? {} : { publication_ids: publications.map((p) => p.id as string), publications }),
    date_inserted: `${year}-12-31`,
    category_for: categories,
    ...classifyBeyondFor(div.code, ctx.random.draws('policy_document', k, 'schemes'), { sdg: false, uoa: false }),
  };
}
