/**
 * A work an OpenAlex or Crossref importer reads as a publication, when the source types it a
 * report, made a report instead (spec/schema-2026.md §7.9). The importer maps the work as it
 * maps every work (`formats/openalex.ts`, `formats/crossref.ts`) and gives what only a report
 * keeps: its publisher, its keywords, its identifiers and its link.
 */
import type { PublicationRecord } from '../../model/native-records.ts';
import type { NamedOrganization, ReportFunder, ReportRecord } from './native.ts';

/** What a report keeps of its work beside the publication's fields. */
export interface ReportExtras {
  /** The publishing organization as the source names it; `id` when the source identifies it. */
  readonly publisher?: NamedOrganization;
  /** Keywords as the source gives them. */
  readonly keywords?: readonly string[];
  /** Identifier type → identifier, as the source gives them (URL prefixes removed). */
  readonly externalIds?: Readonly<Record<string, string>>;
  /** The report's landing page. */
  readonly linkout?: string;
  /** The funders as the source names them, with their awards. */
  readonly funders?: readonly ReportFunder[];
}

/**
 * The report of a work mapped as a publication: the fields both have, the funders as
 * `funder_orgs`, and the extras. The record is the publication's id, so the same work is
 * the same record whichever kind it is filed under.
 *
 * @example reportFromWork(publication, { publisher: { name: 'U.S. Geological Survey' } })
 *   // { id: 'W1923601666', title: 'Kandia: ...', year: 1997, ..., publisher_details: [{ name: 'U.S. Geological Survey' }] }
 */
export function reportFromWork(work: PublicationRecord, extras: ReportExtras): ReportRecord {
  const keywords = (extras.keywords ?? []).filter((k) => k.trim() !== '');
  const publisher = extras.publisher;
  return {
    id: work.id,
    title: work.title,
    ...(work.abstract === undefined ? {} : { abstract: work.abstract }),
    ...(work.doi === undefined ? {} : { doi: work.doi }),
    year: work.year,
    date: work.date,
    authors: work.authors,
    research_orgs: work.research_orgs,
    ...(publisher?.id === undefined ? {} : { publisher_orgs: [publisher.id] }),
    ...(publisher === undefined ? {} : { publisher_details: [publisher] }),
    ...(work.funders.length === 0 ? {} : { funder_orgs: work.funders }),
    ...(extras.funders === undefined || extras.funders.length === 0 ? {} : { funder_details: extras.funders }),
    ...(work.concepts.length === 0 ? {} : { concepts: work.concepts }),
    ...(work.concepts_scores === undefined || work.concepts_scores.length === 0
      ? {}
      : { concepts_scores: work.concepts_scores }),
    ...(keywords.length === 0 ? {} : { keywords: keywords.join('; ') }),
    ...(extras.externalIds === undefined || Object.keys(extras.externalIds).length === 0
      ? {}
      : { external_ids: extras.externalIds }),
    ...(extras.linkout === undefined ? {} : { linkout: extras.linkout }),
  };
}
