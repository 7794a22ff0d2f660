// One row of the operation table (routes.ts, and the files whose rows it spreads into its own): its
// name, method, path, success status and rate-limit category. No imports, so that every part of the
// table can take `route` from here without importing routes.ts.
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
/** Rate-limit categories of the service (ground truth, "Rate limits"). */
export type RateCategory = 'trigger' | 'configuration' | 'global';

export interface Route {
  /** Stable name, used by the client, the server's handler table and the tests. */
  name: string;
  method: HttpMethod;
  /** Path template with `{param}` placeholders. */
  path: string;
  summary: string;
  /** The operation's number in api-spec.md, when it has one. */
  specNumber?: number;
  status: number;
  category: RateCategory;
  /** Bulk calls cost this many tokens of the rate limit. */
  cost?: number;
  /** Who calls it: an API key (absent), or an Inbox client: `subscriber` (a session token) or `session` (inbox-routes.ts). */
  auth?: 'subscriber' | 'session';
}

/** A row, checked as a Route where it is written and keeping its literal types. */
export const route = <T extends Route>(r: T): T => r;
