// The API as commands see it: the HTTP core (client.ts) with every rule of the CLI inside. A state
// change under a read-only profile is refused; under --dry-run the request is printed instead of sent;
// --idempotency-key is applied; a replayed answer is noted; an answer that does not match its schema is
// warned about (and printed as received). The dependency bag's client() is the only way to get one.
import { ReadOnlyError, UsageError } from '../core/errors.js';
import { hideUrlCredentials, maskData, maskHeaders } from '../core/mask.js';
import { problemsOf } from '../core/validate.js';
import { ApiClient, type ApiResponse, type ClientConfig, type OperationInput, type RawReader } from './client.js';
import type { Operation, OperationName } from './operations.js';
import { releaseBuffer } from './node-transport.js';
import { buildQuery, idempotencyKeyFor, joinUrl, type QueryInput, type SendOptions } from './request.js';
import { buildPath, routes } from './routes.js';
import { oversizeBody } from './limits.js';
import { shapes } from './shape-validators.js';

interface CallOptions {
  /** Whether the call changes state (default: any method but GET). Previews are POSTs that do not. */
  mutates?: boolean;
  /** Told of a replayed answer instead of the note on stderr (bulk counts them under its progress bar). */
  onReplay?: () => void;
  /** Reads a 2xx JSON answer from its bytes (client.ts, RawReader); the answer's `raw` holds what it made. */
  readRaw?: RawReader;
  /** The flag a top-level field of the body came from, for the error of a body over the service's limit. */
  bodyLabel?: (field: string) => string;
}

/** What the factory knows of the invocation; the session imports neither the entry nor the renderers. */
interface SessionPolicy {
  /** The profile in use when it is read-only: state changes are refused. */
  readOnlyProfile?: string;
  /** e.g. "svc connections delete", for the read-only refusal. */
  command: string;
  dryRun: boolean;
  /** --idempotency-key: used for this invocation's state changes instead of a generated key. */
  idempotencyKey?: string;
  showSecrets: boolean;
  /** A line on stderr unless --quiet. */
  note(message: string): void;
  warn(message: string): void;
  /** Prints the request --dry-run shows instead of sending it. */
  showRequest(request: Record<string, unknown>): Promise<void>;
}

export type PagingMode = 'cursor' | 'page';

interface PageResult {
  records: unknown[];
  /** Set only by rawPages(). */
  raw?: undefined;
  /** How to ask for the page after this one (a flag for the hint), if there is one. */
  next?: { after?: string; page?: number };
}

/** What the reader given to rawPages() makes of a list answer's bytes (io/raw-json.ts): where its records are. */
interface ScannedList {
  readonly bytes: Buffer;
  readonly count: number;
  /** The envelope's `hasMore`. */
  readonly hasMore: boolean;
}

/** A page of rawPages(): the records as the bytes the service sent, or parsed when the reader left the answer to JSON.parse. */
type RawPageResult<L extends ScannedList> = ({ raw: L; records?: undefined } | { raw?: undefined; records: unknown[] }) & {
  next?: { after?: undefined; page: number };
};

/** Which paging a list answer uses, read from its envelope. */
function pagingOf(body: unknown): PagingMode | undefined {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { data?: unknown }).data)) return undefined;
  if ('next' in body) return 'cursor';
  if ('hasMore' in body) return 'page';
  return undefined;
}

function nextOf(body: unknown, mode: PagingMode, currentPage: number): PageResult['next'] {
  const b = body as { next?: unknown; hasMore?: unknown; data: unknown[] };
  if (mode === 'cursor') return typeof b.next === 'string' && b.next ? { after: b.next } : undefined;
  return b.hasMore === true && b.data.length > 0 ? { page: currentPage + 1 } : undefined;
}

export class Api {
  /** The bare HTTP core: private, so that every request passes the rules above: one client, one set of rules. */
  private readonly http: ApiClient;

  constructor(
    config: ClientConfig,
    private readonly policy: SessionPolicy,
  ) {
    this.http = new ApiClient(config);
  }

  /** Refuses a state change under a read-only profile (a dry run changes nothing and is allowed). */
  checkWritable(mutates = true): void {
    if (!mutates || this.policy.dryRun) return;
    if (this.policy.readOnlyProfile !== undefined) throw new ReadOnlyError(this.policy.readOnlyProfile, this.policy.command);
  }

  /** The request --dry-run prints: method, URL, headers and body, secrets masked. */
  describe(req: SendOptions): Record<string, unknown> {
    const key = this.http.config.apiKey;
    const headers = this.http.headersFor(req, idempotencyKeyFor(req));
    const secrets = key ? [key] : [];
    const out: Record<string, unknown> = {
      method: req.method,
      url: hideUrlCredentials(joinUrl(this.http.config.baseUrl, req.path) + buildQuery(req.query)),
      headers: maskHeaders(headers, { knownSecrets: secrets }),
    };
    if (req.body !== undefined) out.body = this.policy.showSecrets ? req.body : maskData(req.body, { knownSecrets: secrets });
    return out;
  }

