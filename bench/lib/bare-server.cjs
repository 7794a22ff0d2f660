// The floor of bench/dev-startup.mjs: a bare CommonJS node:http server that answers the request the
// bench sends (GET /v1/integrations/active with the key) and announces its address as `svc dev -o json`
// does, on one line of stdout.
'use strict';
const http = require('node:http');

const KEY = process.argv[2] || 'sk_test_x';
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/v1/integrations/active' && req.headers.authorization === `ApiKey ${KEY}`) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ data: [] }));
    return;
  }
  res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ statusCode: 401, message: 'Unauthorized' }));
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
