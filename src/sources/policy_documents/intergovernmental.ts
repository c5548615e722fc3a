/**
 * Intergovernmental organizations whose ROR record is not typed `government`. ROR has no
 * intergovernmental type: it types most such bodies `government` (the United Nations, the
 * World Health Organization, the OECD, UNESCO, the FAO, the European Commission), which the
 * publisher rule (`publisher-rule.ts`) takes as they are, and a few otherwise (`funder`,
 * `other`, `nonprofit`), listed here by ROR id with the types ROR gives them. A report these
 * publish is a policy document as a government's is.
 */
export const INTERGOVERNMENTAL_ORGANIZATIONS: ReadonlyMap<string, string> = new Map([
  ['https://ror.org/02gjn4306', 'Inter-American Development Bank (ROR: funder, other)'],
  ['https://ror.org/015z29x25', 'United Nations Environment Programme (ROR: other)'],
  ['https://ror.org/02dg0pv02', "United Nations Children's Fund (ROR: funder, other)"],
  ['https://ror.org/02zt1gg83', 'International Atomic Energy Agency (ROR: funder, nonprofit)'],
  ['https://ror.org/04qsamf92', 'United Nations Office for Outer Space Affairs (ROR: other)'],
]);
