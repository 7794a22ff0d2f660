// A loopback HTTP server that answers every request with the same JSON (the service's integrations list
// shape), so client start-up is measured without server work. Prints its URL on stdout.
import { createServer } from 'node:http';

const body = JSON.stringify({
  data: [{ _id: '6761f0c2a3b4c5d6e7f80912', _environmentId: 'e', _organizationId: 'o', name: 'Mail', identifier: 'mail', providerId: 'sendgrid', channel: 'email', active: true, deleted: false, primary: true }],
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
