// A Mailpit-compatible read API at /mailpit (base URL `http://HOST:PORT/mailpit`), so that tests
// written against Mailpit read svc dev's emails unchanged: info, the message list, search with
// Mailpit's words, deletion, a message's summary, headers, source and link check, and its HTML and
// text views. Served: MAILPIT_SERVED; any other call of Mailpit's API answers 404 naming it.
//
// Like Mailpit, it asks for no key from this machine: every environment's emails are in it. With
// basic auth whose password is an environment's API key it shows that environment's emails alone,
// and a client off this machine must give one (svc dev --host 0.0.0.0 shares no mail by accident).
import type { FastifyInstance } from 'fastify';
import type { Service } from '../handlers/types.js';
import type { MailpitAnswers } from './mailbox.js';

const MAILPIT_PREFIX = '/mailpit';

/** The `mailpit-api` client's calls svc dev serves (README), beside the Mailpit route of each. */
const MAILPIT_SERVED = {
  getInfo: 'GET /api/v1/info',
  listMessages: 'GET /api/v1/messages',
  setReadStatus: 'PUT /api/v1/messages',
  deleteMessages: 'DELETE /api/v1/messages',
  searchMessages: 'GET /api/v1/search',
  deleteMessagesBySearch: 'DELETE /api/v1/search',
  getMessageSummary: 'GET /api/v1/message/{ID}',
  getMessageHeaders: 'GET /api/v1/message/{ID}/headers',
  getMessageSource: 'GET /api/v1/message/{ID}/raw',
  linkCheck: 'GET /api/v1/message/{ID}/link-check',
  getTags: 'GET /api/v1/tags',
  renderMessageHTML: 'GET /view/{ID}.html',
  renderMessageText: 'GET /view/{ID}.txt',
} as const;

/** Mailpit's calls svc dev does not serve, by the `mailpit-api` client's name, for the 404's words. */
const NOT_SERVED: [RegExp, string][] = [
  [/^GET \/api\/v1\/webui$/, 'getConfiguration'],
  [/^POST \/api\/v1\/send$/, 'sendMessage'],
  [/^POST \/api\/v1\/message\/[^/]+\/release$/, 'releaseMessage'],
  [/^GET \/api\/v1\/message\/[^/]+\/part\/[^/]+\/thumb$/, 'getAttachmentThumbnail'],
  [/^GET \/api\/v1\/message\/[^/]+\/part\/[^/]+$/, 'getMessageAttachment'],
  [/^GET \/api\/v1\/message\/[^/]+\/html-check$/, 'htmlCheck'],
  [/^GET \/api\/v1\/message\/[^/]+\/sa-check$/, 'spamAssassinCheck'],
  [/^PUT \/api\/v1\/tags$/, 'setTags'],
  [/^PUT \/api\/v1\/tags\/.+$/, 'renameTag'],
  [/^DELETE \/api\/v1\/tags\/.+$/, 'deleteTag'],
  [/^(GET|PUT) \/api\/v1\/chaos$/, 'getChaosTriggers / setChaosTriggers'],
];

/** The routes svc dev serves, each answered by mailbox.ts (loaded when the first of them is called). */
const MAILPIT_ROUTES = [
  ['GET', '/api/v1/info'],
  ['GET', '/api/v1/messages'],
  ['GET', '/api/v1/search'],
  ['DELETE', '/api/v1/search'],
  ['DELETE', '/api/v1/messages'],
  ['PUT', '/api/v1/messages'],
  ['GET', '/api/v1/tags'],
  ['GET', '/api/v1/message/:id'],
  ['GET', '/api/v1/message/:id/headers'],
  ['GET', '/api/v1/message/:id/raw'],
  ['GET', '/api/v1/message/:id/link-check'],
  ['GET', '/view/:file'],
] as const;
export type MailpitRoute = (typeof MAILPIT_ROUTES)[number];

/** Any other call of Mailpit's API: 404 naming it, and what is served. */
function registerNotServed(app: FastifyInstance): void {
  app.all(`${MAILPIT_PREFIX}/*`, (req, reply) => {
    const call = `${req.method} ${req.url.slice(MAILPIT_PREFIX.length).split('?')[0]}`;
    const name = NOT_SERVED.find(([re]) => re.test(call))?.[1];
    const what = name ? `${call} (mailpit-api: ${name})` : call;
    return reply
      .code(404)
      .type('text/plain; charset=utf-8')
      .send(`svc dev's Mailpit API does not serve ${what}; it serves ${Object.keys(MAILPIT_SERVED).join(', ')} (README: "Mailpit-compatible API")`);
  });
}

export function registerMailpit(app: FastifyInstance, svc: Service): void {
  let answers: Promise<MailpitAnswers> | undefined;
  for (const [method, path] of MAILPIT_ROUTES) {
    app.route({
      method,
      url: `${MAILPIT_PREFIX}${path}`,
      handler: async (req, reply) => {
        const answer = (await (answers ??= import('./mailbox.js').then((m) => m.mailpitAnswers(svc)))).get(`${method} ${path}`);
        if (!answer) throw new Error(`mailbox.ts has no answer for ${method} ${path}`);
        return answer(req, reply);
      },
    });
  }
  registerNotServed(app);
}
