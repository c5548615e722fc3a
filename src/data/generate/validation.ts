/**
 * The validation report: figures of the generated data against the shapes of
 * spec/generator.md, each with its tolerance. A run fails when a figure is out of
 * tolerance (small runs, below ENFORCE_FROM publications, only report: their figures are
 * too noisy to judge).
 */
import { QuarryError } from '../../errors/index.ts';
import type { PublicationRecord } from '../../model/native-records.ts';
import { estimatePowerLawExponent } from './distributions.ts';
import { LAST_YEAR } from './plan.ts';

export const ENFORCE_FROM = 5_000;

export interface Check {
  readonly name: string;
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly ok: boolean;
}

export interface ValidationReport {
  /** False only when enforced and some check failed. */
  readonly passed: boolean;
  readonly enforced: boolean;
  readonly checks: readonly Check[];
}

/** Raw tallies gathered during generation. */
export interface Tallies {
  publications: number;
  authorSlots: number;
  /** papersPerResearcher[n] = researchers with n papers. */
  papersPerResearcher: number[];
  oldPapers: number;
  oldUncited: number;
  funded: number;
  citationLinks: number;
  organizationLinks: number;
  /** Per year: [papers, open access]. */
  openAccessByYear: Map<number, [number, number]>;
}

/** The tallies one paper adds to (papers are tallied wherever they are made, then merged). */
export type PaperTallies = Pick<
  Tallies,
  'oldPapers' | 'oldUncited' | 'funded' | 'organizationLinks' | 'openAccessByYear'
>;

/** Empty paper tallies. */
export function noPaperTallies(): PaperTallies {
  return { oldPapers: 0, oldUncited: 0, funded: 0, organizationLinks: 0, openAccessByYear: new Map() };
}

/** Adds one paper of `year` to the tallies. */
export function tallyPaper(t: PaperTallies, record: PublicationRecord, year: number): void {
  t.organizationLinks += record.research_orgs.length;
  if (record.supporting_grant_ids.length > 0) t.funded++;
  if (year <= LAST_YEAR - 5) {
    t.oldPapers++;
    if (record.times_cited === 0) t.oldUncited++;
  }
  const oa = t.openAccessByYear.get(year) ?? [0, 0];
  oa[0]++;
  if (record.open_access[0] === 'oa_all') oa[1]++;
  t.openAccessByYear.set(year, oa);
}

/** Adds the paper tallies `from` into `into`. */
export function mergePaperTallies(into: PaperTallies, from: PaperTallies): void {
  into.oldPapers += from.oldPapers;
  into.oldUncited += from.oldUncited;
  into.funded += from.funded;
  into.organizationLinks += from.organizationLinks;
  for (const [year, [papers, open]] of from.openAccessByYear) {
    const oa = into.openAccessByYear.get(year) ?? [0, 0];
    oa[0] += papers;
    oa[1] += open;
    into.openAccessByYear.set(year, oa);
  }
}

const round = (x: number): number => Math.round(x * 10000) / 10000;

function oaShare(t: Tallies, from: number, to: number): number {
  let n = 0;
  let oa = 0;
  for (const [year, [papers, open]] of t.openAccessByYear) {
    if (year >= from && year <= to) {
      n += papers;
      oa += open;
    }
  }
  return n === 0 ? NaN : oa / n;
}

/** A figure and its tolerance (NaN, a figure with nothing to measure, is out of it). */
export function check(name: string, value: number, min: number, max: number): Check {
  return { name, value: round(value), min: round(min), max: round(max), ok: value >= min && value <= max };
}

/** Judges the tallies, with `more` checks (of the other sources' records, `source-tallies.ts`). */
export function validate(t: Tallies, more: readonly Check[] = []): ValidationReport {
  const checks = [
    check('authors_per_paper', t.authorSlots / t.publications, 4.3, 5.3),
    check('lotka_exponent', estimatePowerLawExponent(t.papersPerResearcher), 2.0, 2.4),
    check('organizations_per_paper', t.organizationLinks / t.publications, 1.9, 2.7),
    check('uncited_share_5y', t.oldPapers === 0 ? NaN : t.oldUncited / t.oldPapers, 0.12, 0.25),
    check('funded_share', t.funded / t.publications, 0.34, 0.42),
    check('citation_links_per_paper', t.citationLinks / t.publications, 15, 20),
    check('open_access_share_1995_1997', oaShare(t, 1995, 1997), 0.1, 0.22),
    check('open_access_share_2015', oaShare(t, 2015, 2015), 0.39, 0.51),
    check('open_access_share_2024', oaShare(t, 2024, 2024), 0.52, 0.64),
    ...more,
  ];
  const enforced = t.publications >= ENFORCE_FROM;
  return { passed: !enforced || checks.every((c) => c.ok), enforced, checks };
}

/** Throws DATA_VALIDATION_FAILED naming every check out of tolerance when the report failed. */
export function assertValid(report: ValidationReport): void {
  if (report.passed) return;
  const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}=${c.value} (expected ${c.min}..${c.max})`);
  throw QuarryError.of('DATA_VALIDATION_FAILED', { params: { checks: failed.join('; ') } });
}
