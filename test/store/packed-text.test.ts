// The packed text format of the SQLite store (store/sqlite/packed-text.ts): values come back
// exactly, short or incompressible values stay text, and a value naming a dictionary the
// database does not hold is refused rather than returned as garbage.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { MIN_PACKED_BYTES, packText, unpackText, type TextDictionary } from '../../src/store/sqlite/packed-text.ts';
import Database from 'better-sqlite3';
import { codecOf } from '../../src/store/sqlite/text-codecs.ts';
import {
  SHIPPED_DICTIONARIES_V1,
  SHIPPED_DICTIONARIES_V2,
  SHIPPED_DICTIONARIES_V3,
  allShippedDictionaries,
  readShippedDictionaries,
  shippedDictionaries,
  registerUnpackText,
  storeDictionaries,
  TEXT_DICTIONARIES_SQL,
} from '../../src/store/sqlite/text-dictionaries.ts';

const shipped = allShippedDictionaries();
// The newest release's: what rows pack with.
const docDictionary = shippedDictionaries().get('publications.doc')!;
const dictionary: TextDictionary = { id: docDictionary.id, bytes: docDictionary.bytes };
const dictionaries = new Map(shipped.map((d) => [d.id, d.bytes]));
/** The second release's document dictionary: deflate, as in databases packed before the third. */
const deflateDictionary: TextDictionary = (() => {
  const d = readShippedDictionaries(SHIPPED_DICTIONARIES_V2).find((x) => x.name === 'publications.doc')!;
  return { id: d.id, bytes: d.bytes };
})();

const doc = JSON.stringify({
  document_type: 'research_article',
  authors: [
    { first_name: 'Ana', last_name: 'Silva', researcher_id: 'ur.0123', affiliations: [{ id: 'grid.1', name: 'Uni' }] },
    { first_name: 'Ólafur', last_name: 'Guðmundsson', affiliations: [{ id: 'grid.2', name: 'Háskóli Íslands' }] },
    { first_name: '健', last_name: '佐藤', affiliations: [{ id: 'grid.3' }] },
  ],
  concepts: ['malaria', 'vaccine', 'dose'],
});

test('a packed value is a blob naming its dictionary, smaller than the text, and unpacks to the same text', () => {
  for (const text of [doc, `${'Malaria vaccines in children under five. '.repeat(40)}`, 'ž'.repeat(500)]) {
    const packed = packText(text, dictionary);
    assert.ok(packed instanceof Uint8Array, 'packed');
    assert.equal(packed[0], dictionary.id);
    assert.ok(packed.length < Buffer.byteLength(text, 'utf8'));
    assert.equal(unpackText(packed, dictionaries), text);
  }
});

test('rows pack with zstd; values packed with deflate (databases of earlier releases) keep reading', () => {
  assert.equal(codecOf(dictionary.bytes), 'zstd');
  assert.equal(codecOf(deflateDictionary.bytes), 'deflate');
  const zstdPacked = packText(doc, dictionary);
  const deflatePacked = packText(doc, deflateDictionary);
  assert.ok(zstdPacked instanceof Uint8Array && deflatePacked instanceof Uint8Array);
  assert.equal(deflatePacked[0], deflateDictionary.id);
  assert.equal(unpackText(deflatePacked, dictionaries), doc);
  assert.equal(unpackText(zstdPacked, dictionaries), doc);
  // Stored without zstd's frame magic number: byte 0 already says what follows.
  assert.notDeepEqual([...zstdPacked.subarray(1, 5)], [0x28, 0xb5, 0x2f, 0xfd]);
  // Values packed one after another do not share the compressor's scratch memory.
  const other = packText(doc.replace('Ana', 'Bea'), dictionary);
  assert.equal(unpackText(zstdPacked, dictionaries), doc);
  assert.equal(unpackText(other, dictionaries), doc.replace('Ana', 'Bea'));
});

