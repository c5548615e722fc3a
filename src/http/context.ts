import type { AccountService } from '../accounts/service.ts';
import type { Clock } from '../identity/clock.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { QuarryConfig } from '../config.ts';
import type { QueryEngine } from '../engine/types.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { ServiceMetrics } from './metrics.ts';
import type { VersionPolicy } from './versions.ts';

/** Everything the route modules share; built once by `build()`. */
export interface ServiceContext {
  readonly config: QuarryConfig;
  readonly engine: QueryEngine;
  readonly accounts: AccountService;
  readonly tokens: TokenService;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly metrics: ServiceMetrics;
  readonly versions: VersionPolicy;
  /** Why the record database must not be served now, or undefined (see AppDeps). */
  readonly recordsNotReady: () => string | undefined;
}
