// A TCP pass-through on 127.0.0.1 (port 0) to a target port that a test can close and open: while
// closed, every new connection is refused at once (reset), as when nothing listens. It lets a test
// decide when a client's reconnection can succeed. Stopped by the test.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface TcpGate {
  port: number;
  /** New connections are refused until open() (those already through stay). */
  close(): void;
  open(): void;
  /** Connections refused while closed. */
  refused(): number;
  stop(): Promise<void>;
}

export async function tcpGate(targetPort: () => number): Promise<TcpGate> {
  let shut = false;
  let refused = 0;
  const live = new Set<Socket>();
  const server = createServer((client) => {
    if (shut) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(targetPort(), '127.0.0.1');
    for (const s of [client, upstream]) {
      live.add(s);
      s.on('close', () => live.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => void (shut = true),
    open: () => void (shut = false),
    refused: () => refused,
    stop: () =>
      new Promise((r) => {
        for (const s of live) s.destroy();
        server.close(() => r());
      }),
  };
}
