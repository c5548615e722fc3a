/**
 * The US federal agencies a government-interest statement names, found by their names and
 * acronyms: what USPTO XML gives of a patent's funders (PatentsView has them resolved, in
 * `g_gov_interest_org`). The names are inputs of the funder matcher, which resolves them to
 * organizations later; this list holds the agencies that fund most US patents, not all.
 */

/** An agency: the name it is reported under, and how statements write it. */
interface Agency {
  readonly name: string;
  /** Full names, matched without regard to case. */
  readonly names: readonly string[];
  /** Acronyms, matched as whole upper-case words. */
  readonly acronyms: readonly string[];
}

const AGENCIES: readonly Agency[] = [
  {
    name: 'National Institutes of Health',
    names: ['National Institutes of Health', 'National Institute of Health'],
    acronyms: ['NIH'],
  },
  { name: 'National Cancer Institute', names: ['National Cancer Institute'], acronyms: ['NCI'] },
  { name: 'National Science Foundation', names: ['National Science Foundation'], acronyms: ['NSF'] },
  { name: 'Department of Energy', names: ['Department of Energy', 'Dept. of Energy'], acronyms: ['DOE', 'DoE'] },
  { name: 'Department of Defense', names: ['Department of Defense', 'Dept. of Defense'], acronyms: ['DOD', 'DoD'] },
  {
    name: 'Defense Advanced Research Projects Agency',
    names: ['Defense Advanced Research Projects Agency'],
    acronyms: ['DARPA'],
  },
  {
    name: 'National Aeronautics and Space Administration',
    names: ['National Aeronautics and Space Administration'],
    acronyms: ['NASA'],
  },
  {
    name: 'Air Force Office of Scientific Research',
    names: ['Air Force Office of Scientific Research'],
    acronyms: ['AFOSR'],
  },
  { name: 'Air Force Research Laboratory', names: ['Air Force Research Laboratory'], acronyms: ['AFRL'] },
  { name: 'Army Research Office', names: ['Army Research Office'], acronyms: ['ARO'] },
  { name: 'Army Research Laboratory', names: ['Army Research Laboratory'], acronyms: ['ARL'] },
  { name: 'Office of Naval Research', names: ['Office of Naval Research'], acronyms: ['ONR'] },
  { name: 'Department of Agriculture', names: ['Department of Agriculture'], acronyms: ['USDA'] },
  {
    name: 'National Institute of Standards and Technology',
    names: ['National Institute of Standards and Technology'],
    acronyms: ['NIST'],
  },
  { name: 'Department of Homeland Security', names: ['Department of Homeland Security'], acronyms: ['DHS'] },
  { name: 'Environmental Protection Agency', names: ['Environmental Protection Agency'], acronyms: ['EPA'] },
  { name: 'Department of Transportation', names: ['Department of Transportation'], acronyms: [] },
  { name: 'Department of Veterans Affairs', names: ['Department of Veterans Affairs'], acronyms: [] },
  {
    name: 'Centers for Disease Control and Prevention',
    names: ['Centers for Disease Control and Prevention'],
    acronyms: ['CDC'],
  },
  { name: 'Food and Drug Administration', names: ['Food and Drug Administration'], acronyms: ['FDA'] },
  {
    name: 'National Oceanic and Atmospheric Administration',
    names: ['National Oceanic and Atmospheric Administration'],
    acronyms: ['NOAA'],
  },
  {
    name: 'Advanced Research Projects Agency-Energy',
    names: ['Advanced Research Projects Agency-Energy', 'Advanced Research Projects Agency - Energy'],
    acronyms: ['ARPA-E'],
  },
  {
    name: 'Intelligence Advanced Research Projects Activity',
    names: ['Intelligence Advanced Research Projects Activity'],
    acronyms: ['IARPA'],
  },
  {
    name: 'Department of Health and Human Services',
    names: ['Department of Health and Human Services'],
    acronyms: ['HHS'],
  },
];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PATTERNS = AGENCIES.map((a) => ({
  name: a.name,
  full: a.names.map((n) => new RegExp(`\\b${escape(n).replace(/ /g, '\\s+')}\\b`, 'i')),
  acronyms: a.acronyms.map((s) => new RegExp(`(?<![\\w-])${escape(s)}(?![\\w-])`)),
}));

/**
 * The agencies a statement names, each once, in the order the statement first names them.
 *
 * @example agenciesNamed('... under grant CA123 awarded by the National Institutes of Health (NIH).')
 *   // ['National Institutes of Health']
 */
export function agenciesNamed(statement: string): string[] {
  const found: { name: string; at: number }[] = [];
  for (const p of PATTERNS) {
    let at = Number.POSITIVE_INFINITY;
    for (const re of [...p.full, ...p.acronyms]) {
      const m = re.exec(statement);
      if (m !== null && m.index < at) at = m.index;
    }
    if (at !== Number.POSITIVE_INFINITY) found.push({ name: p.name, at });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.name);
}
