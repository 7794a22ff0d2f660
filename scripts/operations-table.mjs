// The README's table of every operation of the spec's openapi.json, with whether `svc dev` answers it
// (a row of the operation table, src/api/route*.ts) and where it differs from the hosted service.
//   node scripts/operations-table.mjs           prints the table
//   node scripts/operations-table.mjs --write   puts it between the README's markers
// test/unit/operations-table.test.ts fails when the README's table is not what this prints.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const START = '<!-- operations:start -->';
export const END = '<!-- operations:end -->';

/** Where svc dev's answer or behaviour differs from the hosted service's, by `METHOD path`. */
export const DIFFERENCES = {
  'POST /v1/events/trigger/broadcast': 'writes every event before answering (the service queues in batches of 500)',
  'POST /v1/environments': 'the new key is in the answer for an API-key caller too (a test needs it)',
  'PUT /v1/environments/{environmentId}': 'also the environments created from the caller’s; `dns` and `bridge` not kept; unknown id 404',
  'DELETE /v1/environments/{environmentId}': 'also the environments created from the caller’s (a suite cleans up after itself)',
  'GET /v2/subscribers/{subscriberId}/notifications': '`contextKeys` match an event’s exact set of context keys',
  'POST /v1/subscribers/{subscriberId}/messages/mark-all': 'no feeds: a `feedIdentifier` matches nothing',
  'GET /v1/subscribers/{subscriberId}/notifications/unseen': 'archived and snoozed messages are not counted (as the Inbox socket counts)',
  'PUT /v1/subscribers/{subscriberId}/credentials': 'push is sent once through one integration with every token',
  'PATCH /v1/subscribers/{subscriberId}/credentials': 'push is sent once through one integration with every token',
  'GET /v2/subscribers/{subscriberId}/subscriptions': 'subscriptions carry no context keys',
  'POST /v2/layouts': "the environment's default layout is created on its first layouts call, not with the environment",
  'PUT /v2/layouts/{layoutId}': 'a refused body answers 400 with the service’s message, without the `ctx.controls` detail',
  'POST /v2/layouts/{layoutId}/duplicate': 'translations are not copied',
  'POST /v2/layouts/{layoutId}/preview': 'the `{{content}}` placeholder text is svc dev’s own',
  'POST /v2/translations': 'a layout `resourceId` is not checked to exist',
  'GET /v2/translations/group/{resourceType}/{resourceId}': '`outdatedLocales` compares each locale’s last write with en_US’s',
  'GET /v2/translations/master-json': 'the organisation’s default locale is always en_US',
  'GET /v1/environment-variables':
    'values shown for the key’s environment and those created from it; secrets kept unencrypted in the local file (masked in every answer)',
  'POST /v1/environment-variables': 'a value for an environment outside the key’s reach: 403',
  'DELETE /v1/environment-variables/{variableKey}': 'refused (403) while it holds a value of an environment outside the key’s reach',
  'POST /v2/environments/{targetEnvironmentId}/diff':
    'source defaults to the caller’s environment; an API key reaches the environments created from its own; `resourceType` `layout` and `localization_group` as the service answers (the spec’s enum says otherwise)',
  'POST /v2/environments/{targetEnvironmentId}/publish': 'as diff; results in the order workflow, layout, localization_group',
  'PUT /v2/workflows/{workflowId}/sync': 'the target must be the caller’s environment or one created from it',
  'POST /v2/inbound-webhooks/delivery-providers/{environmentId}/{integrationId}':
    'needs the API key; no signature check; JSON bodies only (Twilio’s callback re-posted as JSON); reads SendGrid, Postmark, Twilio',
  'POST /v1/integrations/{integrationId}/auto-configure': 'calls no provider: `success: false`, with the URL to post reports to',
  'POST /v1/domains': 'the MX record to add points to `inbound.svc.test` (svc dev receives no mail)',
  'GET /v1/domains/{domain}/auto-configure': 'always unavailable (`discovery_not_configured`), with the records to add by hand',
  'POST /v1/domains/{domain}/auto-configure/start': '400: no DNS provider discovery offline',
  'POST /v1/domains/{domain}/diagnose': 'no DNS lookups: checks skipped, `mx_missing` with the fix',
  'POST /v1/domains/{domain}/routes': 'type `agent` refused (400): svc dev runs no agents',
  'PATCH /v1/domains/{domain}/routes/{address}': 'type `agent` refused (400)',
  'POST /v1/domains/{domain}/routes/{address}/test': 'no outbound webhooks: `webhook.skipped: true`; `dryRun` returns the payload',
  'POST /v1/domains/{domain}/verify': 'no DNS lookup: the domain stays pending',
};

export function operations() {
  const spec = JSON.parse(readFileSync(new URL('../../shared/spec/openapi.json', import.meta.url), 'utf8'));
  const served = new Set();
  for (const f of readdirSync(`${root}src/api`).filter((f) => /^routes?(-[a-z-]+)?\.ts$/.test(f))) {
    const text = readFileSync(`${root}src/api/${f}`, 'utf8');
    for (const m of text.matchAll(/method: '(\w+)',\s*path: '([^']+)'/g)) served.add(`${m[1]} ${m[2]}`);
  }
  const rows = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      rows.push({ key, id: op.operationId ?? '', summary: (op.summary ?? '').replace(/\|/g, '/'), served: served.has(key), differs: DIFFERENCES[key] ?? '' });
    }
  }
  return rows;
}

export function table(rows = operations()) {
  const yes = rows.filter((r) => r.served).length;
  const lines = [
    `${yes} of the ${rows.length} operations of the spec's \`openapi.json\` are answered by \`svc dev\`, each by a route of its own.`,
    '',
    '| operation | what it does | `svc dev` | where `svc dev` differs |',
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${r.key}\` | ${r.summary} | ${r.served ? 'yes' : '**not yet** (404)'} | ${r.differs} |`),
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = table();
  if (process.argv.includes('--write')) {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const [before, rest] = readme.split(START);
    if (rest === undefined) throw new Error(`README.md has no ${START}`);
    const after = rest.slice(rest.indexOf(END));
    writeFileSync(`${root}README.md`, `${before}${START}\n${text}\n${after}`);
  } else {
    process.stdout.write(`${text}\n`);
  }
}
