/**
 * The frame every page shares: head (local style sheet only), a header with navigation that
 * depends on who is signed in, the main content, and the sign-out form.
 */
import type { Account } from '../identity/account-types.ts';
import { renderErrorBody, type QuarryError } from '../errors/index.ts';
import { html, type Html, type HtmlValue } from './html.ts';

/** What a page needs to know about the request it answers. */
export interface PageContext {
  readonly account: Account | undefined;
  readonly isAdmin: boolean;
  readonly csrfToken: string;
  /** The request path, to mark the current navigation entry. */
  readonly path: string;
  readonly assets: { readonly stylesUrl: string; readonly consoleUrl: string; readonly pageUrl: string };
}

export interface PageOptions {
  readonly title: string;
  readonly body: HtmlValue;
  /** Extra elements at the end of `<body>` (the console's script). */
  readonly scripts?: HtmlValue;
}

function navLink(ctx: PageContext, href: string, label: string): Html {
  return html`<li><a href="${href}"${ctx.path === href ? html` aria-current="page"` : ''}>${label}</a></li>`;
}

/** A hidden form field carrying the CSRF token; every form includes one. */
export function csrfField(ctx: PageContext): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}">`;
}

export function page(ctx: PageContext, options: PageOptions): Html {
  const { account } = ctx;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Quarry</title>
<link rel="stylesheet" href="${ctx.assets.stylesUrl}">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip-link" href="#main">Skip to the content</a>
<header class="site">
  <div class="bar">
    <a class="brand" href="/">Quarry</a>
    <nav aria-label="Main">
      <ul>
        ${navLink(ctx, '/', 'API home')}
        ${account && navLink(ctx, '/console', 'Query console')}
        ${account && navLink(ctx, '/account', 'Account')}
        ${ctx.isAdmin && navLink(ctx, '/admin', 'Administration')}
        <li><a href="/docs">API reference</a></li>
        <li><a href="/docs/language">Query language</a></li>
      </ul>
    </nav>
    ${
      account
        ? html`<span class="who">Signed in as ${account.email}</span>
    <form method="post" action="/sign-out">${csrfField(ctx)}<button type="submit" class="secondary">Sign out</button></form>`
        : html`<a href="/#sign-in">Sign in</a>`
    }
  </div>
</header>
<main id="main" tabindex="-1">
${options.body}
</main>
<script type="module" src="${ctx.assets.pageUrl}"></script>
${options.scripts}
</body>
</html>`;
}

/**
 * An error as the API renders it (spec/protocol.md §4): header, details, code; the same
 * words a client of the API would print.
 */
export function errorBox(error: QuarryError): Html {
  const { query } = renderErrorBody(error, { dslVersion: 2 }).errors;
  return html`<div class="error-box" role="alert" data-code="${query.code}">
  <h2>${query.header}</h2>
  <ul>${query.details.map((d) => html`<li>${d}</li>`)}</ul>
  <p class="error-code">Code: ${query.code}</p>
</div>`;
}

/** A short confirmation shown after an action (`?notice=` names one of a fixed set). */
export function noticeBox(text: string | undefined, kind: 'ok' | 'warn' = 'ok'): Html | undefined {
  return text === undefined ? undefined : html`<div class="notice ${kind}" role="status">${text}</div>`;
}

/** `2026-11-22T21:04:47.123Z` → `2026-11-22 21:04 UTC`; null → the fallback. */
export function when(iso: string | null, fallback = 'never'): string {
  return iso === null ? fallback : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
