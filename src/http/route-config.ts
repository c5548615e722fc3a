import type { Family } from '../identity/account-types.ts';
import type { Principal } from '../auth/principal.ts';
import type { DslVersion } from '../engine/types.ts';

/** Which rate-limit rule of the configuration governs a route. */
export type LimitRule = 'tokenV2' | 'tokenV3' | 'authPath' | 'authentication';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The API family the route belongs to; decides the WWW-Authenticate scheme on 401. */
    family?: Family;
    /** The rate-limit rule for the route; routes without one are not limited. */
    limitRule?: LimitRule;
    /**
     * The route's label in /metrics when its URL is not a pattern (assets named by a content
     * hash): one series per kind of route, not one per build.
     */
    metricsRoute?: string;
  }
  interface FastifyRequest {
    /** The DSL version the request runs under; error bodies are rendered for it. */
    dslVersion: DslVersion;
    principal: Principal | null;
    /**
     * The DSL text of a query request once it has been read, echoed in its error body;
     * null before then and on every other route (login bodies and keys are never echoed).
     */
    queryText: string | null;
  }
}
