/**
 * What policy documents bring to the data layer (listed in `src/data/sources.ts`): the generator.
 * They are imported from the native format and, filed by type, from OpenAlex and Crossref
 * works (`src/data/import/formats/`).
 */
import { defineSourceData } from '../../data/source-data.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import { makePolicyDocument, planPolicyDocuments } from './generate.ts';
import type { PolicyDocumentRecord } from './native.ts';

export const policyDocumentData = defineSourceData({
  kind: 'policy_documents',
  generator: recordsGenerator<PolicyDocumentRecord>({
    afterwards: (ctx, count) => {
      const plan = planPolicyDocuments(ctx, count);
      return { count: plan.count, make: (k) => makePolicyDocument(ctx, plan, k) };
    },
    shares: [
      {
        name: 'policy_documents_citing_papers_share',
        has: (p) => p.publication_ids !== undefined,
        target: 0.7,
        tolerance: 0.05,
      },
    ],
  }),
});
