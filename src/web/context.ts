/** What the web routes share, built once by the plugin. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../accounts/service.ts';
import type { Clock } from '../identity/clock.ts';
import type { QuarryConfig } from '../config.ts';
import type { QueryEngine } from '../engine/types.ts';
import type { ServiceContext } from '../http/context.ts';
import type { LoginCodeStore, WebStore } from '../store/web.ts';
import type { Assets } from './assets.ts';
import type { PageContext } from './layout.ts';
import { cookieOptions } from './session.ts';
import type { GroupAdministration } from '../store/organization-groups.ts';

export interface WebContext {
  readonly accounts: AccountService;
  readonly config: QuarryConfig;
  readonly engine: QueryEngine;
  readonly clock: Clock;
  readonly store: WebStore;
  readonly loginCodes: LoginCodeStore;
  /** The API's context: its query handler and rate limiter serve the pages too. */
  readonly service: ServiceContext;
  readonly assets: Assets;
  /** The organization groups `/admin/groups` defines; absent, the page is not offered. */
  readonly groups?: GroupAdministration;
}

/** The page context of a request: who is signed in, a fresh CSRF token, asset URLs. */
export function pageContext(ctx: WebContext, request: FastifyRequest, reply: FastifyReply): PageContext {
  return {
    account: request.web.account,
    isAdmin: request.web.isAdmin,
    csrfToken: reply.generateCsrf(cookieOptions(request)),
    path: request.url.split('?')[0] ?? '/',
    assets: assetUrls(ctx.assets),
  };
}

/** The content-hashed addresses of the style sheet and scripts every page links. */
export function assetUrls(assets: Assets): PageContext['assets'] {
  return {
    stylesUrl: `/assets/quarry.${assets.styles.hash}.css`,
    consoleUrl: `/assets/console.${assets.consoleJs.hash}.js`,
    pageUrl: `/assets/page.${assets.pageJs.hash}.js`,
  };
}

/** This server's address as the browser reached it, for the curl examples. */
export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** A form field as one trimmed string ('' when absent or repeated oddly). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A form field that may repeat (checkboxes), as a list of strings. */
export function fieldList(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Short confirmations after a redirect; `?notice=` may only name one of these. */
export const NOTICES: Readonly<Record<string, string>> = {
  'signed-out': 'You are signed out.',
  'key-revoked': 'The key is revoked: tokens issued for it no longer work.',
  requested:
    'Thank you: your request is recorded. The administrator will activate the account and tell you how to sign in.',
  'password-changed': 'Your password is changed.',
  activated: 'The account is activated.',
  suspended: 'The account is suspended; its tokens stop working from the next request.',
  'subscription-saved': 'The subscription is saved.',
};

export function noticeOf(request: FastifyRequest): string | undefined {
  const name = (request.query as Record<string, unknown> | undefined)?.notice;
  return typeof name === 'string' ? NOTICES[name] : undefined;
}
