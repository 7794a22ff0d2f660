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