  /** Sends a request (svc api, bulk); undefined under --dry-run, after printing it. */
  async send<T = unknown>(req: SendOptions, opts: CallOptions = {}): Promise<ApiResponse<T> | undefined> {
    this.checkWritable(opts.mutates ?? req.method.toUpperCase() !== 'GET');
    // A body the service would answer 413 is refused here, naming the flag (exit 2, nothing sent).
    const tooBig = oversizeBody(req.method, req.path, req.body, opts.bodyLabel);
    if (tooBig !== undefined) throw new UsageError(tooBig);
    // A key the caller derived (bulk: one per chunk) wins over --idempotency-key, which is for one request.
    const withKey = { ...req, idempotencyKey: req.idempotencyKey ?? this.policy.idempotencyKey };
    if (this.policy.dryRun) {
      await this.policy.showRequest(this.describe(withKey));
      return undefined;
    }
    const res = await this.http.send<T>(withKey, opts.readRaw);
    if (res.replayed) {
      if (opts.onReplay) opts.onReplay();
      else this.policy.note('note: the service replayed its earlier answer for this idempotency key');
    }
    return res;
  }

  /** Calls an operation of the table; undefined under --dry-run. The answer's shape is checked. */
  async call<T = unknown>(name: OperationName, input: OperationInput = {}, opts: CallOptions = {}): Promise<ApiResponse<T> | undefined> {
    const route = routes[name];
    const res = await this.send<T>(
      { method: route.method, path: buildPath(route.path, input.params ?? {}), query: input.query, body: input.body, idempotencyKey: input.idempotencyKey },
      opts,
    );
    if (res) await this.checkShape(name, res.data);
    return res;
  }

  /**
   * Warns when an answer does not match its schema; the answer itself is untouched. The validators the
   * build compiled from the schemas answer first, without loading zod; zod has the last word (and the
   * message) whenever they refuse an answer or have no validator for the operation.
   */
  private async checkShape(name: OperationName, data: unknown): Promise<void> {
    if (shapes?.withoutResponse.includes(name)) return;
    if ((await shapes?.validator('response', name))?.(data)) return;
    const { operations } = await import('./operations.js');
    const op: Operation = operations[name];
    if (!op.response) return;
    const r = op.response.safeParse(data);
    if (r.success) return;
    const request = `${op.method} ${op.path}`;
    const first = problemsOf(r.error)[0];
    const where = first ? ` (${first.field || 'body'}: ${first.message})` : '';
    this.policy.warn(`the answer to ${request} does not match the documented shape${where}; printed as received`);
  }

  /**
   * Yields every page of a list request. `mode` may be left to the first answer's envelope (svc api
   * --paginate). Stops on a repeated cursor rather than looping forever on a misbehaving server.
   */
  async *pages(req: SendOptions, mode?: PagingMode): AsyncGenerator<PageResult> {
    let query: QueryInput = { ...req.query };
    let page = typeof query.page === 'number' ? query.page : Number(query.page ?? 0) || 0;
    const seen = new Set<string>();
    for (;;) {
      const res = await this.send({ ...req, query });
      if (!res) return;
      const body = res.data;
      const m = mode ?? pagingOf(body);
      const records = Array.isArray(body) ? body : ((body as { data?: unknown[] })?.data ?? [body]);
      if (!m) {
        yield { records };
        return;
      }
      const next = nextOf(body, m, page);
      yield { records, ...(next ? { next } : {}) };
      if (!next) return;
      if (next.after !== undefined) {
        if (seen.has(next.after)) {
          this.policy.warn(`the service returned cursor ${next.after} twice; stopping`);
          return;
        }
        seen.add(next.after);
        query = { ...query, after: next.after, before: undefined, includeCursor: undefined };
      } else if (next.page !== undefined) {
        page = next.page;
        query = { ...query, page };
      }
    }
  }

  /**
   * Yields every page of a list paged by number (`page`, `hasMore`) like pages(..., 'page'), each as the
   * byte ranges of its records when `scan` (the output's byte reader, io/raw-json.ts) takes the answer,
   * and parsed as pages() yields it otherwise (so that an answer that is not valid JSON is retried and
   * reported the same way). An export writes those bytes as they came instead of building each record.
   */
  async *rawPages<L extends ScannedList>(req: SendOptions, scan: (bytes: Buffer) => L | undefined): AsyncGenerator<RawPageResult<L>> {
    // An answer's bytes are freed once their page is written, not at the next garbage collection: an
    // export allocates so little on the heap that collections are rare (node-transport.ts).
    let query: QueryInput = { ...req.query };
    let page = typeof query.page === 'number' ? query.page : Number(query.page ?? 0) || 0;
    for (;;) {
      const res = await this.send({ ...req, query }, { readRaw: scan });
      if (!res) return;
      let next: { page: number } | undefined;
      const list = res.raw as L | undefined;
      if (list) {
        next = list.hasMore && list.count > 0 ? { page: page + 1 } : undefined;
        yield { raw: list, ...(next ? { next } : {}) };
        releaseBuffer(list.bytes);
      } else {
        const body = res.data;
        const records = Array.isArray(body) ? body : ((body as { data?: unknown[] })?.data ?? [body]);
        next = nextOf(body, 'page', page) as { page: number } | undefined;
        yield { records, ...(next ? { next } : {}) };
      }
      if (!next) return;
      page = next.page;
      query = { ...query, page };
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
