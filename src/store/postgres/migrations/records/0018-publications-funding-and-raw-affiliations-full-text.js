// name: publications: the funding and raw_affiliations full-text indexes
// Records migration 18 (PostgreSQL): written by hand (docs/storage.md, "Migrations are frozen").
// Never edit it; a change of the layout is a new migration (docs/storage.md).
//
// Two vector columns of publications, each with its GIN index, filled from the records held:
// `fts_funding` (the funding section and the held funders' names) and `fts_raw_affiliations`
// (the authors' affiliation strings as printed, or an affiliation's name where the author
// has none). Code, not SQL, because the words must be cut as the writer cuts them (case and
// diacritics folded, letters and digits only: src/model/index-words.ts), which PostgreSQL's
// own parser does not do; that cutting is copied here, so this file stays what it was.

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

/** Distinct non-empty texts joined for one full-text column. */
const joined = (texts) => [...new Set(texts.filter((t) => t !== ''))].join(' ; ');

function fundingText(doc, heldFunders) {
  const named = list(doc.funders).flatMap((o) => (isObject(o) ? [text(o.name)] : []));
  return joined([text(doc.funding_section), ...named, ...list(heldFunders).map(text)]);
}

function rawAffiliationsText(doc) {
  const texts = [];
  for (const author of list(doc.authors)) {
    if (!isObject(author)) continue;
    const printed = list(author.raw_affiliation).map(text);
    texts.push(...printed);
    for (const affiliation of list(author.affiliations)) {
      if (!isObject(affiliation)) continue;
      texts.push(text(affiliation.raw_affiliation) || (printed.length === 0 ? text(affiliation.name) : ''));
    }
  }
  return joined(texts);
}

/** @param {import('pg').PoolClient} client */
export default async function up(client) {
  await client.query(
    `ALTER TABLE publications ADD COLUMN IF NOT EXISTS fts_funding tsvector NOT NULL DEFAULT ''::tsvector, ` +
      `ADD COLUMN IF NOT EXISTS fts_raw_affiliations tsvector NOT NULL DEFAULT ''::tsvector`,
  );
  let after = 0;
  for (;;) {
    const { rows } = await client.query(
      `SELECT p.pk, p.doc, (SELECT array_agg(o.name ORDER BY o.name) FROM publication_funders f ` +
        `JOIN organizations o ON o.id = f.org_id WHERE f.publication_pk = p.pk) AS funders ` +
        `FROM publications p WHERE p.pk > $1 ORDER BY p.pk LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) break;
    const pks = [];
    const funding = [];
    const affiliations = [];
    for (const row of rows) {
      const doc = isObject(row.doc) ? row.doc : {};
      pks.push(row.pk);
      funding.push(indexText(fundingText(doc, row.funders)));
      affiliations.push(indexText(rawAffiliationsText(doc)));
    }
    await client.query(
      `UPDATE publications p SET fts_funding = setweight(to_tsvector('simple', v.funding), 'D'), ` +
        `fts_raw_affiliations = setweight(to_tsvector('simple', v.affiliations), 'D') ` +
        `FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(pk, funding, affiliations) WHERE p.pk = v.pk`,
      [pks, funding, affiliations],
    );
    after = rows[rows.length - 1].pk;
  }
  await client.query('CREATE INDEX IF NOT EXISTS publications_fts_funding_gin ON publications USING gin (fts_funding)');
  await client.query(
    'CREATE INDEX IF NOT EXISTS publications_fts_raw_affiliations_gin ON publications USING gin (fts_raw_affiliations)',
  );
}
