// The table of operations: each route of routes.ts (method, path, success status, rate-limit category)
// with its schemas. The CLI's HTTP core checks answers against it and the local service registers its
// routes from it, so both sides read the same contract.
import { z } from 'zod';
import { cursorEnvelope, ObjectId, pageEnvelope } from './schemas/common.js';
import { ActivityNotification, ChannelConnection, ChannelEndpoint, Context, Integration, LocalServiceInfo, Message, Subscriber } from './schemas/resources.js';
import {
  BulkTriggerBody,
  CreateConnectionBody,
  CreateContextBody,
  CreateEndpointBody,
  GetWorkflowQuery,
  ListConnectionsQuery,
  ListEndpointsQuery,
  ListEventsQuery,
  ListMessagesQuery,
  MarkAsBody,
  OnlineStatusBody,
  SearchSubscribersQuery,
  TriggerBody,
  TriggerResult,
  UpdateConnectionBody,
  UpdateEndpointBody,
} from './schemas/requests.js';
import { CreateWorkflowBody, PreviewBody, PreviewResponse, Workflow } from './schemas/workflow.js';
import { CreateSubscriberBody, CreateSubscriberQuery, PatchSubscriberBody, RemoveSubscriberResult } from './schemas/requests.js';
import { ListWorkflowsQuery, ListWorkflowsResponse, PatchWorkflowBody, UpdateWorkflowBody } from './schemas/workflow.js';
import { type Route, routes } from './routes.js';
import {
  CreateLayoutBody,
  DuplicateLayoutBody,
  Layout,
  LayoutPreviewBody,
  LayoutPreviewResponse,
  LayoutUsage,
  ListLayoutsQuery,
  ListLayoutsResponse,
  UpdateLayoutBody,
} from './schemas/layouts.js';
import {
  CreateTranslationBody,
  ImportMasterJsonBody,
  ImportMasterJsonResult,
  MasterJson,
  MasterJsonQuery,
  Translation,
  TranslationGroup,
  TranslationGroupParams,
  TranslationParams,
  UploadTranslationsResult,
} from './schemas/translations.js';
import {
  AutoConfigureResult,
  CreateDomainBody,
  DiagnoseDomainResult,
  Domain,
  DomainConnectApplyUrl,
  DomainConnectStartBody,
  DomainConnectStatus,
  DomainRoute,
  DomainRouteBody,
  InboundWebhookBody,
  ListDomainRoutesQuery,
  ListDomainsQuery,
  TestDomainRouteBody,
  TestDomainRouteResult,
  UpdateDomainBody,
  UpdateDomainRouteBody,
  WebhookResult,
} from './schemas/domains.js';
import { BridgeSyncBody, BridgeSyncQuery, BridgeSyncResult } from './schemas/bridge-protocol.js';
import {
  BulkSubscriberPreferencesBody,
  CreateTopicBody,
  CreateTopicQuery,
  CurrentEnvironment,
  DeleteTopicResult,
  ListTopicSubscriptionsQuery,
  ListTopicsQuery,
  PatchSubscriberPreferencesBody,
  SubscriberPreferencesView,
  Topic,
  TopicSubscription,
  TopicSubscriptionsBody,
  TopicSubscriptionsResult,
  UpdateIntegrationBody,
  UpdateTopicBody,
  WorkflowPreferenceView,
} from './schemas/inbox.js';
import { ListContextsQuery, UpdateContextBody } from './schemas/requests.js';
import { DeleteMessageResult, DeleteMessagesByTransactionQuery, WaitForMessageQuery } from './schemas/requests.js';
import { CreateIntegrationBody } from './schemas/integrations.js';
import { ChatOauthUrl, ChatOauthUrlBody, ConnectOauthUrlBody, LinkUserOauthUrlBody } from './schemas/chat-oauth.js';
import { CreateEnvironmentBody, EnvironmentResource, UpdateEnvironmentBody } from './schemas/environments.js';
import { InboxNotification, InboxNotificationsPage } from './schemas/inbox.js';
import {
  ContextKeysQuery,
  FeedItem,
  MarkAllMessagesBody,
  MarkNotificationsSeenBody,
  MessageActionBody,
  MessageActionParams,
  NotificationActionParams,
  NotificationCount,
  NotificationsFeedQuery,
  SnoozeNotificationBody,
  SubscriberNotificationsCountQuery,
  SubscriberNotificationsQuery,
  UnseenCountQuery,
  UpdateAllNotificationsBody,
} from './schemas/subscriber-notifications.js';
import {
  BroadcastBody,
  BulkCreateSubscribersBody,
  BulkCreateSubscribersResult,
  ListSubscriberSubscriptionsQuery,
  SubscriberCredentialsBody,
  SubscriberSubscription,
  SubscriptionDetails,
  SubscriptionView,
  TopicMembership,
  UpdateTopicSubscriptionBody,
} from './schemas/subscriber-api.js';
import { AdvanceClockBody, ClockState, LoadSnapshotBody, ResetBody, Snapshot, StoreSummary } from './schemas/dev-admin.js';

