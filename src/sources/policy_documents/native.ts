/**
 * The native record of a policy document: what the OpenAlex and Crossref importers produce
 * for reports published by government and intergovernmental bodies, what the generator
 * writes, and what a deployment's own policy corpus brings (one JSON object per JSONL line
 * of `policy_documents-NNNN.jsonl`; docs/import-policy-documents.md describes each field for
 * its users). It follows the conventions of `model/native-records.ts`: field names are the
 * schema's (spec/schema-2026.md §7.8), references to other records are ids, and optional
 * fields are left out, never `null`. One field the schema does not have,
 * `publisher_org_name`, keeps the publisher's name as the source writes it, for search.
 *
 * @example
 *   {"id":"policy.2000000001","title":"Guidelines on physical activity and sedentary behaviour",
 *    "year":2020,"linkout":"https://www.who.int/publications/i/item/9789240015128",
 *    "publisher_org":"https://ror.org/01f80g185","publisher_org_name":"World Health Organization",
 *    "publisher_org_country":"CH","publisher_org_city":"2660646","publisher_org_state":"CH-GE",
 *    "publication_ids":["pub.1900000001"],
 *    "publications":[{"id":"pub.1900000001","doi":"10.1136/bjsports-2020-102955"}],
 *    "category_for":[{"id":"42","name":"42 Health Sciences"}]}
 */
import type { CategoryFields } from '../../model/native-records.ts';

/** A publication a policy document cites (the `publication_links` entity). */
export interface PolicyPublicationLink {
  /** The publication's id when it is held. */
  readonly id?: string;
  /** Lower-case DOI without URL prefix. */
  readonly doi?: string;
  readonly pmid?: string;
  readonly pmcid?: string;
}

/** Policy documents are classified by every scheme but SDGs and units of assessment. */
export type PolicyCategoryFields = Omit<CategoryFields, 'category_sdg' | 'category_uoa'>;

/** A policy document. */
export interface PolicyDocumentRecord extends PolicyCategoryFields {
  /** The source's stable id: `policy.…` (generated), the OpenAlex work id, `doi:` + the DOI (Crossref). */
  readonly id: string;
  readonly title: string;
  readonly year: number;
  readonly date_inserted?: string;
  readonly linkout?: string;
  readonly dimensions_url?: string;
  /** The publishing organization's id (a ROR URL, `grid.…`): the organizations record it names. */
  readonly publisher_org?: string;
  /** Its name as the source writes it (no schema field: searched in `full_data`). */
  readonly publisher_org_name?: string;
  /** ISO 3166-1 code of the publisher's country (`CH`). */
  readonly publisher_org_country?: string;
  /** GeoNames id of the publisher's city, as text (`2660646`), or its name when it has none. */
  readonly publisher_org_city?: string;
  /** ISO 3166-2 code of the publisher's state (`CH-GE`). */
  readonly publisher_org_state?: string;
  /** Ids of the held publications it cites. */
  readonly publication_ids?: readonly string[];
  /** The publications it cites, as links (held ones with their id). */
  readonly publications?: readonly PolicyPublicationLink[];
}
