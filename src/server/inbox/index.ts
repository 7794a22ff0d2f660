// The in-app Inbox's front-end API, `/v1/inbox/*`: what the service's `@novu/js`, `@novu/react` and
// `@novu/nextjs` clients call with a subscriber's session token (Bearer), and the realtime socket
// beside it. Its routes are rows of the operation table (`inboxRoutes`, src/api/routes.ts), registered
// by app.ts with every other route; this file gives app.ts their handlers, loaded when the first Inbox
// request comes, and what they share: the door (http.ts: origins, CORS, session tokens) and the socket.
// Only these routes answer cross-origin requests, and only from the pages origins.ts lets in (an app
// served from another local origin calls them); the operator API keeps no CORS.
import type { InboxRouteName } from '../../api/inbox-routes.js';
import type { Service } from '../handlers/types.js';
import { InboxGate, type InboxRoute } from './http.js';
import { type SubscriberClaims, verifyToken } from './jwt.js';
import { InboxOrigins } from './origins.js';
import { Realtime } from './realtime.js';
import type { Server as HttpServer } from 'node:http';

export { INBOX_PREFIX, inboxSessionEnv } from './http.js';

interface InboxOptions {
  /** Origins let in besides loopback ones (`svc dev --inbox-origin`). */
  origins?: readonly string[] | undefined;
  /** A page of an origin not let in asked (once per origin). */
  onRefusedOrigin?: ((origin: string) => void) | undefined;
}

export interface Inbox {
  gate: InboxGate;
  realtime: Realtime;
}

/** The Inbox's door and socket on the service's HTTP server. */
export function openInbox(server: HttpServer, svc: Service, opts: InboxOptions = {}): Inbox {
  const { store, clock } = svc;
  const secretOf = (envId: string) => (store.environments.findById(envId) ? store.inbox.settings(envId).secret : undefined);
  const authenticate = (token: string): SubscriberClaims | undefined => verifyToken(token, secretOf, clock.now());
  const origins = new InboxOrigins(opts.origins);
  return {
    gate: new InboxGate(svc, { origins, onRefusedOrigin: opts.onRefusedOrigin }, authenticate),
    realtime: new Realtime(server, svc, authenticate, origins),
  };
}

const handlers = () => import('./handlers.js').then((m) => m.inboxHandlers);
const subscriptions = () => import('./subscriptions.js').then((m) => m.subscriptionHandlers);

/** One handler per row of `inboxRoutes`, loaded from its file when its route is first called. */
export const inboxRoutes: { [K in InboxRouteName]: () => Promise<InboxRoute> } = {
  inboxSession: async () => (await handlers()).inboxSession,
  listInboxNotifications: async () => (await handlers()).listInboxNotifications,
  countInboxNotifications: async () => (await handlers()).countInboxNotifications,
  changeInboxNotification: async () => (await handlers()).changeInboxNotification as InboxRoute,
  deleteInboxNotification: async () => (await handlers()).deleteInboxNotification as InboxRoute,
  readAllInboxNotifications: async () => (await handlers()).readAllInboxNotifications,
  archiveAllInboxNotifications: async () => (await handlers()).archiveAllInboxNotifications,
  archiveReadInboxNotifications: async () => (await handlers()).archiveReadInboxNotifications,
  deleteAllInboxNotifications: async () => (await handlers()).deleteAllInboxNotifications,
  markInboxNotificationsSeen: async () => (await handlers()).markInboxNotificationsSeen,
  listInboxPreferences: async () => (await handlers()).listInboxPreferences,
  getInboxGlobalPreference: async () => (await handlers()).getInboxGlobalPreference,
  updateInboxGlobalPreference: async () => (await handlers()).updateInboxGlobalPreference,
  bulkInboxPreferences: async () => (await subscriptions()).bulkInboxPreferences,
  updateInboxWorkflowPreference: async () => (await handlers()).updateInboxWorkflowPreference as InboxRoute,
  listInboxTopicSubscriptions: async () => (await subscriptions()).listInboxTopicSubscriptions as InboxRoute,
  getInboxTopicSubscription: async () => (await subscriptions()).getInboxTopicSubscription as InboxRoute,
  createInboxTopicSubscription: async () => (await subscriptions()).createInboxTopicSubscription as InboxRoute,
  updateInboxTopicSubscription: async () => (await subscriptions()).updateInboxTopicSubscription as InboxRoute,
  deleteInboxTopicSubscription: async () => (await subscriptions()).deleteInboxTopicSubscription as InboxRoute,
  updateInboxSubscriptionPreference: async () => (await subscriptions()).updateInboxSubscriptionPreference as InboxRoute,
  triggerInboxEvent: async () => (await subscriptions()).triggerInboxEvent,
};
