/**
 * A one-time message carried across a POST-redirect-GET: a secret shown once (a new API key,
 * a login code) must survive the redirect but never a reload. It travels in an HTTP-only
 * cookie, encrypted (AES-256-GCM) under a key derived from the browser's session secret,
 * which the server never stores (only its hash). So the cookie alone reveals nothing, it is
 * readable only with the session that made it, and the GET that shows it also deletes it.
 *
 * @example
 * setFlash(request, reply, { kind: 'new-key', key, name });   // in the POST, then redirect
 * const flash = takeFlash(request, reply);                    // in the GET: once
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions } from './session.ts';

export const FLASH_COOKIE = 'quarry_flash';
/** Long enough for the redirect, short enough that a stale flash is never shown. */
const FLASH_LIFETIME_MS = 5 * 60 * 1000;

export type Flash =
  | { readonly kind: 'new-key'; readonly key: string; readonly name: string; readonly rotatedFrom?: string }
  | { readonly kind: 'login-code'; readonly email: string; readonly code: string; readonly expiresAt: string };

function keyFor(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'quarry-flash', 'one-time page message', 32));
}

/** Seals the flash for the current session; without a session nothing is set. */
export function setFlash(request: FastifyRequest, reply: FastifyReply, flash: Flash): void {
  const secret = request.web.sessionId;
  if (secret === undefined) return;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  const body = JSON.stringify({ flash, until: Date.now() + FLASH_LIFETIME_MS });
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  reply.setCookie(FLASH_COOKIE, value, { ...cookieOptions(request), sameSite: 'strict' });
}

/** The flash of this session, once: the cookie is cleared whatever it held. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply): Flash | undefined {
  const value = request.cookies[FLASH_COOKIE];
  if (value === undefined) return undefined;
  reply.clearCookie(FLASH_COOKIE, { ...cookieOptions(request), sameSite: 'strict' });
  const secret = request.web.sessionId;
  if (secret === undefined) return undefined;
  try {
    const raw = Buffer.from(value, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const { flash, until } = JSON.parse(text) as { flash: Flash; until: number };
    return until > Date.now() ? flash : undefined;
  } catch {
    // Another session's flash, a tampered or truncated cookie: nothing to show.
    return undefined;
  }
}
