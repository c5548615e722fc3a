// Debian's chromium driven by playwright-core for the page tests, plus two checks every
// page gets: an axe-core accessibility scan (axe from npm, injected into the page) and
// screenshots at a laptop width (1366 px) and a phone width (390 px) in test-results/web/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SHOTS = fileURLToPath(new URL('../../../test-results/web/', import.meta.url));
export const WIDE = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/**
 * A context for one test file. `bypassCSP` lets `page.addScriptTag` inject axe into pages
 * whose Content-Security-Policy allows only this server's scripts (browser.test.ts keeps the
 * policy on and checks the pages work under it). Requests to other hosts are refused and
 * recorded in `external`.
 */
export async function newContext(
  browser: Browser,
  serverUrl: string,
): Promise<{ context: BrowserContext; page: Page; external: string[] }> {
  const context = await browser.newContext({ viewport: WIDE, bypassCSP: true, acceptDownloads: true });
  const external: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(serverUrl) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    external.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => assert.fail(`script error in the page: ${error.message}`));
  return { context, page, external };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules plus best practices) on the page as it is and
 * fails with each violation's rule and elements. `disabledRules` leaves rules out (the
 * caller says why).
 */
export async function assertAccessible(
  page: Page,
  what: string,
  options: { readonly disabledRules?: readonly string[] } = {},
): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const rules = Object.fromEntries((options.disabledRules ?? []).map((rule) => [rule, { enabled: false }]));
  const violations = await page.evaluate(async (rules) => {
    const axe = (
      window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules,
    });
    return result.violations;
  }, rules);
  const summary = (violations as AxeViolation[]).map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(summary, [], `axe found violations on ${what}`);
}

/**
 * Full-page screenshots at 1366 and 390 px (`NAME-1366.png`, `NAME-390.png`); the page must
 * not scroll sideways at 390 px. The viewport is left at 1366 px.
 */
export async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: join(SHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize(WIDE);
  assert.ok(overflow <= 0, `${name} is ${overflow}px wider than a 390px screen`);
}

/** Signs in through the home page's password form. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('E-mail address (or username)').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${baseUrl}/`);
}
