// The Inbox's realtime socket: socket.io v4 on the service's own port. A client connects with its
// session token (`query.token`) and joins its subscriber's room; when an in-app message of that
// subscriber is created (by the job runner) or changes state (Inbox or operator API), its sockets get
// `notification_received {message}`, `unread_count_changed {unreadCount, counts}` and
// `unseen_count_changed {unseenCount}` — only once the write has committed, and read back from the
// store (a write rolled back sends nothing). A snoozed message is announced again when its snooze
// ends (while the service runs: the timers are not kept in the store).
//
// Across a restart: stopping closes the transports, which socket.io-client takes as a lost connection
// and retries. Every event carries, as its last argument, where in the subscriber's messages it
// leaves the client (socket.io's offset, kept by the client through its connection-state-recovery
// support); a client that comes back sends it, and is sent what was created after it while it was
// away — what a restart's gap would otherwise lose until the page is reloaded. The offsets are
// places in the store, so they mean the same to the next process of the same store.
//
// socket.io loads when the first request for it comes (`/socket.io/`: a page's Inbox connecting):
// until then no socket can be listening, and what would be announced reaches no one.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server, Socket } from 'socket.io';
import type { Service } from '../handlers/types.js';
import { wakeSnoozed } from '../notification-state.js';
import type { InboxCursor, InboxMessage } from '../store/inbox.js';
import type { MessageChange } from '../store/messages.js';
import type { SubscriberClaims } from './jwt.js';
import { toSocketMessage, workflowInfo } from './notification.js';
import type { InboxOrigins } from './origins.js';

const room = (subscriberDbId: string) => `s:${subscriberDbId}`;
/** At most this many messages are caught up on a reconnection (the newest are in the list anyway). */
const MAX_CAUGHT_UP = 50;
/** Carries a new socket's first offset; no Inbox client listens to it. */
export const OFFSET_EVENT = 'svc_inbox_offset';

const offsetOf = (c: InboxCursor) => `${c.at}.${c.id}`;
function cursorOf(offset: unknown): InboxCursor | undefined {
  const m = typeof offset === 'string' ? /^(\d{1,15})\.([0-9a-f]{24})$/.exec(offset) : null;
  return m ? { at: Number(m[1]), id: m[2]! } : undefined;
}
const isAfter = (a: InboxCursor, b: InboxCursor | undefined) => !b || a.at > b.at || (a.at === b.at && a.id > b.id);

interface Pending {
  /** Messages created since the last flush. */
  created: Set<string>;
  /** Messages whose snooze ended: announced again whatever a socket was sent before. */
  woken: Set<string>;
}

const SOCKET_PATH = '/socket.io/';
/** As socket.io does with an upgrade it does not serve: the connection ends if nothing answered it by then. */
const OTHER_UPGRADE_MS = 1000;

export class Realtime {
  /** The socket.io server, once a client has asked for it. */
  private io: Server | undefined;
  private starting: Promise<Server> | undefined;
  /** Subscriber → what to announce at the next flush (nothing in the sets: only counts changed). */
  private pending = new Map<string, Pending>();
  private scheduled = false;
  /** Message → the timer that announces it again when its snooze ends (kept in memory only). */
  private readonly wakeups = new Map<string, () => void>();
  private readonly onMessage = (c: MessageChange) => {
    if (c.channel !== 'in_app') return;
    if (c.snoozedUntil === null) this.unsnoozed(c.messageId);
    else if (c.snoozedUntil !== undefined) this.snoozed(c.subscriberDbId, c.messageId, c.snoozedUntil);
    this.queue(c.subscriberDbId, c.kind === 'created' ? c.messageId : undefined);
  };

  constructor(
    private readonly server: HttpServer,
    private readonly svc: Service,
    private readonly authenticate: (token: string) => SubscriberClaims | undefined,
    private readonly origins: InboxOrigins,
  ) {
    svc.store.messages.listeners.push(this.onMessage);
    svc.store.replacedListeners.push(() => this.recountAll());
    this.waitForFirstSocket();
  }

