// The floor for a one-request command: a CommonJS script that sends the same request as svc with
// require('node:http') (same headers), parses the JSON answer and prints its `data` as indented JSON, then
// exits. svc is judged against this one (goal: at most 1.3x its wall time and 1.2x its peak RSS).
//   node floor-http.cjs integrations        GET  /v1/integrations/active
//   node floor-http.cjs trigger WORKFLOW TO POST /v1/events/trigger
//   node floor-http.cjs event ID            GET  /v1/notifications/ID
const { request } = require('node:http');

const [what, a, b] = process.argv.slice(2);
const req =
  what === 'trigger'
    ? { method: 'POST', path: '/v1/events/trigger', body: JSON.stringify({ name: a, to: [b] }) }
    : what === 'event'
      ? { method: 'GET', path: `/v1/notifications/${a}` }
      : { method: 'GET', path: '/v1/integrations/active' };
const headers = { authorization: `ApiKey ${process.env.SVC_API_KEY}`, accept: 'application/json', 'user-agent': 'floor' };
if (req.body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(req.body) });

const r = request(`${process.env.SVC_BASE_URL}${req.path}`, { method: req.method, headers }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (d) => (text += d));
  res.on('end', () => {
    process.stdout.write(`${JSON.stringify(JSON.parse(text).data, null, 2)}\n`);
    if (res.statusCode >= 400) process.exitCode = 1;
  });
});
r.end(req.body);
