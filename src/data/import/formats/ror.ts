/**
 * ROR v2 organization records (a JSON array such as `ror_v2_sample.json`, or JSON Lines,
 * plain or gzip) as organizations, keyed by the full ROR URL.
 */
import type { OrganizationRecord } from '../../../model/native-records.ts';
import { organizationDescription, rorOrganization } from '../../ror-organization.ts';
import { arr, MalformedRecord, obj, parseObject, type Mapped } from './common.ts';
import type { Container, FormatReader } from './reader.ts';

/** Maps one ROR v2 record (parsed) to an organization. */
export function rorToOrganization(raw: Readonly<Record<string, unknown>>): OrganizationRecord {
  const org = rorOrganization(raw);
  if (org === undefined) throw new MalformedRecord('a ROR record without an id or a name');
  const rel = (type: string): string[] =>
    arr(raw['relationships'])
      .map(obj)
      .filter((r) => r['type'] === type && typeof r['id'] === 'string')
      .map((r) => r['id'] as string);
  const parents = rel('parent');
  const children = rel('child');
  const related = rel('related');
  const wikipedia = arr(raw['links'])
    .map(obj)
    .find((l) => l['type'] === 'wikipedia')?.['value'];
  return {
    id: org.rorId,
    name: org.name,
    ...organizationDescription(org),
    status: org.status,
    ror_ids: [org.rorId],
    ...(org.wikidata.length === 0 ? {} : { wikidata_ids: org.wikidata }),
    ...(org.isni.length === 0 ? {} : { isni_ids: org.isni }),
    ...(org.fundref.length === 0 ? {} : { external_ids_fundref: org.fundref }),
    ...(parents.length === 0 ? {} : { organization_parent_ids: parents }),
    ...(children.length === 0 ? {} : { organization_child_ids: children }),
    ...(related.length === 0 ? {} : { organization_related_ids: related }),
    ...(org.links.length === 0 ? {} : { linkout: org.links }),
    ...(typeof wikipedia === 'string' ? { wikipedia_url: wikipedia } : {}),
  };
}

export class RorReader implements FormatReader {
  readonly pure = true;
  constructor(readonly container: Container) {}

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    return [{ kind: 'organizations', record: rorToOrganization(parseObject(source as string)) }];
  }

  end(): Mapped[] {
    return [];
  }
}