import {
  CreateEnvironmentVariableBody,
  DiffEnvironmentBody,
  EnvironmentDiff,
  EnvironmentTag,
  EnvironmentVariable,
  EnvironmentVariableUsage,
  ListEnvironmentVariablesQuery,
  PublishEnvironmentBody,
  PublishResult,
  SyncWorkflowBody,
  UpdateEnvironmentVariableBody,
} from './schemas/environment-variables.js';
import { StepResponse } from './schemas/workflow.js';

export type { RateCategory } from './routes.js';

export interface Operation extends Route {
  /** Schemas of path parameters that are validated (others are any non-empty string). */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Response schema after the `{data}` envelope is removed; absent for 204. */
  response?: z.ZodType;
}

interface Schemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}

const op = <R extends Route, S extends Schemas>(r: R, s: S): R & S => ({ ...r, ...s });

export const operations = {
  listChannelEndpoints: op(routes.listChannelEndpoints, { query: ListEndpointsQuery, response: cursorEnvelope(ChannelEndpoint) }),
  previewStep: op(routes.previewStep, { body: PreviewBody, response: PreviewResponse }),
  updateOnlineStatus: op(routes.updateOnlineStatus, { body: OnlineStatusBody, response: Subscriber }),
  updateChannelConnection: op(routes.updateChannelConnection, { body: UpdateConnectionBody, response: ChannelConnection }),
  searchSubscribers: op(routes.searchSubscribers, { query: SearchSubscribersQuery, response: cursorEnvelope(Subscriber) }),
  listActiveIntegrations: op(routes.listActiveIntegrations, { response: z.array(Integration) }),
  markMessagesAs: op(routes.markMessagesAs, { body: MarkAsBody, response: z.array(Message) }),
  createContext: op(routes.createContext, { body: CreateContextBody, response: Context }),
  createChannelConnection: op(routes.createChannelConnection, { body: CreateConnectionBody, response: ChannelConnection }),
  setPrimaryIntegration: op(routes.setPrimaryIntegration, { response: Integration }),
  getWorkflow: op(routes.getWorkflow, { query: GetWorkflowQuery, response: Workflow }),
  getEvent: op(routes.getEvent, { params: z.looseObject({ notificationId: ObjectId }), response: ActivityNotification }),
  triggerEvent: op(routes.triggerEvent, { body: TriggerBody, response: TriggerResult }),
  listEvents: op(routes.listEvents, { query: ListEventsQuery, response: pageEnvelope(ActivityNotification) }),
  getLocalService: op(routes.getLocalService, { response: LocalServiceInfo }),
  triggerBulk: op(routes.triggerBulk, { body: BulkTriggerBody, response: z.array(TriggerResult) }),
  cancelEvent: op(routes.cancelEvent, { response: z.boolean() }),
  listChannelConnections: op(routes.listChannelConnections, { query: ListConnectionsQuery, response: cursorEnvelope(ChannelConnection) }),
  getChannelConnection: op(routes.getChannelConnection, { response: ChannelConnection }),
  deleteChannelConnection: op(routes.deleteChannelConnection, {}),
  createChannelEndpoint: op(routes.createChannelEndpoint, { body: CreateEndpointBody, response: ChannelEndpoint }),
  getChannelEndpoint: op(routes.getChannelEndpoint, { response: ChannelEndpoint }),
  updateChannelEndpoint: op(routes.updateChannelEndpoint, { body: UpdateEndpointBody, response: ChannelEndpoint }),
  deleteChannelEndpoint: op(routes.deleteChannelEndpoint, {}),
  createWorkflow: op(routes.createWorkflow, { body: CreateWorkflowBody, response: Workflow }),
  listMessages: op(routes.listMessages, { query: ListMessagesQuery, response: pageEnvelope(Message).extend({ totalCount: z.number().optional() }) }),
  listWorkflows: op(routes.listWorkflows, { query: ListWorkflowsQuery, response: ListWorkflowsResponse }),
  updateWorkflow: op(routes.updateWorkflow, { body: UpdateWorkflowBody, response: Workflow }),
  patchWorkflow: op(routes.patchWorkflow, { body: PatchWorkflowBody, response: Workflow }),
  deleteWorkflow: op(routes.deleteWorkflow, {}),
  createSubscriber: op(routes.createSubscriber, { query: CreateSubscriberQuery, body: CreateSubscriberBody, response: Subscriber }),
  getSubscriber: op(routes.getSubscriber, { response: Subscriber }),
  patchSubscriber: op(routes.patchSubscriber, { body: PatchSubscriberBody, response: Subscriber }),
  deleteSubscriber: op(routes.deleteSubscriber, { response: RemoveSubscriberResult }),
  bridgeSync: op(routes.bridgeSync, { query: BridgeSyncQuery, body: BridgeSyncBody, response: BridgeSyncResult }),
  getCurrentEnvironment: op(routes.getCurrentEnvironment, { response: CurrentEnvironment }),
  updateIntegration: op(routes.updateIntegration, { body: UpdateIntegrationBody, response: Integration }),
  getSubscriberPreferences: op(routes.getSubscriberPreferences, { response: SubscriberPreferencesView }),
  patchSubscriberPreferences: op(routes.patchSubscriberPreferences, { body: PatchSubscriberPreferencesBody, response: SubscriberPreferencesView }),
  bulkSubscriberPreferences: op(routes.bulkSubscriberPreferences, { body: BulkSubscriberPreferencesBody, response: z.array(WorkflowPreferenceView) }),
  listTopics: op(routes.listTopics, { query: ListTopicsQuery, response: cursorEnvelope(Topic) }),
  createTopic: op(routes.createTopic, { query: CreateTopicQuery, body: CreateTopicBody, response: Topic }),
  getTopic: op(routes.getTopic, { response: Topic }),
  updateTopic: op(routes.updateTopic, { body: UpdateTopicBody, response: Topic }),
  deleteTopic: op(routes.deleteTopic, { response: DeleteTopicResult }),
  listTopicSubscriptions: op(routes.listTopicSubscriptions, { query: ListTopicSubscriptionsQuery, response: cursorEnvelope(TopicSubscription) }),
  createTopicSubscriptions: op(routes.createTopicSubscriptions, { body: TopicSubscriptionsBody, response: TopicSubscriptionsResult }),
  deleteTopicSubscriptions: op(routes.deleteTopicSubscriptions, { body: TopicSubscriptionsBody, response: TopicSubscriptionsResult }),
  generateChatOauthUrl: op(routes.generateChatOauthUrl, { body: ChatOauthUrlBody, response: ChatOauthUrl }),
  generateConnectOauthUrl: op(routes.generateConnectOauthUrl, { body: ConnectOauthUrlBody, response: ChatOauthUrl }),
  generateLinkUserOauthUrl: op(routes.generateLinkUserOauthUrl, { body: LinkUserOauthUrlBody, response: ChatOauthUrl }),
  listContexts: op(routes.listContexts, { query: ListContextsQuery, response: cursorEnvelope(Context) }),
  getContext: op(routes.getContext, { response: Context }),
  updateContext: op(routes.updateContext, { body: UpdateContextBody, response: Context }),
  deleteContext: op(routes.deleteContext, {}),
  listIntegrations: op(routes.listIntegrations, { response: z.array(Integration) }),
  createIntegration: op(routes.createIntegration, { body: CreateIntegrationBody, response: Integration }),
  deleteIntegration: op(routes.deleteIntegration, { response: z.array(Integration) }),
  deleteMessage: op(routes.deleteMessage, { response: DeleteMessageResult }),
  deleteMessagesByTransaction: op(routes.deleteMessagesByTransaction, { query: DeleteMessagesByTransactionQuery }),
  listSubscriberNotifications: op(routes.listSubscriberNotifications, { query: SubscriberNotificationsQuery, response: InboxNotificationsPage }),
  countSubscriberNotifications: op(routes.countSubscriberNotifications, { query: SubscriberNotificationsCountQuery, response: z.array(NotificationCount) }),
  deleteSubscriberNotification: op(routes.deleteSubscriberNotification, { query: ContextKeysQuery }),
  markSubscriberNotificationRead: op(routes.markSubscriberNotificationRead, { query: ContextKeysQuery, response: InboxNotification }),
  markSubscriberNotificationUnread: op(routes.markSubscriberNotificationUnread, { query: ContextKeysQuery, response: InboxNotification }),
  archiveSubscriberNotification: op(routes.archiveSubscriberNotification, { query: ContextKeysQuery, response: InboxNotification }),
  unarchiveSubscriberNotification: op(routes.unarchiveSubscriberNotification, { query: ContextKeysQuery, response: InboxNotification }),
  snoozeSubscriberNotification: op(routes.snoozeSubscriberNotification, { query: ContextKeysQuery, body: SnoozeNotificationBody, response: InboxNotification }),
  unsnoozeSubscriberNotification: op(routes.unsnoozeSubscriberNotification, { query: ContextKeysQuery, response: InboxNotification }),
  completeSubscriberNotificationAction: op(routes.completeSubscriberNotificationAction, {
    params: NotificationActionParams,
    query: ContextKeysQuery,
    response: InboxNotification,
  }),
  revertSubscriberNotificationAction: op(routes.revertSubscriberNotificationAction, {
    params: NotificationActionParams,
    query: ContextKeysQuery,
    response: InboxNotification,
  }),
  markSubscriberNotificationsSeen: op(routes.markSubscriberNotificationsSeen, { body: MarkNotificationsSeenBody }),
  markAllSubscriberNotificationsRead: op(routes.markAllSubscriberNotificationsRead, { body: UpdateAllNotificationsBody }),
  archiveAllSubscriberNotifications: op(routes.archiveAllSubscriberNotifications, { body: UpdateAllNotificationsBody }),
  archiveReadSubscriberNotifications: op(routes.archiveReadSubscriberNotifications, { body: UpdateAllNotificationsBody }),
  deleteAllSubscriberNotifications: op(routes.deleteAllSubscriberNotifications, { body: UpdateAllNotificationsBody }),
  getNotificationsFeed: op(routes.getNotificationsFeed, {
    query: NotificationsFeedQuery,
    response: pageEnvelope(FeedItem).extend({ totalCount: z.number().optional() }),
  }),
  getUnseenCount: op(routes.getUnseenCount, { query: UnseenCountQuery, response: z.looseObject({ count: z.number() }) }),
  markAllMessages: op(routes.markAllMessages, { body: MarkAllMessagesBody, response: z.number() }),
  markMessageAction: op(routes.markMessageAction, { params: MessageActionParams, body: MessageActionBody, response: Message }),
  waitForMessage: op(routes.waitForMessage, { query: WaitForMessageQuery, response: Message.nullable() }),
  getMessage: op(routes.getMessage, { params: z.looseObject({ messageId: ObjectId }), response: Message }),
  listEnvironments: op(routes.listEnvironments, { response: z.array(EnvironmentResource) }),
  createEnvironment: op(routes.createEnvironment, { body: CreateEnvironmentBody, response: EnvironmentResource }),
  updateEnvironment: op(routes.updateEnvironment, { body: UpdateEnvironmentBody, response: EnvironmentResource }),
  deleteEnvironment: op(routes.deleteEnvironment, {}),
  triggerBroadcast: op(routes.triggerBroadcast, { body: BroadcastBody, response: TriggerResult }),
  bulkCreateSubscribers: op(routes.bulkCreateSubscribers, { body: BulkCreateSubscribersBody, response: BulkCreateSubscribersResult }),
  updateSubscriberCredentials: op(routes.updateSubscriberCredentials, { body: SubscriberCredentialsBody, response: Subscriber }),
  appendSubscriberCredentials: op(routes.appendSubscriberCredentials, { body: SubscriberCredentialsBody, response: Subscriber }),
  deleteSubscriberCredentials: op(routes.deleteSubscriberCredentials, {}),
  listSubscriberSubscriptions: op(routes.listSubscriberSubscriptions, {
    query: ListSubscriberSubscriptionsQuery,
    response: cursorEnvelope(SubscriberSubscription),
  }),
  getTopicSubscriber: op(routes.getTopicSubscriber, { response: TopicMembership }),
  getTopicSubscription: op(routes.getTopicSubscription, { response: SubscriptionDetails }),
  updateTopicSubscription: op(routes.updateTopicSubscription, { body: UpdateTopicSubscriptionBody, response: SubscriptionView }),
  getClock: op(routes.getClock, { response: ClockState }),
  advanceClock: op(routes.advanceClock, { body: AdvanceClockBody, response: ClockState }),
  resetStore: op(routes.resetStore, { body: ResetBody, response: StoreSummary }),
  saveSnapshot: op(routes.saveSnapshot, { response: Snapshot }),
  loadSnapshot: op(routes.loadSnapshot, { body: LoadSnapshotBody, response: StoreSummary }),
  createLayout: op(routes.createLayout, { body: CreateLayoutBody, response: Layout }),
  listLayouts: op(routes.listLayouts, { query: ListLayoutsQuery, response: ListLayoutsResponse }),
  getLayout: op(routes.getLayout, { response: Layout }),
  updateLayout: op(routes.updateLayout, { body: UpdateLayoutBody, response: Layout }),
  deleteLayout: op(routes.deleteLayout, {}),
  duplicateLayout: op(routes.duplicateLayout, { body: DuplicateLayoutBody, response: Layout }),
  previewLayout: op(routes.previewLayout, { body: LayoutPreviewBody, response: LayoutPreviewResponse }),
  getLayoutUsage: op(routes.getLayoutUsage, { response: LayoutUsage }),
  createTranslation: op(routes.createTranslation, { body: CreateTranslationBody, response: Translation }),
  getTranslation: op(routes.getTranslation, { params: TranslationParams, response: Translation }),
  deleteTranslation: op(routes.deleteTranslation, { params: TranslationParams }),
  deleteTranslationGroup: op(routes.deleteTranslationGroup, { params: TranslationGroupParams }),
  getTranslationGroup: op(routes.getTranslationGroup, { params: TranslationGroupParams, response: TranslationGroup }),
  getMasterJson: op(routes.getMasterJson, { query: MasterJsonQuery, response: MasterJson }),
  importMasterJson: op(routes.importMasterJson, { body: ImportMasterJsonBody, response: ImportMasterJsonResult }),
  uploadMasterJson: op(routes.uploadMasterJson, { response: ImportMasterJsonResult }),
  uploadTranslationFiles: op(routes.uploadTranslationFiles, { response: UploadTranslationsResult }),
  listEnvironmentVariables: op(routes.listEnvironmentVariables, { query: ListEnvironmentVariablesQuery, response: z.array(EnvironmentVariable) }),
  createEnvironmentVariable: op(routes.createEnvironmentVariable, { body: CreateEnvironmentVariableBody, response: EnvironmentVariable }),
  getEnvironmentVariable: op(routes.getEnvironmentVariable, { response: EnvironmentVariable }),
  updateEnvironmentVariable: op(routes.updateEnvironmentVariable, { body: UpdateEnvironmentVariableBody, response: EnvironmentVariable }),
  deleteEnvironmentVariable: op(routes.deleteEnvironmentVariable, {}),
  getEnvironmentVariableUsage: op(routes.getEnvironmentVariableUsage, { response: EnvironmentVariableUsage }),
  getEnvironmentTags: op(routes.getEnvironmentTags, { response: z.array(EnvironmentTag) }),
  diffEnvironment: op(routes.diffEnvironment, { body: DiffEnvironmentBody, response: EnvironmentDiff }),
  publishEnvironment: op(routes.publishEnvironment, { body: PublishEnvironmentBody, response: PublishResult }),
  syncWorkflow: op(routes.syncWorkflow, { body: SyncWorkflowBody, response: Workflow }),
  getWorkflowStep: op(routes.getWorkflowStep, { response: StepResponse }),
  handleInboundWebhook: op(routes.handleInboundWebhook, { body: InboundWebhookBody, response: z.array(WebhookResult) }),
  autoConfigureIntegration: op(routes.autoConfigureIntegration, { response: AutoConfigureResult }),
  listDomains: op(routes.listDomains, { query: ListDomainsQuery, response: cursorEnvelope(Domain) }),
  createDomain: op(routes.createDomain, { body: CreateDomainBody, response: Domain }),
  getDomain: op(routes.getDomain, { response: Domain }),
  updateDomain: op(routes.updateDomain, { body: UpdateDomainBody, response: Domain }),
  deleteDomain: op(routes.deleteDomain, {}),
  getDomainAutoConfigure: op(routes.getDomainAutoConfigure, { response: DomainConnectStatus }),
  startDomainAutoConfigure: op(routes.startDomainAutoConfigure, { body: DomainConnectStartBody, response: DomainConnectApplyUrl }),
  diagnoseDomain: op(routes.diagnoseDomain, { response: DiagnoseDomainResult }),
  listDomainRoutes: op(routes.listDomainRoutes, { query: ListDomainRoutesQuery, response: cursorEnvelope(DomainRoute) }),
  createDomainRoute: op(routes.createDomainRoute, { body: DomainRouteBody, response: DomainRoute }),
  getDomainRoute: op(routes.getDomainRoute, { response: DomainRoute }),
  updateDomainRoute: op(routes.updateDomainRoute, { body: UpdateDomainRouteBody, response: DomainRoute }),
  deleteDomainRoute: op(routes.deleteDomainRoute, {}),
  testDomainRoute: op(routes.testDomainRoute, { body: TestDomainRouteBody, response: TestDomainRouteResult }),
  verifyDomain: op(routes.verifyDomain, { response: Domain }),
} satisfies Record<keyof typeof routes, Operation>;

export type OperationName = keyof typeof operations;
export const operationList: Operation[] = Object.values(operations);
