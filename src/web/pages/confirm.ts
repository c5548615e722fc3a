/**
 * A confirmation step before an action that cannot be undone (revoking a key, suspending an
 * account): the action's button first leads here, and only the form on this page performs
 * it. It works without scripts, and a reload of this page changes nothing.
 */
import { html, type Html } from '../html.ts';
import { csrfField, page, type PageContext } from '../layout.ts';

export interface Confirmation {
  readonly title: string;
  /** What will happen, in a sentence or two. */
  readonly consequences: string;
  /** Where the form posts. */
  readonly action: string;
  readonly confirmLabel: string;
  readonly cancelHref: string;
  /** Extra hidden fields the action needs (`back`). */
  readonly fields?: Readonly<Record<string, string>>;
}

export function confirmPage(ctx: PageContext, c: Confirmation): Html {
  return page(ctx, {
    title: c.title,
    body: html`<h1>${c.title}</h1>
<div class="notice warn" role="note" id="confirm-consequences"><p>${c.consequences}</p></div>
<form method="post" action="${c.action}" class="card confirm-form">
  ${csrfField(ctx)}
  <input type="hidden" name="confirm" value="yes">
  ${Object.entries(c.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <div class="toolbar">
    <button type="submit" class="danger">${c.confirmLabel}</button>
    <a class="button secondary" href="${c.cancelHref}">Cancel</a>
  </div>
</form>`,
  });
}
