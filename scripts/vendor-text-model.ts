/**
 * Builds the text model the generator writes titles and abstracts with (see
 * src/data/generate/text-model.ts for how it is used) from real titles and abstracts of the
 * open-data folder: OpenAlex works (English), Crossref work titles, ClinicalTrials.gov study
 * titles and summaries, and USPTO patent titles and abstracts.
 *
 * Words common to several of these sources are the "glue" of research prose (`of`,
 * `effects`, `we`, `analysis`, `patients`); every run of other words (the topic: a disease,
 * a material, a place) becomes a slot. Trigram chains over glue words and slots are counted
 * for titles and for abstract sentences. The topic phrases that fill the slots are kept per
 * Fields of Research division: the FoR group and field labels, the OpenAlex concepts of
 * works in that field, and the clinical trials' conditions and keywords.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseCsvLine } from '../src/data/csv.ts';
import { PLACE, SLOT, type TextModelData } from '../src/data/generate/text-model.ts';

type Loose = Record<string, unknown>;

/** The documents of one source: titles, abstracts, and topic phrases with their FoR division. */
interface Source {
  readonly name: string;
  readonly titles: string[];
  readonly abstracts: string[];
  readonly topics: [division: string, phrase: string][];
}

/** OpenAlex (Scopus) fields to the Fields of Research division their concepts are filed under. */
const FIELD_DIVISION: Readonly<Record<string, string>> = {
  'Agricultural and Biological Sciences': '31',
  'Arts and Humanities': '47',
  'Biochemistry, Genetics and Molecular Biology': '31',
  'Business, Management and Accounting': '35',
  'Chemical Engineering': '40',
  Chemistry: '34',
  'Computer Science': '46',
  'Decision Sciences': '35',
  Dentistry: '32',
  'Earth and Planetary Sciences': '37',
  'Economics, Econometrics and Finance': '38',
  Energy: '40',
  Engineering: '40',
  'Environmental Science': '41',
  'Health Professions': '42',
  'Immunology and Microbiology': '32',
  'Materials Science': '40',
  Mathematics: '49',
  Medicine: '32',
  Neuroscience: '32',
  Nursing: '42',
  'Pharmacology, Toxicology and Pharmaceutics': '32',
  'Physics and Astronomy': '51',
  Psychology: '52',
  'Social Sciences': '44',
  Veterinary: '30',
};

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function openalex(dir: string): Source {
  const out: Source = { name: 'openalex', titles: [], abstracts: [], topics: [] };
  for (const line of lines(readFileSync(join(dir, 'openalex/works_flat.jsonl'), 'utf8'))) {
    const w = JSON.parse(line) as Loose;
    if (w['language'] !== 'en') continue;
    out.titles.push(str(w['title']));
    out.abstracts.push(str(w['abstract']));
    const field = str(((w['topics'] ?? []) as Loose[])[0]?.['field']);
    const division = FIELD_DIVISION[field];
    if (division === undefined) continue;
    for (const c of (w['concepts'] ?? []) as Loose[])
      if (typeof c['level'] === 'number' && c['level'] >= 2) out.topics.push([division, str(c['name'])]);
  }
  return out;
}

function crossref(dir: string): Source {
  const out: Source = { name: 'crossref', titles: [], abstracts: [], topics: [] };
  for (const line of lines(readFileSync(join(dir, 'crossref/works.jsonl'), 'utf8'))) {
    const title = ((JSON.parse(line) as Loose)['title'] ?? []) as string[];
    if (title[0] !== undefined) out.titles.push(title[0]);
  }
  return out;
}

function clinicalTrials(dir: string): Source {
  const out: Source = { name: 'clinical_trials', titles: [], abstracts: [], topics: [] };
  const text = gunzipSync(readFileSync(join(dir, 'wave3/clinical_trials/ctgov_v2_studies.jsonl.gz'))).toString('utf8');
  for (const line of lines(text)) {
    const p = ((JSON.parse(line) as Loose)['protocolSection'] ?? {}) as Record<string, Loose>;
    out.titles.push(
      str(p['identificationModule']?.['officialTitle']) || str(p['identificationModule']?.['briefTitle']),
    );
    out.abstracts.push(str(p['descriptionModule']?.['briefSummary']));
    const conditions = p['conditionsModule'] ?? {};
    for (const c of [
      ...((conditions['conditions'] ?? []) as string[]),
      ...((conditions['keywords'] ?? []) as string[]),
    ])
      out.topics.push(['32', c], ['42', c]);
  }
  return out;
}

