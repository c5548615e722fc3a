/**
 * The one way pages build HTML: a tagged template that escapes every interpolation unless
 * it is already `Html` (the result of another `html` template, or `raw()` for the few
 * trusted fragments such as an inline JSON island). Arrays are joined, so lists render with
 * `${items.map((i) => html`<li>${i}</li>`)}`; `null`, `undefined` and `false` render as
 * nothing, so conditional parts can be written `${cond && html`...`}`.
 *
 * @example
 * html`<p title="${name}">${name}</p>`.toString() // name = '<b>' → '<p title="&lt;b&gt;">&lt;b&gt;</p>'
 */
export class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => ESCAPES[ch] ?? ch);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Marks trusted markup as already safe. Never pass user input. */
export function raw(text: string): Html {
  return new Html(text);
}

/**
 * JSON for an inline `<script type="application/json">` island: `<`, `>` and `&` (and the
 * line separators JavaScript once disallowed) become escapes, so no value can close the
 * script element.
 */
export function jsonIsland(value: unknown): Html {
  const text = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new Html(text);
}
