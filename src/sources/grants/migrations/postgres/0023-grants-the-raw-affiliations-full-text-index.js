// name: grants: the raw_affiliations full-text index
// Records migration 23 (PostgreSQL): written by hand (docs/storage.md, "Migrations are frozen").
// Never edit it; a change of the layout is a new migration (docs/storage.md).
//
// A vector column of grants with its GIN index, filled from the records held:
// `fts_raw_affiliations` (the investigators' affiliation strings as the funder gives them, or
// an affiliation's name where the investigator has none). Code, not SQL, because the words
// must be cut as the writer cuts them (case and diacritics folded, letters and digits only:
// src/model/index-words.ts), which PostgreSQL's own parser does not do; that cutting is
// copied here, as in records migration 18, so this file stays what it was.

/** Records read and written per statement. */
const BATCH = 2000;

/** Lower case without diacritics, letters and digits only, as the unicode61 tokenizer cuts words. */
function indexText(text) {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .join(' ');
}

const text = (value) => (typeof value === 'string' ? value : '');
const list = (value) => (Array.isArray(value) ? value : []);
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function rawAffiliationsText(doc) {
  const texts = [];
  for (const investigator of list(doc.investigators)) {
    if (!isObject(investigator)) continue;
    const printed = list(investigator.raw_affiliation).map(text);
    texts.push(...printed);
    for (const affiliation of list(investigator.affiliations)) {
      if (!isObject(affiliation)) continue;
      texts.push(text(affiliation.raw_affiliation) || (printed.length === 0 ? text(affiliation.name) : ''));
    }
  }
  return [...new Set(texts.filter((t) => t !== ''))].join(' ; ');
}

/** @param {import('pg').PoolClient} client */
export default async function up(client) {
  await client.query(
    `ALTER TABLE grants ADD COLUMN IF NOT EXISTS fts_raw_affiliations tsvector NOT NULL DEFAULT ''::tsvector`,
  );
  let after = 0;
  for (;;) {
    const { rows } = await client.query(
      `SELECT g.pk, g.doc FROM grants g WHERE g.pk > $1 ORDER BY g.pk LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) break;
    const pks = [];
    const affiliations = [];
    for (const row of rows) {
      pks.push(row.pk);
      affiliations.push(indexText(rawAffiliationsText(isObject(row.doc) ? row.doc : {})));
    }
    await client.query(
      `UPDATE grants g SET fts_raw_affiliations = setweight(to_tsvector('simple', v.affiliations), 'D') ` +
        `FROM unnest($1::bigint[], $2::text[]) AS v(pk, affiliations) WHERE g.pk = v.pk`,
      [pks, affiliations],
    );
    after = rows[rows.length - 1].pk;
  }
  await client.query(
    'CREATE INDEX IF NOT EXISTS grants_fts_raw_affiliations_gin ON grants USING gin (fts_raw_affiliations)',
  );
}