  /**
   * Until socket.io runs, the server's requests pass through here: one under /socket.io/ starts it and
   * is handed to it; the others go to the app as before. socket.io then takes the server's request
   * listeners (this one among them) as it always does when it joins a server.
   */
  private waitForFirstSocket(): void {
    const { server } = this;
    const app = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    const forSocket = (req: IncomingMessage) => req.url?.startsWith(SOCKET_PATH) === true;
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      if (!forSocket(req) || this.io) for (const l of app) l.call(server, req, res);
      else
        this.start().then(
          () => server.emit('request', req, res),
          () => res.writeHead(500).end(),
        );
    };
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (forSocket(req))
        this.start().then(
          () => server.emit('upgrade', req, socket, head),
          () => socket.destroy(),
        );
      else
        setTimeout(() => {
          if (socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten! <= 0) {
            socket.on('error', () => undefined);
            socket.end();
          }
        }, OTHER_UPGRADE_MS).unref();
    };
    server.on('request', onRequest);
    server.on('upgrade', onUpgrade);
    this.stopWaiting = () => server.off('upgrade', onUpgrade);
  }

  private stopWaiting: () => void = () => undefined;

  private start(): Promise<Server> {
    this.starting ??= import('./socket-server.js').then(({ Server, Adapter }) => {
      this.stopWaiting();
      const origins = this.origins;
      const io = new Server(this.server, {
        serveClient: false,
        // The Inbox API's rule for pages, checked at the handshake: a WebSocket upgrade is not subject
        // to CORS in browsers, so the origin is checked here for every transport, not only in CORS answers.
        cors: { origin: (origin, cb) => cb(null, origins.allows(origin)), credentials: false },
        allowRequest: (req, cb) => cb(null, origins.allows(req.headers.origin, req.headers.host)),
        // Turns on the client's side of recovery (it keeps the last offset and sends it back), with
        // the plain adapter: the offsets are this class's places in the store, not packets kept in
        // memory, and the token is checked on every connection.
        connectionStateRecovery: { skipMiddlewares: false },
        adapter: Adapter,
      });
      io.use((socket, next) => {
        const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
        const claims = typeof token === 'string' ? this.authenticate(token) : undefined;
        if (!claims) return next(new Error('Unauthorized'));
        socket.data.subscriberDbId = claims._id;
        next();
      });
      io.on('connection', (socket) => this.connected(socket));
      this.io = io;
      return io;
    });
    return this.starting;
  }

  /** Tells the subscriber's sockets, once what is being written now has committed. */
  /**
   * After svc dev reset or a snapshot load replaced every row, every connected Inbox is told its
   * counts, as after any change of its messages (the clients refetch on `unread_count_changed`). A
   * socket whose subscriber is gone with the old state is told its counts are zero directly.
   */
  private recountAll(): void {
    if (!this.io) return;
    const { store } = this.svc;
    const told = new Set<string>();
    for (const socket of this.io.sockets.sockets.values()) {
      const id = socket.data.subscriberDbId as string | undefined;
      if (id === undefined || told.has(id)) continue;
      if (store.subscribers.findById(id)) {
        told.add(id);
        this.queue(id);
      } else {
        const counts = store.inbox.unreadCounts(id);
        socket.emit('unread_count_changed', { unreadCount: counts.total, counts });
        socket.emit('unseen_count_changed', { unseenCount: 0 });
      }
    }
  }

  queue(subscriberDbId: string, createdMessageId?: string, woken = false): void {
    if (!this.io) return;
    let p = this.pending.get(subscriberDbId);
    if (!p) this.pending.set(subscriberDbId, (p = { created: new Set(), woken: new Set() }));
    if (createdMessageId !== undefined) (woken ? p.woken : p.created).add(createdMessageId);
    if (this.scheduled) return;
    this.scheduled = true;
    const { store } = this.svc;
    // Inside an open batch: after its COMMIT. Inside a plain transaction: it commits before the
    // event loop turns.
    if (store.batchOpen) store.afterCommit(() => this.flush());
    else setImmediate(() => this.flush());
  }

  /** A snoozed message is announced again (`notification_received`) when its snooze ends. */
  snoozed(subscriberDbId: string, messageId: string, until: number): void {
    this.unsnoozed(messageId);
    const { clock } = this.svc;
    const cancel = clock.setTimer(
      () => {
        this.wakeups.delete(messageId);
        // The message comes back now, as the service's unsnooze job brings it back (notification-state.ts).
        const { store } = this.svc;
        if (store.db.open) store.tx(() => wakeSnoozed(store, subscriberDbId, clock.now()));
        this.queue(subscriberDbId, messageId, true);
      },
      Math.max(0, until - clock.now()),
    );
    this.wakeups.set(messageId, cancel);
  }

  unsnoozed(messageId: string): void {
    this.wakeups.get(messageId)?.();
    this.wakeups.delete(messageId);
  }

  /**
   * A socket joins its subscriber's room. A new one is told where it starts (an event of svc dev's
   * own, which the Inbox clients do not listen to, carrying only the offset); one coming back with an
   * offset is sent the messages created after it and the counts, which may have changed meanwhile.
   */
  private connected(socket: Socket): void {
    const subscriberDbId = socket.data.subscriberDbId as string;
    void socket.join(room(subscriberDbId));
    const { store } = this.svc;
    if (!store.db.open) return;
    const from = cursorOf(socket.handshake.auth?.offset);
    socket.data.upTo = from ?? store.inbox.newest(subscriberDbId);
    if (!from) {
      socket.emit(OFFSET_EVENT, offsetOf(socket.data.upTo as InboxCursor));
      return;
    }
    this.announce(subscriberDbId, [socket], store.inbox.createdAfter(subscriberDbId, from, MAX_CAUGHT_UP), []);
  }

  private flush(): void {
    this.scheduled = false;
    const pending = this.pending;
    this.pending = new Map();
    const { store } = this.svc;
    if (!store.db.open || !this.io) return;
    for (const [subscriberDbId, p] of pending) {
      const ids = this.io.sockets.adapter.rooms.get(room(subscriberDbId));
      if (!ids?.size) continue;
      const sockets = [...ids].map((id) => this.io!.sockets.sockets.get(id)).filter((s): s is Socket => s !== undefined);
      const read = (set: Set<string>) => [...set].map((id) => store.inbox.get(subscriberDbId, id)).filter((m): m is InboxMessage => m !== undefined);
      this.announce(subscriberDbId, sockets, read(p.created), read(p.woken));
    }
  }

  /**
   * Sends each socket the created messages it has not been sent (a socket that caught up on
   * connecting may already have some), the woken ones, and the counts; each event with the socket's
   * offset after it.
   */
  private announce(subscriberDbId: string, sockets: Socket[], created: InboxMessage[], woken: InboxMessage[]): void {
    const { store, clock } = this.svc;
    const subscriber = store.subscribers.findById(subscriberDbId);
    if (!subscriber) return;
    const now = clock.now();
    const payload = (m: InboxMessage) => ({ message: toSocketMessage(m, subscriber, workflowInfo(store, m), now) });
    for (const s of sockets) {
      for (const m of created) {
        const at = { at: m.createdAtMs, id: m.id };
        if (!isAfter(at, s.data.upTo as InboxCursor | undefined)) continue;
        s.data.upTo = at;
        s.emit('notification_received', payload(m), offsetOf(at));
      }
      for (const m of woken) s.emit('notification_received', payload(m), offsetOf(s.data.upTo as InboxCursor));
    }
    const counts = store.inbox.unreadCounts(subscriberDbId);
    const unseenCount = store.inbox.unseenCount(subscriberDbId);
    for (const s of sockets) {
      const offset = offsetOf(s.data.upTo as InboxCursor);
      s.emit('unread_count_changed', { unreadCount: counts.total, counts }, offset);
      s.emit('unseen_count_changed', { unseenCount }, offset);
    }
  }

  close(): void {
    for (const cancel of this.wakeups.values()) cancel();
    this.wakeups.clear();
    const i = this.svc.store.messages.listeners.indexOf(this.onMessage);
    if (i >= 0) this.svc.store.messages.listeners.splice(i, 1);
    // Closing the transports, not the sockets: socket.io's disconnect packet tells a client the server
    // meant it and it never reconnects, so every open Inbox would go deaf across a restart. A closed
    // transport is a lost connection, which the client retries until the service is back.
    this.stopWaiting();
    this.io?.engine.close();
  }
}
