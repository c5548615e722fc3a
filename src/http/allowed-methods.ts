import type { FastifyInstance } from 'fastify';

/**
 * Which methods each registered path answers, so a request for a known path with another
 * method gets 405 with an `Allow` header rather than 404. Parametric and wildcard routes
 * (`/keys/:id`, `/assets/*`) match by pattern.
 */
export class AllowedMethods {
  readonly #routes: Array<{ readonly pattern: RegExp; readonly methods: Set<string> }> = [];

  /** Records every route registered on `app` from now on (call before registering routes). */
  track(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      this.add(route.url, methods);
    });
  }

  add(path: string, methods: readonly string[]): void {
    const source = path
      .split('/')
      .map((part) =>
        part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    const existing = this.#routes.find((r) => r.pattern.source === pattern.source);
    if (existing) for (const m of methods) existing.methods.add(m.toUpperCase());
    else this.#routes.push({ pattern, methods: new Set(methods.map((m) => m.toUpperCase())) });
  }

  /** The methods `path` answers, sorted; empty when no route has that path. */
  of(path: string): string[] {
    const found = new Set<string>();
    for (const route of this.#routes) if (route.pattern.test(path)) for (const m of route.methods) found.add(m);
    return [...found].sort();
  }
}
