// The baseline of bench/inbox-realtime.mjs: a bare socket.io v4 server with one room per client and
// an HTTP POST that emits to a room — the same path as a trigger reaching an Inbox (HTTP in, a room
// emit out) without the store, the job runner or the workflow engine. Prints its port on stdout.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const http = createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(404).end();
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const { to, payload } = JSON.parse(body);
    io.to(`s:${to}`).emit('notification_received', { message: { payload, cta: { data: {}, action: {} } } });
    res.writeHead(201, { 'content-type': 'application/json' }).end('{"data":{"acknowledged":true}}');
  });
});
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => void socket.join(`s:${socket.handshake.query.token}`));
http.listen(0, '127.0.0.1', () => process.stdout.write(`${http.address().port}\n`));
process.on('SIGINT', () => {
  io.close();
  process.exit(0);
});
