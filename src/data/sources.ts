/**
 * The data-layer parts of the sources (`source-data.ts`): each source with a generator or an
 * import format of its own gives them in `src/sources/<name>/data.ts`, and is one line here.
 * The generators (`generate/source-generators.ts`) and the import formats' recognition and
 * readers (`import/source-formats.ts`) are read from this list; their names come from the
 * registry of declarations (`model/sources.ts`), which the command line reads alone.
 */
import { SOURCE_FORMAT_NAMES, SOURCE_NAMES } from '../model/sources.ts';
import { clinicalTrialData } from '../sources/clinical_trials/data.ts';
import { datasetData } from '../sources/datasets/data.ts';
import { funderGroupData } from '../sources/funder_groups/data.ts';
import { patentData } from '../sources/patents/data.ts';
import { policyDocumentData } from '../sources/policy_documents/data.ts';
import { reportData } from '../sources/reports/data.ts';
import { researchOrgGroupData } from '../sources/research_org_groups/data.ts';
import { sourceTitleData } from '../sources/source_titles/data.ts';
import type { SourceData } from './source-data.ts';

const LISTED: readonly SourceData[] = [
  patentData,
  datasetData,
  clinicalTrialData,
  policyDocumentData,
  reportData,
  sourceTitleData,
  funderGroupData,
  researchOrgGroupData,
];

/**
 * The listed sources' parts, in registry order. Throws at load for a source listed twice and
 * for a source whose declaration names an import format with no parts here.
 */
export const SOURCE_DATA: readonly SourceData[] = (() => {
  const byKind = new Map<string, SourceData>();
  for (const data of LISTED) {
    if (byKind.has(data.kind)) throw new Error(`source ${data.kind} is listed twice in src/data/sources.ts`);
    byKind.set(data.kind, data);
  }
  for (const { kind, name } of SOURCE_FORMAT_NAMES)
    if (byKind.get(kind)?.formats?.[name] === undefined)
      throw new Error(
        `source ${kind} declares the import format ${name}, which has no reader: list src/sources/${kind}/data.ts in src/data/sources.ts`,
      );
  return SOURCE_NAMES.flatMap((name) => byKind.get(name) ?? []);
})();