function patents(dir: string): Source {
  const out: Source = { name: 'patents', titles: [], abstracts: [], topics: [] };
  for (const line of lines(readFileSync(join(dir, 'wave3/patents/uspto_patents_flat.jsonl'), 'utf8'))) {
    const p = JSON.parse(line) as Loose;
    out.titles.push(str(p['title']));
    out.abstracts.push(str(p['abstract']));
  }
  return out;
}

/** FoR group and field labels as topic phrases of their division ("not elsewhere classified" left out). */
function forTopics(dir: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of lines(readFileSync(join(dir, 'anzsrc_for_2020/for2020_codes.csv'), 'utf8')).slice(1)) {
    const [code, level, label] = parseCsvLine(line.replace(/\r$/, ''));
    if (code === undefined || label === undefined || level === 'division') continue;
    if (/not elsewhere classified|^other /i.test(label)) continue;
    out.push([code.slice(0, 2), label]);
  }
  return out;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’\-/.]*[\p{L}\p{N}]|[\p{L}\p{N}]|[,;:()]/gu;

/** Words and punctuation of a text (a trailing full stop is not part of a word). */
function tokens(text: string): string[] {
  return [...text.replace(/\s+/g, ' ').matchAll(WORD)].map((m) => m[0]);
}

/** Sentences of an abstract: split after . ? ! followed by a capital letter. */
function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.?!])\s+(?=[A-Z])/)
    .map((s) => s.replace(/[.?!]+$/, ''))
    .filter((s) => s.split(' ').length >= 5);
}

/** A topic phrase made tidy: no parenthetical notes, no doubled spaces. */
function cleanPhrase(phrase: string): string {
  return phrase
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s,;:]+$/, '')
    .trim();
}

/** Counts trigram transitions over token sequences (each closed by the end token ''). */
class ChainCounter {
  readonly counts = new Map<string, Map<string, number>>();
  add(sequence: readonly string[]): void {
    let a = '';
    let b = '';
    for (const t of [...sequence, '']) {
      const key = `${a}\u0000${b}`;
      let next = this.counts.get(key);
      if (next === undefined) {
        next = new Map();
        this.counts.set(key, next);
      }
      next.set(t, (next.get(t) ?? 0) + 1);
      a = b;
      b = t;
    }
  }
}

const PREPOSITIONS_BEFORE_PLACE = new Set(['in', 'from', 'across', 'of']);

