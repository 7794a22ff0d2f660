// The Mailpit-compatible read API's handlers over the captured emails (index.ts registers their routes
// and loads this file when the first of them is called).
//
// Like Mailpit, it asks for no key from this machine: every environment's emails are in it. With
// basic auth whose password is an environment's API key it shows that environment's emails alone,
// and a client off this machine must give one (svc dev --host 0.0.0.0 shares no mail by accident).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../outbound/index.js';
import type { Service } from '../handlers/types.js';
import { emailsNewestFirst, messageById, senders } from '../outbox/query.js';
import type { Store } from '../store/index.js';
import { linkCheck } from './link-check.js';
import { parseSearch, type Predicate } from './search.js';
import { headers, listItem, type MailpitEmail, summary, toMailpit } from './shapes.js';
import type { MailpitRoute } from './index.js';

/** Messages a Mailpit client has read (Mailpit's `Read`): kept while svc dev runs. */
const readIds = new WeakMap<Store, Set<string>>();

class MailpitError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Mailbox {
  store: Store;
  started: number;
  /** Messages a Mailpit client has read. */
  read: Set<string>;
  /** The environment a request may see (undefined: all of them). */
  scope(req: FastifyRequest): string | undefined;
  emails(envId: string | undefined, where?: Predicate): MailpitEmail[];
  /** One email by id or `latest`, of what the request may see. */
  one(req: FastifyRequest, id: string): MailpitEmail;
  remove(ids: { id: string; envId: string }[]): void;
}

function mailbox(svc: Service): Mailbox {
  const { store } = svc;
  if (!readIds.has(store)) readIds.set(store, new Set());
  const read = readIds.get(store)!;
  const scope = (req: FastifyRequest): string | undefined => {
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && /^basic /i.test(auth)) {
      const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
      const env = store.environments.findByKey(decoded.slice(decoded.indexOf(':') + 1));
      if (!env) throw new MailpitError(401, 'the password is no API key of this svc dev');
      return env.id;
    }
    if (!isLoopbackAddress(req.socket.remoteAddress ?? '')) throw new MailpitError(401, 'off this machine, give an API key as the basic auth password');
    return undefined;
  };
  const emails = (envId: string | undefined, where: Predicate = () => true): MailpitEmail[] => {
    const from = senders(store);
    const out: MailpitEmail[] = [];
    for (const r of emailsNewestFirst(store, envId)) {
      const m = toMailpit(r, from(r.doc._environmentId, r.doc.providerId), read.has(r.id));
      if (where(m)) out.push(m);
    }
    return out;
  };
  const one = (req: FastifyRequest, id: string): MailpitEmail => {
    const envId = scope(req);
    if (id === 'latest') {
      const latest = emails(envId)[0];
      if (!latest) throw new MailpitError(404, 'Message not found');
      return latest;
    }
    const r = messageById(store, id, envId);
    if (r?.doc.channel !== 'email') throw new MailpitError(404, '404 page not found');
    return toMailpit(r, senders(store)(r.doc._environmentId, r.doc.providerId), read.has(r.id));
  };
  const remove = (ids: { id: string; envId: string }[]) =>
    store.tx(() => {
      for (const { id, envId } of ids) {
        store.messages.removeById(envId, id);
        read.delete(id);
      }
    });

  return { store, started: Date.now(), read, scope, emails, one, remove };
}

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;
type RouteOf = (method: MailpitRoute[0], path: MailpitRoute[1], handler: Handler) => void;
/** A route's answer, by its method and path (`GET /api/v1/info`). */
export type MailpitAnswers = Map<string, (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>>;

/** Each route answering as Mailpit does: JSON, or text; its errors as plain text. */
function router(answers: MailpitAnswers): RouteOf {
  return (method, path, handler) =>
    void answers.set(`${method} ${path}`, async (req, reply) => {
      try {
        const answer = await handler(req, reply);
        if (typeof answer === 'string')
          return reply
            .code(200)
            .type(reply.getHeader('content-type') ? String(reply.getHeader('content-type')) : 'text/plain; charset=utf-8')
            .send(answer);
        return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(answer));
      } catch (e) {
        if (!(e instanceof MailpitError)) throw e;
        if (e.status === 401) reply.header('www-authenticate', 'Basic realm="svc dev Mailpit API"');
        return reply.code(e.status).type('text/plain; charset=utf-8').send(e.message);
      }
    });
}

const page = (req: FastifyRequest) => {
  const q = req.query as { start?: string; limit?: string };
  const start = Math.max(0, Number.parseInt(q.start ?? '0', 10) || 0);
  const limit = Number.parseInt(q.limit ?? '50', 10);
  return { start, limit: Number.isNaN(limit) || limit < 0 ? 50 : limit };
};
const listAnswer = (all: MailpitEmail[], matching: MailpitEmail[], start: number, limit: number) => ({
  total: all.length,
  unread: all.filter((m) => !m.Read).length,
  count: Math.max(0, Math.min(limit, matching.length - start)),
  messages_count: matching.length,
  messages_unread: matching.filter((m) => !m.Read).length,
  start,
  tags: [] as string[],
  messages: matching.slice(start, start + limit).map(listItem),
});
const searchOf = (req: FastifyRequest) => {
  const search = String((req.query as { query?: unknown }).query ?? '').trim();
  if (search === '') throw new MailpitError(400, 'Error: no search query');
  return parseSearch(search);
};

