import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeHtml, html, jsonIsland, raw } from '../../src/web/html.ts';

describe('html template', () => {
  test('escapes every interpolation, in content and attributes', () => {
    const name = `<script>alert("x")</script>'&\``;
    assert.equal(
      html`<p title="${name}">${name}</p>`.toString(),
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;</p>',
    );
  });

  test('nests templates without escaping them twice, joins lists, drops empty values', () => {
    const items = ['a<b', 'c'];
    assert.equal(
      html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`.toString(),
      '<ul><li>a&lt;b</li><li>c</li></ul>',
    );
    assert.equal(html`[${null}${undefined}${false}${0}]`.toString(), '[0]');
    assert.equal(html`${raw('<br>')}`.toString(), '<br>');
  });

  test('a JSON island cannot close its script element', () => {
    const island = jsonIsland({ q: '</script><script>alert(1)</script>', amp: 'a&b', ls: '\u2028' }).toString();
    assert.ok(!island.includes('</script'));
    assert.ok(!island.includes('&'));
    assert.deepEqual(JSON.parse(island), { q: '</script><script>alert(1)</script>', amp: 'a&b', ls: '\u2028' });
  });

  test('escapeHtml leaves ordinary text alone', () => {
    assert.equal(escapeHtml('Saarbrücken 乳がん'), 'Saarbrücken 乳がん');
  });
});
