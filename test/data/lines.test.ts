// The import splits its inputs into lines on the bytes (src/data/import/lines.ts): the lines
// must be exactly those node's readline gives (LF, CRLF and a lone CR as breaks, a last line
// without a break kept), however the bytes are cut into chunks, multi-byte characters too.
import assert from 'node:assert/strict';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { splitLines } from '../../src/data/import/lines.ts';

const TEXTS = [
  '',
  'a',
  'a\n',
  'a\n\n',
  '\n',
  'a\r\nb',
  'a\rb',
  'a\r',
  'a\r\n',
  'x\r\r\ny',
  '\r\n\r\n',
  'é\nü\r\n€x',
  '{"id": "pub.1", "title": "Über die Größe"}\n{"id": "pub.2", "title": "東京"}\r\nlast',
];

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

test('lines split on the bytes are the lines readline gives, at every cut into three chunks', async () => {
  let compared = 0;
  for (const text of TEXTS) {
    const bytes = Buffer.from(text);
    for (let first = 0; first <= bytes.length; first++)
      for (let second = first; second <= bytes.length; second++) {
        const chunks = [bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)].filter(
          (c) => c.length > 0,
        );
        const expected = await collect(createInterface({ input: Readable.from(chunks), crlfDelay: Infinity }));
        assert.deepEqual(
          await collect(splitLines(Readable.from(chunks))),
          expected,
          `${JSON.stringify(text)} cut at ${first}, ${second}`,
        );
        compared++;
      }
  }
  assert.ok(compared > 1000);
});
