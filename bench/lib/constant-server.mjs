// A loopback HTTP server that answers with constants, so that client start-up is measured without server
// work. Prints its URL on stdout. Answers, in the service's shapes:
//   POST /v1/events/trigger        a processed trigger
//   GET  /v1/notifications/{id}    one event (a real one, recorded from `svc dev`: event-fixture.json)
//   anything else                  the integrations list
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const integrations = JSON.stringify({
  data: [
    {
      _id: '6761f0c2a3b4c5d6e7f80912',
      _environmentId: 'e',
      _organizationId: 'o',
      name: 'Mail',
      identifier: 'mail',
      providerId: 'sendgrid',
      channel: 'email',
      active: true,
      deleted: false,
      primary: true,
    },
  ],
});
const trigger = JSON.stringify({ data: { acknowledged: true, status: 'processed', transactionId: 'b9f6fa9d-0fd7-44f3-a4c0-9bf0aebb0e76' } });
const event = JSON.stringify(JSON.parse(readFileSync(new URL('./event-fixture.json', import.meta.url), 'utf8')));

function answerFor(method, url) {
  if (method === 'POST' && url.startsWith('/v1/events/trigger')) return [201, trigger];
  if (method === 'GET' && /^\/v1\/notifications\/[0-9a-f]{24}$/.test(url)) return [200, event];
  return [200, integrations];
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const [status, body] = answerFor(req.method, req.url);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