test('a damaged zstd value is refused, not read as other text', () => {
  const packed = packText(doc, dictionary);
  assert.ok(packed instanceof Uint8Array);
  const cut = packed.subarray(0, packed.length - 10);
  assert.throws(() => unpackText(cut, dictionaries));
  const flipped = Buffer.from(packed);
  flipped[2] = (flipped[2] as number) ^ 0xff;
  assert.throws(() => unpackText(flipped, dictionaries));
});

test("long values pack and unpack whole (a document far larger than the compressor's first scratch buffer)", () => {
  const long = JSON.stringify({
    authors: Array.from({ length: 4000 }, (_, i) => ({ last_name: `Name${i}`, id: `ur.${i}` })),
  });
  assert.ok(long.length > 128 * 1024);
  const packed = packText(long, dictionary);
  assert.ok(packed instanceof Uint8Array);
  assert.equal(unpackText(packed, dictionaries), long);
});

test("a packed value's memory holds no copy of its text: handing values to another thread copies what is stored", () => {
  // Values under 4 KiB made by Buffer.from share Node's 8 KiB pool blocks, and a message to
  // another thread copies every block a value touches whole.
  // Texts of this test alone: unpacking a value elsewhere puts its text in the pool too.
  const texts = [
    doc.replace('Ana', 'Zoë'),
    `${'Dengue vaccines in adults over sixty. '.repeat(40)}`,
    doc.replace('Ana', 'Ida'),
  ];
  const packed = texts.map((text) => packText(text, dictionary));
  for (const value of packed) {
    assert.ok(value instanceof Uint8Array);
    const memory = Buffer.from(value.buffer, 0, value.buffer.byteLength);
    // Buffer.alloc never takes from the pool, so the bytes looked for are not found in it themselves.
    for (const text of texts) {
      const bytes = Buffer.alloc(Buffer.byteLength(text, 'utf8'));
      bytes.write(text, 'utf8');
      assert.equal(memory.indexOf(bytes), -1);
    }
  }
  packed.forEach((value, k) => assert.equal(unpackText(value, dictionaries), texts[k]));
  // Text of three UTF-8 bytes a character, longer than the first buffer its bytes are written to.
  const wide = `${'健康と病気 '.repeat(4000)}`;
  const widePacked = packText(wide, dictionary);
  assert.ok(widePacked instanceof Uint8Array);
  assert.equal(unpackText(widePacked, dictionaries), wide);
});

test('the dictionary pays: a document packs smaller with it than without one', () => {
  const empty: TextDictionary = { id: 1, bytes: new Uint8Array(0) };
  const withDictionary = packText(doc, dictionary);
  const without = packText(doc, empty);
  assert.ok(withDictionary instanceof Uint8Array && without instanceof Uint8Array);
  assert.ok(withDictionary.length < without.length, `${withDictionary.length} < ${without.length}`);
});

test('short, empty and incompressible values stay text', () => {
  assert.equal(packText('', dictionary), '');
  const short = 'x'.repeat(MIN_PACKED_BYTES - 1);
  assert.equal(packText(short, dictionary), short);
  // Printable noise: deflate spends a byte or more on each character, so packing cannot win.
  const noise = String.fromCharCode(...randomBytes(MIN_PACKED_BYTES + 8).map((b) => 0x21 + (b % 94)));
  assert.equal(packText(noise, dictionary), noise);
});

test('text and NULL read as they are (databases written before packing)', () => {
  assert.equal(unpackText(doc, dictionaries), doc);
  assert.equal(unpackText('', dictionaries), '');
  assert.equal(unpackText(null, dictionaries), null);
});

