// Requests waiting for a message (GET /v1/svc-dev/messages/wait). The store tells its listeners of
// every message it writes; once that write has committed, each waiter whose filters the new message
// could meet looks again, and is answered by the first that matches. No polling: a waiter is answered
// in the turn of the event loop after the commit.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Service } from '../handlers/types.js';
import type { MessageChange } from '../store/messages.js';
import type { MessageRecord } from '../store/messages.js';
import { firstMatching, type MessageMatch } from './query.js';

interface Waiter {
  envId: string;
  match: MessageMatch;
  done(found: MessageRecord | undefined): void;
}

export class MessageWaits {
  private readonly waiters = new Set<Waiter>();
  /** Channels of the messages created since the last look. */
  private created = new Set<string>();
  private scheduled = false;
  private readonly onMessage = (c: MessageChange) => {
    if (c.kind !== 'created' || this.waiters.size === 0) return;
    this.created.add(c.channel);
    if (this.scheduled) return;
    this.scheduled = true;
    const { store } = this.svc;
    // Told inside the write's transaction: look once it has committed.
    if (store.batchOpen) store.afterCommit(() => this.look());
    else setImmediate(() => this.look());
  };

  constructor(private readonly svc: Service) {
    svc.store.messages.listeners.push(this.onMessage);
  }

  /** The first matching message: at once when one is stored, else when one is, else undefined after `holdMs`. */
  wait(envId: string, match: MessageMatch, holdMs: number): Promise<MessageRecord | undefined> {
    const found = firstMatching(this.svc.store, envId, match);
    if (found || holdMs <= 0) return Promise.resolve(found);
    return new Promise((resolve) => {
      // The hold ends the wait with nothing unless a message ends it first (which cancels the hold).
      const hold = new AbortController();
      const waiter: Waiter = {
        envId,
        match,
        done: (m) => {
          hold.abort();
          this.waiters.delete(waiter);
          resolve(m);
        },
      };
      this.waiters.add(waiter);
      sleep(holdMs, undefined, { signal: hold.signal }).then(
        () => waiter.done(undefined),
        () => undefined,
      );
    });
  }

  private look(): void {
    this.scheduled = false;
    const channels = this.created;
    this.created = new Set();
    if (!this.svc.store.db.open) return;
    for (const w of [...this.waiters]) {
      if (w.match.channel !== undefined && !channels.has(w.match.channel)) continue;
      const found = firstMatching(this.svc.store, w.envId, w.match);
      if (found) w.done(found);
    }
  }

  /** The service is stopping: every waiter is answered (nothing found) so that its request ends. */
  close(): void {
    for (const w of [...this.waiters]) w.done(undefined);
    const i = this.svc.store.messages.listeners.indexOf(this.onMessage);
    if (i >= 0) this.svc.store.messages.listeners.splice(i, 1);
  }
}

const bySvc = new WeakMap<Service, MessageWaits>();

/** The service's waiters, made at the first wait: a service nobody waits on has no listener. */
export function messageWaits(svc: Service): MessageWaits {
  let w = bySvc.get(svc);
  if (!w) bySvc.set(svc, (w = new MessageWaits(svc)));
  return w;
}

/** Ends every wait of the service (its app is closing). */
export function closeMessageWaits(svc: Service): void {
  bySvc.get(svc)?.close();
  bySvc.delete(svc);
}
