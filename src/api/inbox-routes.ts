// The Inbox's routes (`/v1/inbox/*`), rows of the operation table beside the operator API's
// (routes.ts): what the `@novu/js` and `@novu/react` clients call with a subscriber's session. Not in the
// operator API's OpenAPI document: svc dev serves them beside it, registered by the same code
// (src/server/app.ts), each rate limited in the environment's `global` category.
import type { HttpMethod, Route } from './routes.js';

/**
 * `subscriber`: a subscriber's session token (`Authorization: Bearer`); `session`: no credential, the
 * environment named by the body (the Inbox's session itself).
 */
type RouteAuth = NonNullable<Route['auth']>;

const inbox = <N extends string>(name: N, method: HttpMethod, path: string, summary: string, status: number, auth: RouteAuth = 'subscriber') =>
  ({ name, method, path, summary, status, category: 'global', auth }) satisfies Route;

export const inboxRoutes = {
  inboxSession: inbox('inboxSession', 'POST', '/v1/inbox/session', 'Start a subscriber session', 201, 'session'),
  listInboxNotifications: inbox('listInboxNotifications', 'GET', '/v1/inbox/notifications', 'List the notifications of the session', 200),
  countInboxNotifications: inbox('countInboxNotifications', 'GET', '/v1/inbox/notifications/count', 'Count notifications by filter', 200),
  changeInboxNotification: inbox(
    'changeInboxNotification',
    'PATCH',
    '/v1/inbox/notifications/{id}/{action}',
    'Mark, archive, snooze or act on a notification',
    200,
  ),
  deleteInboxNotification: inbox('deleteInboxNotification', 'DELETE', '/v1/inbox/notifications/{id}/delete', 'Delete a notification', 204),
  readAllInboxNotifications: inbox('readAllInboxNotifications', 'POST', '/v1/inbox/notifications/read', 'Mark all notifications read', 204),
  archiveAllInboxNotifications: inbox('archiveAllInboxNotifications', 'POST', '/v1/inbox/notifications/archive', 'Archive all notifications', 204),
  archiveReadInboxNotifications: inbox('archiveReadInboxNotifications', 'POST', '/v1/inbox/notifications/read-archive', 'Archive all read notifications', 204),
  deleteAllInboxNotifications: inbox('deleteAllInboxNotifications', 'POST', '/v1/inbox/notifications/delete', 'Delete all notifications', 204),
  markInboxNotificationsSeen: inbox('markInboxNotificationsSeen', 'POST', '/v1/inbox/notifications/seen', 'Mark notifications seen', 204),
  listInboxPreferences: inbox('listInboxPreferences', 'GET', '/v1/inbox/preferences', 'List the preferences of the session', 200),
  getInboxGlobalPreference: inbox('getInboxGlobalPreference', 'GET', '/v1/inbox/preferences/global', 'Retrieve the global preference', 200),
  updateInboxGlobalPreference: inbox('updateInboxGlobalPreference', 'PATCH', '/v1/inbox/preferences', 'Update the global preference', 200),
  bulkInboxPreferences: inbox('bulkInboxPreferences', 'PATCH', '/v1/inbox/preferences/bulk', 'Update workflow or subscription preferences in bulk', 200),
  updateInboxWorkflowPreference: inbox('updateInboxWorkflowPreference', 'PATCH', '/v1/inbox/preferences/{workflow}', 'Update a workflow preference', 200),
  listInboxTopicSubscriptions: inbox(
    'listInboxTopicSubscriptions',
    'GET',
    '/v1/inbox/topics/{topicKey}/subscriptions',
    'List the subscriptions of a topic',
    200,
  ),
  getInboxTopicSubscription: inbox(
    'getInboxTopicSubscription',
    'GET',
    '/v1/inbox/topics/{topicKey}/subscriptions/{identifier}',
    'Retrieve a subscription of a topic',
    200,
  ),
  createInboxTopicSubscription: inbox('createInboxTopicSubscription', 'POST', '/v1/inbox/topics/{topicKey}/subscriptions', 'Subscribe to a topic', 201),
  updateInboxTopicSubscription: inbox(
    'updateInboxTopicSubscription',
    'PATCH',
    '/v1/inbox/topics/{topicKey}/subscriptions/{identifier}',
    'Update a subscription of a topic',
    200,
  ),
  deleteInboxTopicSubscription: inbox(
    'deleteInboxTopicSubscription',
    'DELETE',
    '/v1/inbox/topics/{topicKey}/subscriptions/{identifier}',
    'Delete a subscription of a topic',
    200,
  ),
  updateInboxSubscriptionPreference: inbox(
    'updateInboxSubscriptionPreference',
    'PATCH',
    '/v1/inbox/subscriptions/{identifier}/preferences/{workflow}',
    'Update a workflow preference of a subscription',
    200,
  ),
  triggerInboxEvent: inbox('triggerInboxEvent', 'POST', '/v1/inbox/events', 'Trigger from the Inbox (keyless environments only)', 201),
};

export type InboxRouteName = keyof typeof inboxRoutes;