test('SQL reads the same text through unpack_text and CAST(unpack_utf8(...) AS TEXT), packed or not', () => {
  const db = new Database(':memory:');
  try {
    db.exec(TEXT_DICTIONARIES_SQL);
    storeDictionaries(db, shipped);
    registerUnpackText(db);
    const read = db.prepare<[{ v: unknown }], { text: string | null; utf8: string | null; types: string }>(
      `SELECT unpack_text(@v) AS text, CAST(unpack_utf8(@v) AS TEXT) AS utf8,
         typeof(unpack_text(@v)) || ' ' || typeof(CAST(unpack_utf8(@v) AS TEXT)) AS types`,
    );
    const packed = packText(doc, dictionary);
    assert.ok(packed instanceof Uint8Array);
    assert.deepEqual(read.get({ v: packed }), { text: doc, utf8: doc, types: 'text text' });
    assert.deepEqual(read.get({ v: doc }), { text: doc, utf8: doc, types: 'text text' });
    const name = db.prepare<[unknown], string>(
      "SELECT json_extract(CAST(unpack_utf8(?) AS TEXT), '$.authors[2].last_name')",
    );
    assert.equal(name.pluck().get(packed), '佐藤');
    assert.deepEqual(read.get({ v: '' }), { text: '', utf8: '', types: 'text text' });
    assert.deepEqual(read.get({ v: null }), { text: null, utf8: null, types: 'null null' });
  } finally {
    db.close();
  }
});

test('a value naming a dictionary the database does not hold is refused', () => {
  const packed = packText(doc, { id: 200, bytes: dictionary.bytes });
  assert.ok(packed instanceof Uint8Array);
  assert.throws(() => unpackText(packed, dictionaries), /dictionary 200/);
});

test('each release covers every packed column, ids are distinct in 1..255 across releases, within the deflate window', () => {
  const ids = shipped.map((d) => d.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const release of [SHIPPED_DICTIONARIES_V1, SHIPPED_DICTIONARIES_V2, SHIPPED_DICTIONARIES_V3]) {
    const dictionaries = readShippedDictionaries(release);
    for (const d of dictionaries) {
      assert.ok(d.id >= 1 && d.id <= 255);
      if (release === SHIPPED_DICTIONARIES_V3) {
        // zstd's own dictionaries: digested once a thread, so their length is not paid per value.
        assert.equal(codecOf(d.bytes), 'zstd', d.name);
        assert.ok(d.bytes.length > 16 * 1024 && d.bytes.length <= 112_640, d.name);
      } else {
        // Deflate's preset history: within its 32 KiB window.
        assert.equal(codecOf(d.bytes), 'deflate', d.name);
        assert.ok(d.bytes.length > 4096 && d.bytes.length <= 32 * 1024, d.name);
      }
    }
    assert.deepEqual(dictionaries.map((d) => d.name).sort(), [
      'grants.abstract',
      'grants.doc',
      'publications.abstract',
      'publications.doc',
    ]);
  }
});

test('rows are packed with the newest release of each column', () => {
  const newest = readShippedDictionaries(SHIPPED_DICTIONARIES_V3);
  for (const d of newest) assert.equal(shippedDictionaries().get(d.name)?.id, d.id, d.name);
});

test('the released dictionaries never change: values in existing databases name them by id', () => {
  // Changing a shipped dictionary would make the writer refuse every database made with the old
  // one (checkShippedDictionaries); better dictionaries come as a new file with new ids.
  // Deflate dictionaries are text, zstd's binary (the release files hold them as text and base64).
  const digest = (path: string): string =>
    createHash('sha256')
      .update(
        JSON.stringify(
          readShippedDictionaries(path).map((d) => [
            d.id,
            d.name,
            codecOf(d.bytes) === 'zstd' ? d.bytes.toString('base64') : d.bytes.toString('utf8'),
          ]),
        ),
      )
      .digest('hex');
  assert.equal(digest(SHIPPED_DICTIONARIES_V1), 'a7dd1b292d654a7d3f0c0bcb393cd6d67f456dc833da34469df857dad0ef86f2');
  assert.equal(digest(SHIPPED_DICTIONARIES_V2), 'd1b75fc2eaa69323ae878a17a62ced9535927f8b65d751760cbf5ad7042df4c7');
  assert.equal(digest(SHIPPED_DICTIONARIES_V3), '1c96e487b88656cb91992cc91fbbff5e9da4e363f114f4760b8bca6230948f43');
});
