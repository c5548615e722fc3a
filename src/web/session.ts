/**
 * Who is behind a page request: the session cookie (its secret; only a hash is stored by the
 * account service) resolved to an account, and whether that account administers the
 * service. The cookie is HTTP-only, SameSite=Lax, and Secure whenever the request came over
 * HTTPS (directly, or through a proxy the operator trusts).
 */
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../identity/account-types.ts';
import { QuarryError } from '../errors/index.ts';

export const SESSION_COOKIE = 'quarry_session';

export interface WebState {
  account: Account | undefined;
  /** The cookie's secret, to end the session on sign-out. */
  sessionId: string | undefined;
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the web plugin for its own routes. */
    web: WebState;
  }
}

export function cookieOptions(request: FastifyRequest, expires?: Date): CookieSerializeOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(expires ? { expires } : {}),
  };
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  expiresAt: string,
): void {
  reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions(request, new Date(expiresAt)));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

/** The signed-in account, or WEB_SIGN_IN_REQUIRED. */
export function requireAccount(request: FastifyRequest): Account {
  const { account } = request.web;
  if (!account) throw QuarryError.of('WEB_SIGN_IN_REQUIRED');
  return account;
}

/** A local path to return to after signing in; anything else (other hosts, `//x`) becomes `/`. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[\w\-./?=&%]*$/.test(next) ? next : '/';
}
