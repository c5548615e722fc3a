/**
 * Which works typed as reports are policy documents: those whose publisher organization is a
 * government or intergovernmental body (docs/import-policy-documents.md, "Reports and policy
 * documents from OpenAlex and Crossref", states the rule for users). The importers of
 * OpenAlex and Crossref works (`data/import/formats/`) ask it of every report.
 *
 * The rule reads the work alone, never the database: an import gives the same records for
 * the same files whatever was imported before (which `--resume` relies on).
 */
import type { Mapped } from '../../data/import/formats/common.ts';
import type { PublicationRecord } from '../../model/native-records.ts';
import { reportFromWork, type ReportExtras } from '../reports/from-work.ts';
import { INTERGOVERNMENTAL_ORGANIZATIONS } from './intergovernmental.ts';
import type { PolicyDocumentRecord } from './native.ts';

/** The publishing organization of a work, as far as the work itself says. */
export interface WorkPublisher {
  /** The organization's id as Quarry keys it (a ROR URL), when the work identifies it. */
  readonly id?: string;
  /** Its name as the work writes it. */
  readonly name?: string;
  /** Its organization types (ROR's vocabulary: `government`, `education`, ...), when the work gives them. */
  readonly types?: readonly string[];
  /** ISO 3166-1 code of its country, when the work gives it. */
  readonly country_code?: string;
}

/**
 * Is this publisher a government or intergovernmental body: one of its types is
 * `government` (any case), or its id is a listed intergovernmental organization
 * (`intergovernmental.ts`). An unknown publisher (none, or named without id or types) is
 * not: its report stays a report.
 *
 * @example isPolicyPublisher({ id: 'https://ror.org/01f80g185', types: ['funder', 'government'] }) // true
 * @example isPolicyPublisher({ name: 'U.S. Geological Survey' }) // false: nothing says what it is
 */
export function isPolicyPublisher(publisher: WorkPublisher | undefined): boolean {
  if (publisher === undefined) return false;
  if ((publisher.types ?? []).some((type) => type.toLowerCase() === 'government')) return true;
  return publisher.id !== undefined && INTERGOVERNMENTAL_ORGANIZATIONS.has(publisher.id);
}

/**
 * The policy document of a work: its title, year and link, its publisher, and the works it
 * cites as the publications it links (ids as the importer keys works, so works imported
 * together link up).
 */
export function policyDocumentFromWork(
  work: PublicationRecord,
  publisher: WorkPublisher,
  linkout: string | undefined,
): PolicyDocumentRecord {
  const cited = [...new Set(work.reference_ids)];
  return {
    id: work.id,
    title: work.title,
    year: work.year,
    ...(linkout === undefined ? {} : { linkout }),
    ...(publisher.id === undefined ? {} : { publisher_org: publisher.id }),
    ...(publisher.name === undefined ? {} : { publisher_org_name: publisher.name }),
    ...(publisher.country_code === undefined ? {} : { publisher_org_country: publisher.country_code }),
    ...(cited.length === 0
      ? {}
      : {
          publication_ids: cited,
          // Crossref keys a work by its DOI (`doi:<doi>`): the link shows it.
          publications: cited.map((id) => (id.startsWith('doi:') ? { id, doi: id.slice(4) } : { id })),
        }),
    ...(work.category_for === undefined ? {} : { category_for: work.category_for }),
  };
}

/**
 * A work the source types as a report, filed as a policy document when its publisher is a
 * government or intergovernmental body, else as a report.
 */
export function reportOrPolicyDocument(
  work: PublicationRecord,
  publisher: WorkPublisher | undefined,
  extras: Omit<ReportExtras, 'publisher'>,
): Mapped {
  if (publisher !== undefined && isPolicyPublisher(publisher))
    return { kind: 'policy_documents', record: policyDocumentFromWork(work, publisher, extras.linkout) };
  const named =
    publisher === undefined || publisher.name === undefined
      ? undefined
      : { name: publisher.name, ...(publisher.id === undefined ? {} : { id: publisher.id }) };
  return {
    kind: 'reports',
    record: reportFromWork(work, { ...extras, ...(named === undefined ? {} : { publisher: named }) }),
  };
}
