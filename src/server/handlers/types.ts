// What a route handler receives and how its answer is wrapped. Handlers are plain functions of a
// validated call: no fastify types, so they are tested without a socket and read like the rules.
import type { z } from 'zod';
import type { OperationName, operations } from '../../api/operations.js';
import { badRequest } from '../errors.js';
import type { Clock } from '../clock.js';
import type { JobRunner } from '../runner/loop.js';
import type { Environment, Store } from '../store/index.js';

export interface Service {
  store: Store;
  clock: Clock;
  runner: JobRunner;
}

type Ops = typeof operations;
type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type Field<O, F extends string> = O extends { [k in F]: infer S } ? Out<S> : undefined;

export interface Call<K extends OperationName> {
  env: Environment;
  params: Record<string, string>;
  query: Field<Ops[K], 'query'>;
  body: Field<Ops[K], 'body'>;
  svc: Service;
  /** `http://host:port` as the caller reached us, for links in answers. */
  baseUrl: string;
}

/** `data`: wrapped in `{data}`; `raw`: a paging envelope sent as is; `none`: 204 without a body. */
type Envelope = 'data' | 'raw' | 'none';

export interface Route<K extends OperationName> {
  envelope: Envelope;
  handle(call: Call<K>): unknown;
}

interface CursorArgs {
  after?: string | undefined;
  before?: string | undefined;
  includeCursor?: boolean | undefined;
  limit?: number | undefined;
  orderDirection?: 'ASC' | 'DESC' | undefined;
}

/** The common cursor rules: never both cursors; limit 10 and DESC by default. */
export function cursorArgs(q: CursorArgs) {
  if (q.after !== undefined && q.before !== undefined) throw badRequest("Cannot use both 'after' and 'before' cursors at the same time");
  return {
    after: q.after,
    before: q.before,
    includeCursor: q.includeCursor,
    limit: q.limit ?? 10,
    orderDirection: q.orderDirection ?? ('DESC' as const),
  };
}
