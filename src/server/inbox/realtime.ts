// The Inbox's realtime socket: socket.io v4 on the service's own port. A client connects with its
// session token (`query.token`) and joins its subscriber's room; when an in-app message of that
// subscriber is created (by the job runner) or changes state (Inbox or operator API), the room gets
// `notification_received {message}`, `unread_count_changed {unreadCount, counts}` and
// `unseen_count_changed {unseenCount}` — only once the write has committed, and read back from the
// store (a write rolled back sends nothing). A snoozed message is announced again when its snooze
// ends (while the service runs: the timers are not kept in the store).
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Service } from '../handlers/types.js';
import type { MessageChange } from '../store/messages.js';
import type { SubscriberClaims } from './jwt.js';
import type { InboxOrigins } from './origins.js';
import { toSocketMessage, workflowInfo } from './notification.js';

const room = (subscriberDbId: string) => `s:${subscriberDbId}`;

export class Realtime {
  readonly io: Server;
  /** Subscriber → messages created since the last flush (an empty set: only counts changed). */
  private pending = new Map<string, Set<string>>();
  private scheduled = false;
  /** Message → the timer that announces it again when its snooze ends (kept in memory only). */
  private readonly wakeups = new Map<string, () => void>();
  private readonly onMessage = (c: MessageChange) => {
    if (c.channel === 'in_app') this.queue(c.subscriberDbId, c.kind === 'created' ? c.messageId : undefined);
  };

  constructor(
    server: HttpServer,
    private readonly svc: Service,
    authenticate: (token: string) => SubscriberClaims | undefined,
    origins: InboxOrigins,
  ) {
    // The Inbox API's rule for pages, checked at the handshake: a WebSocket upgrade is not subject to
    // CORS in browsers, so the origin is checked here for every transport, not only in CORS answers.
    this.io = new Server(server, {
      serveClient: false,
      cors: { origin: (origin, cb) => cb(null, origins.allows(origin)), credentials: false },
      allowRequest: (req, cb) => cb(null, origins.allows(req.headers.origin, req.headers.host)),
    });
    this.io.use((socket, next) => {
      const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
      const claims = typeof token === 'string' ? authenticate(token) : undefined;
      if (!claims) return next(new Error('Unauthorized'));
      socket.data.subscriberDbId = claims._id;
      next();
    });
    this.io.on('connection', (socket) => {
      void socket.join(room(socket.data.subscriberDbId as string));
    });
    svc.store.messages.listeners.push(this.onMessage);
  }

  /** Tells the subscriber's sockets, once what is being written now has committed. */
  queue(subscriberDbId: string, createdMessageId?: string): void {
    let ids = this.pending.get(subscriberDbId);
    if (!ids) this.pending.set(subscriberDbId, (ids = new Set()));
    if (createdMessageId !== undefined) ids.add(createdMessageId);
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
        this.queue(subscriberDbId, messageId);
      },
      Math.max(0, until - clock.now()),
    );
    this.wakeups.set(messageId, cancel);
  }

  unsnoozed(messageId: string): void {
    this.wakeups.get(messageId)?.();
    this.wakeups.delete(messageId);
  }

  private flush(): void {
    this.scheduled = false;
    const pending = this.pending;
    this.pending = new Map();
    const { store, clock } = this.svc;
    if (!store.db.open) return;
    for (const [subscriberDbId, created] of pending) {
      const target = this.io.to(room(subscriberDbId));
      if (!this.io.sockets.adapter.rooms.get(room(subscriberDbId))?.size) continue;
      const subscriber = store.subscribers.findById(subscriberDbId);
      if (!subscriber) continue;
      const now = clock.now();
      for (const id of created) {
        const m = store.inbox.get(subscriberDbId, id);
        if (m) target.emit('notification_received', { message: toSocketMessage(m, subscriber, workflowInfo(store, m), now) });
      }
      const counts = store.inbox.unreadCounts(subscriberDbId);
      target.emit('unread_count_changed', { unreadCount: counts.total, counts });
      target.emit('unseen_count_changed', { unseenCount: store.inbox.unseenCount(subscriberDbId) });
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
    this.io.engine.close();
  }
}
