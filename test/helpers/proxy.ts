// A forward proxy on loopback that understands both CONNECT tunnels and absolute-form requests, and
// records what went through it: for tests of HTTPS_PROXY / HTTP_PROXY / NO_PROXY.
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface Proxy {
  url: string;
  /** `CONNECT host:port` or `METHOD absolute-url`, in order. */
  proxied: string[];
  close(): Promise<void>;
}

export async function startProxy(): Promise<Proxy> {
  const proxied: string[] = [];
  const server = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    const up = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  server.on('connect', (req, socket, head) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const up = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    proxied,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
