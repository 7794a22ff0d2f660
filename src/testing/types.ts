// The public types of `svc-cli/testing` (the build writes them, as they are here, into
// dist/testing.d.ts beside the declarations of index.ts's two runtime exports). Types only: no imports.
export interface StartOptions {
  /** No demo data: an environment with its keys and built-in integrations only. */
  empty?: boolean;
  /** `'manual'`: service time stands still until `clock.advance()` (the default for tests); `'real'`: it runs. */
  clock?: 'manual' | 'real';
  /** The first environment's secret key (generated otherwise). */
  apiKey?: string;
  /** A store file to keep (in memory otherwise). */
  data?: string;
}

/** A message as the service's API answers it (`GET /v1/messages`), with its rendered content. */
export type Message = Record<string, unknown> & { _id: string; channel: string; subscriberId?: string; content?: unknown };

export interface MessageQuery {
  subscriberId: string;
  workflowId?: string;
  channel?: 'in_app' | 'email' | 'sms' | 'chat' | 'push';
  transactionId?: string;
  /** Part of the subject, title or text, in any case. */
  contains?: string;
  /** Only messages stored at or after this service time (default: the service's start or last reset). */
  since?: Date | string;
  /** Milliseconds to wait (default 10,000). */
  timeout?: number;
}

export interface Environment {
  /** The environment's database id. */
  id: string;
  name: string;
  apiKey: string;
  applicationIdentifier: string;
  /** The same service, for this environment: its URL (shared) and key. */
  url: string;
}

export interface Clock {
  /** Service time, and how it runs. */
  now(): Promise<{ mode: 'real' | 'scaled' | 'manual'; now: Date }>;
  /**
   * Moves service time forward by `duration` (milliseconds, or `'1h'`, `'90s'`, `'2d'`) and runs what
   * comes due meanwhile (delays, digests, throttle windows), in time order, before it resolves.
   */
  advance(duration: number | string): Promise<{ mode: 'real' | 'scaled' | 'manual'; now: Date }>;
}

export interface LocalServiceHandle {
  /** The API's base URL, e.g. `http://127.0.0.1:43121`: the SDK's `serverURL`, the Inbox's backendUrl and socketUrl. */
  url: string;
  apiKey: string;
  applicationIdentifier: string;
  environmentId: string;
  /** A new environment with its own keys: nothing of another environment is visible from it. */
  newEnvironment(name?: string): Promise<Environment>;
  /** The whole store back to its start state (demo data, or none with `{ empty: true }`). */
  reset(opts?: { empty?: boolean }): Promise<void>;
  clock: Clock;
  /** The first message that matches, as soon as it is stored; rejects when `timeout` passes. */
  waitForMessage(query: MessageQuery): Promise<Message>;
  /**
   * A fetch for the official SDK: `new Novu({ serverURL: svc.url, secretKey: svc.apiKey, httpClient:
   * new HTTPClient({ fetcher: svc.sdkFetch }) })`. svc dev answers enum values with the spec's names
   * (`svc-cloud`), which the SDK's checks know as `novu-cloud`: it renames them in JSON answers.
   */
  sdkFetch: typeof fetch;
  /** Stops the service. */
  stop(): Promise<void>;
}