/** Info, the list, search, deletion, read status and tags. */
function registerMailbox(route: RouteOf, box: Mailbox): void {
  const { store, read, scope, emails, remove } = box;
  route('GET', '/api/v1/info', (req) => {
    const all = emails(scope(req));
    return {
      Version: `svc dev ${typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : 'dev'}`,
      LatestVersion: '',
      Database: store.db.name,
      DatabaseSize: 0,
      Messages: all.length,
      Unread: all.filter((m) => !m.Read).length,
      Tags: {},
      RuntimeStats: {
        Uptime: Math.round((Date.now() - box.started) / 1000),
        Memory: process.memoryUsage().rss,
        MessagesDeleted: 0,
        SMTPAccepted: 0,
        SMTPAcceptedSize: 0,
        SMTPRejected: 0,
        SMTPIgnored: 0,
      },
    };
  });
  route('GET', '/api/v1/messages', (req) => {
    const { start, limit } = page(req);
    const all = emails(scope(req));
    return listAnswer(all, all, start, limit);
  });
  route('GET', '/api/v1/search', (req) => {
    const where = searchOf(req);
    const { start, limit } = page(req);
    const all = emails(scope(req));
    return listAnswer(all, all.filter(where), start, limit);
  });
  route('DELETE', '/api/v1/search', (req) => {
    remove(emails(scope(req), searchOf(req)).map((m) => ({ id: m.ID, envId: m.envId })));
    return 'ok';
  });
  route('DELETE', '/api/v1/messages', (req) => {
    const ids = (req.body as { IDs?: unknown } | undefined)?.IDs;
    const envId = scope(req);
    // No IDs: every message, as Mailpit does.
    const chosen =
      Array.isArray(ids) && ids.length > 0
        ? ids.map((id) => messageById(store, String(id), envId)).filter((r) => r?.doc.channel === 'email')
        : emailsNewestFirst(store, envId);
    remove(chosen.map((r) => ({ id: r!.id, envId: r!.doc._environmentId })));
    return 'ok';
  });
  route('PUT', '/api/v1/messages', (req) => {
    const body = (req.body ?? {}) as { Read?: unknown; IDs?: unknown; Search?: unknown };
    const ids = Array.isArray(body.IDs) ? body.IDs.map(String) : [];
    const search = typeof body.Search === 'string' ? body.Search.trim() : '';
    if (ids.length > 0 && search !== '') throw new MailpitError(400, 'You may specify either IDs or a search query, not both');
    const envId = scope(req);
    const chosen =
      ids.length > 0 ? ids.filter((id) => messageById(store, id, envId)) : emails(envId, search ? parseSearch(search) : undefined).map((m) => m.ID);
    for (const id of chosen) body.Read === true ? read.add(id) : read.delete(id);
    return 'ok';
  });
  route('GET', '/api/v1/tags', () => []);
}

/** One message: its summary, headers, source, link check and views. */
function registerMessage(route: RouteOf, box: Mailbox, svc: Service): void {
  const { read, one } = box;
  route('GET', '/api/v1/message/:id', (req) => {
    const m = one(req, (req.params as { id: string }).id);
    // Reading a message's summary marks it read, as in Mailpit.
    read.add(m.ID);
    return summary({ ...m, Read: true });
  });
  route('GET', '/api/v1/message/:id/headers', (req) => headers(one(req, (req.params as { id: string }).id)));
  route('GET', '/api/v1/message/:id/raw', (req) => one(req, (req.params as { id: string }).id).parts.source);
  route('GET', '/api/v1/message/:id/link-check', async (req) => {
    const m = one(req, (req.params as { id: string }).id);
    const follow = ['true', '1'].includes(String((req.query as { follow?: unknown }).follow));
    return linkCheck(m.parts.html, m.parts.text, { follow, allowRemote: svc.runner.settings.allowRemoteWebhooks });
  });
  route('GET', '/view/:file', (req, reply) => {
    const file = (req.params as { file: string }).file;
    const kind = /\.(html|txt)$/.exec(file)?.[1];
    if (!kind) throw new MailpitError(404, '404 page not found');
    const m = one(req, file.slice(0, -kind.length - 1));
    if (kind === 'html') {
      if (m.parts.html === '') throw new MailpitError(404, '404 page not found');
      reply.header('content-type', 'text/html; charset=utf-8');
      // The HTML is the workflow's: shown as a page of its own, with no script and no form posts.
      reply.header('content-security-policy', "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; sandbox");
      return m.parts.html;
    }
    return m.parts.text;
  });
}

/** The answer of each route of MAILPIT_ROUTES. */
export function mailpitAnswers(svc: Service): MailpitAnswers {
  const answers: MailpitAnswers = new Map();
  const box = mailbox(svc);
  const route = router(answers);
  registerMailbox(route, box);
  registerMessage(route, box, svc);
  return answers;
}