export function buildTextModel(dir: string): TextModelData {
  const sources = [openalex(dir), crossref(dir), clinicalTrials(dir), patents(dir)];
  // Glue: lower-case words that occur in at least four documents of at least two sources, spread between them.
  const docSources = new Map<string, Map<string, number>>();
  for (const s of sources) {
    for (const doc of [...s.titles, ...s.abstracts]) {
      for (const w of new Set(tokens(doc))) {
        if (w !== w.toLowerCase() && !/^[A-Z][a-z]+$/.test(w)) continue;
        const lw = w.toLowerCase();
        let per = docSources.get(lw);
        if (per === undefined) {
          per = new Map();
          docSources.set(lw, per);
        }
        per.set(s.name, (per.get(s.name) ?? 0) + 1);
      }
    }
  }
  const glue = new Set<string>();
  for (const [w, per] of docSources) {
    const total = [...per.values()].reduce((x, y) => x + y, 0);
    // A word nearly all of whose uses are in one source is that source's topic, not glue.
    const concentrated = Math.max(...per.values()) > 0.85 * total;
    if (per.size >= 2 && total >= 4 && !concentrated && /^[\p{L}]/u.test(w)) glue.add(w);
  }
  // Glue words are stored in lower case (the generator capitalises a sentence's first word).
  const isGlue = (w: string): boolean =>
    glue.has(w.toLowerCase()) && (w === w.toLowerCase() || /^[A-Z][a-z]+$/.test(w));

  // A sequence of glue words and slots; a capitalised run after "in"/"from" is a place.
  const shape = (words: readonly string[]): string[] => {
    const out: string[] = [];
    for (const w of words) {
      if (/^[,;:()]$/.test(w) || /^\d{1,4}$/.test(w)) {
        out.push(w);
        continue;
      }
      if (isGlue(w)) {
        out.push(w.toLowerCase());
        continue;
      }
      const prev = out[out.length - 1];
      if (prev === SLOT || prev === PLACE) continue;
      const place = /^[A-Z][a-z]/.test(w) && prev !== undefined && PREPOSITIONS_BEFORE_PLACE.has(prev);
      out.push(place ? PLACE : SLOT);
    }
    return out;
  };
  const titles = new ChainCounter();
  const abstracts = new ChainCounter();
  for (const s of sources) {
    for (const t of s.titles) {
      const seq = shape(tokens(t));
      if (seq.length >= 4 && seq.some((x) => x === SLOT)) titles.add(seq);
    }
    for (const a of s.abstracts)
      for (const sentence of sentences(a)) {
        const seq = shape(tokens(sentence));
        if (seq.length >= 5 && seq.some((x) => x === SLOT)) abstracts.add(seq);
      }
  }

  // Topic phrases per division, most frequent first (ties by phrase).
  const topicCounts = new Map<string, Map<string, number>>();
  // Words the real text writes in lower case: a topic starting with one is lower-cased inside a sentence.
  const lowerSeen = new Set<string>();
  for (const s of sources)
    for (const doc of [...s.titles, ...s.abstracts])
      for (const w of tokens(doc)) if (w === w.toLowerCase()) lowerSeen.add(w);
  const inSentence = (phrase: string): string =>
    phrase
      .split(' ')
      .map((w) => (/^[A-Z][a-z]+$/.test(w) && lowerSeen.has(w.toLowerCase()) ? w.toLowerCase() : w))
      .join(' ');
  const addTopic = (division: string, raw: string): void => {
    const phrase = inSentence(cleanPhrase(raw));
    if (phrase.length < 3 || phrase.split(' ').length > 6) return;
    let m = topicCounts.get(division);
    if (m === undefined) {
      m = new Map();
      topicCounts.set(division, m);
    }
    m.set(phrase, (m.get(phrase) ?? 0) + 1);
  };
  for (const s of sources) for (const [division, phrase] of s.topics) addTopic(division, phrase);
  // FoR labels take every other rank, so each division's common topics include its own fields.
  const labels = new Map<string, string[]>();
  for (const [division, label] of forTopics(dir))
    labels.set(division, [...(labels.get(division) ?? []), inSentence(cleanPhrase(label))]);

  const vocab: string[] = [];
  const index = new Map<string, number>();
  const id = (t: string): number => {
    let k = index.get(t);
    if (k === undefined) {
      k = vocab.length;
      vocab.push(t);
      index.set(t, k);
    }
    return k;
  };
  id('');
  const pack = (chain: ChainCounter): TextModelData['titles'] =>
    [...chain.counts]
      .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      .map(([key, next]) => {
        const [a, b] = key.split('\u0000') as [string, string];
        const sorted = [...next].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
        return [id(a), id(b), sorted.map(([t]) => id(t)), sorted.map(([, n]) => n)];
      });
  const packedTitles = pack(titles);
  const packedAbstracts = pack(abstracts);
  const topics: Record<string, [string, number][]> = {};
  for (const division of [...new Set([...topicCounts.keys(), ...labels.keys()])].sort()) {
    const corpus = [...(topicCounts.get(division) ?? new Map<string, number>())].sort(
      (x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1),
    );
    const own = (labels.get(division) ?? []).filter((l) => !corpus.some(([p]) => p === l));
    const merged: [string, number][] = [];
    for (let k = 0; k < Math.max(corpus.length, own.length); k++) {
      if (k < own.length) merged.push([own[k] as string, 1]);
      if (k < corpus.length) merged.push(corpus[k] as [string, number]);
    }
    topics[division] = merged;
  }
  return {
    sources: sources.map(
      (s) => `${s.name}: ${s.titles.length} titles, ${s.abstracts.filter((a) => a).length} abstracts`,
    ),
    vocab,
    titles: packedTitles,
    abstracts: packedAbstracts,
    topics,
  };
}
