// One handler per operation of the table, each loaded from its file when its route is first called:
// a service that has only listed integrations has loaded no workflow engine. The type makes a missing
// one a compile error.
import type { OperationName } from '../../api/operations.js';
import type { Route } from './types.js';

const codeFirst = () => import('./code-first.js');
const chatOauth = () => import('./chat-oauth.js');
const contexts = () => import('./contexts.js');
const connections = () => import('./connections.js');
const endpoints = () => import('./endpoints.js');
const events = () => import('./events.js');
const messagesAdmin = () => import('./messages-admin.js');
const devMessages = () => import('./dev-messages.js');
const integrations = () => import('./integrations.js');
const subscribers = () => import('./subscribers.js');
const operator = () => import('../inbox/operator.js');
const workflows = () => import('./workflows.js');

const subscriberNotifications = () => import('./subscriber-notifications.js');
const subscriberFeed = () => import('./subscriber-feed.js');
const environments = () => import('./environments.js');
const broadcast = () => import('./broadcast.js');
const credentials = () => import('./credentials.js');
const topicSubscriptions = () => import('./topic-subscriptions.js');
const devAdmin = () => import('./dev-admin.js');

const layouts = () => import('./layouts.js');

const translations = () => import('./translations.js');

const environmentVariables = () => import('./environment-variables.js');
const publish = () => import('./publish.js');
const domains = () => import('./domains.js');
const inboundWebhooks = () => import('./inbound-webhooks.js');

export type RouteLoaders = { [K in OperationName]: () => Promise<Route<K>> };

export const routes: RouteLoaders = {
  listChannelEndpoints: async () => (await endpoints()).listChannelEndpoints,
  previewStep: async () => (await codeFirst()).withBridgePreview((await workflows()).previewStep),
  updateOnlineStatus: async () => (await subscribers()).updateOnlineStatus,
  updateChannelConnection: async () => (await connections()).updateChannelConnection,
  searchSubscribers: async () => (await subscribers()).searchSubscribers,
  listActiveIntegrations: async () => (await integrations()).listActiveIntegrations,
  markMessagesAs: async () => (await subscribers()).markMessagesAs,
  createContext: async () => (await contexts()).createContext,
  createChannelConnection: async () => (await connections()).createChannelConnection,
  setPrimaryIntegration: async () => (await integrations()).setPrimaryIntegration,
  getWorkflow: async () => (await workflows()).getWorkflow,
  getEvent: async () => (await events()).getEvent,
  triggerEvent: async () => (await codeFirst()).withTriggerBridge((await events()).triggerEvent),
  listEvents: async () => (await events()).listEvents,
  getLocalService: async () => (await events()).getLocalService,
  triggerBulk: async () => (await codeFirst()).withBulkBridge((await events()).triggerBulk),
  cancelEvent: async () => (await events()).cancelEvent,
  listChannelConnections: async () => (await connections()).listChannelConnections,
  getChannelConnection: async () => (await connections()).getChannelConnection,
  deleteChannelConnection: async () => (await connections()).deleteChannelConnection,
  createChannelEndpoint: async () => (await endpoints()).createChannelEndpoint,
  getChannelEndpoint: async () => (await endpoints()).getChannelEndpoint,
  updateChannelEndpoint: async () => (await endpoints()).updateChannelEndpoint,
  deleteChannelEndpoint: async () => (await endpoints()).deleteChannelEndpoint,
  createWorkflow: async () => (await workflows()).createWorkflow,
  listMessages: async () => (await subscribers()).listMessages,
  listWorkflows: async () => (await workflows()).listWorkflows,
  updateWorkflow: async () => (await workflows()).updateWorkflow,
  patchWorkflow: async () => (await workflows()).patchWorkflow,
  deleteWorkflow: async () => (await workflows()).deleteWorkflow,
  createSubscriber: async () => (await subscribers()).createSubscriber,
  getSubscriber: async () => (await subscribers()).getSubscriber,
  patchSubscriber: async () => (await subscribers()).patchSubscriber,
  deleteSubscriber: async () => (await subscribers()).deleteSubscriber,
  bridgeSync: async () => (await codeFirst()).bridgeSync,
  getCurrentEnvironment: async () => (await operator()).getCurrentEnvironment,
  updateIntegration: async () => (await operator()).updateIntegration,
  getSubscriberPreferences: async () => (await operator()).getSubscriberPreferences,
  patchSubscriberPreferences: async () => (await operator()).patchSubscriberPreferences,
  bulkSubscriberPreferences: async () => (await operator()).bulkSubscriberPreferences,
  listTopics: async () => (await operator()).listTopics,
  createTopic: async () => (await operator()).createTopic,
  getTopic: async () => (await operator()).getTopic,
  updateTopic: async () => (await operator()).updateTopic,
  deleteTopic: async () => (await operator()).deleteTopic,
  listTopicSubscriptions: async () => (await operator()).listTopicSubscriptions,
  createTopicSubscriptions: async () => (await operator()).createTopicSubscriptions,
  deleteTopicSubscriptions: async () => (await operator()).deleteTopicSubscriptions,
  generateChatOauthUrl: async () => (await chatOauth()).generateChatOauthUrl,
  generateConnectOauthUrl: async () => (await chatOauth()).generateConnectOauthUrl,
  generateLinkUserOauthUrl: async () => (await chatOauth()).generateLinkUserOauthUrl,
  listContexts: async () => (await contexts()).listContexts,
  getContext: async () => (await contexts()).getContext,
  updateContext: async () => (await contexts()).updateContext,
  deleteContext: async () => (await contexts()).deleteContext,
  listIntegrations: async () => (await integrations()).listIntegrations,
  createIntegration: async () => (await integrations()).createIntegration,
  deleteIntegration: async () => (await integrations()).deleteIntegration,
  deleteMessage: async () => (await messagesAdmin()).deleteMessage,
  deleteMessagesByTransaction: async () => (await messagesAdmin()).deleteMessagesByTransaction,
  waitForMessage: async () => (await devMessages()).waitForMessage,
  getMessage: async () => (await devMessages()).getMessage,
  listSubscriberNotifications: async () => (await subscriberNotifications()).listSubscriberNotifications,
  countSubscriberNotifications: async () => (await subscriberNotifications()).countSubscriberNotifications,
  deleteSubscriberNotification: async () => (await subscriberNotifications()).deleteSubscriberNotification,
  markSubscriberNotificationRead: async () => (await subscriberNotifications()).markSubscriberNotificationRead,
  markSubscriberNotificationUnread: async () => (await subscriberNotifications()).markSubscriberNotificationUnread,
  archiveSubscriberNotification: async () => (await subscriberNotifications()).archiveSubscriberNotification,
  unarchiveSubscriberNotification: async () => (await subscriberNotifications()).unarchiveSubscriberNotification,
  snoozeSubscriberNotification: async () => (await subscriberNotifications()).snoozeSubscriberNotification,
  unsnoozeSubscriberNotification: async () => (await subscriberNotifications()).unsnoozeSubscriberNotification,
  completeSubscriberNotificationAction: async () => (await subscriberNotifications()).completeSubscriberNotificationAction,
  revertSubscriberNotificationAction: async () => (await subscriberNotifications()).revertSubscriberNotificationAction,
  markSubscriberNotificationsSeen: async () => (await subscriberNotifications()).markSubscriberNotificationsSeen,
  markAllSubscriberNotificationsRead: async () => (await subscriberNotifications()).markAllSubscriberNotificationsRead,
  archiveAllSubscriberNotifications: async () => (await subscriberNotifications()).archiveAllSubscriberNotifications,
  archiveReadSubscriberNotifications: async () => (await subscriberNotifications()).archiveReadSubscriberNotifications,
  deleteAllSubscriberNotifications: async () => (await subscriberNotifications()).deleteAllSubscriberNotifications,
  getNotificationsFeed: async () => (await subscriberFeed()).getNotificationsFeed,
  getUnseenCount: async () => (await subscriberFeed()).getUnseenCount,
  markAllMessages: async () => (await subscriberFeed()).markAllMessages,
  markMessageAction: async () => (await subscriberFeed()).markMessageAction,
  listEnvironments: async () => (await environments()).listEnvironments,
  createEnvironment: async () => (await environments()).createEnvironment,
  updateEnvironment: async () => (await environments()).updateEnvironment,
  deleteEnvironment: async () => (await environments()).deleteEnvironment,
  triggerBroadcast: async () => (await broadcast()).triggerBroadcast,
  bulkCreateSubscribers: async () => (await credentials()).bulkCreateSubscribers,
  updateSubscriberCredentials: async () => (await credentials()).updateSubscriberCredentials,
  appendSubscriberCredentials: async () => (await credentials()).appendSubscriberCredentials,
  deleteSubscriberCredentials: async () => (await credentials()).deleteSubscriberCredentials,
  listSubscriberSubscriptions: async () => (await topicSubscriptions()).listSubscriberSubscriptions,
  getTopicSubscriber: async () => (await topicSubscriptions()).getTopicSubscriber,
  getTopicSubscription: async () => (await topicSubscriptions()).getTopicSubscription,
  updateTopicSubscription: async () => (await topicSubscriptions()).updateTopicSubscription,
  getClock: async () => (await devAdmin()).getClock,
  advanceClock: async () => (await devAdmin()).advanceClock,
  resetStore: async () => (await devAdmin()).resetStore,
  saveSnapshot: async () => (await devAdmin()).saveSnapshot,
  loadSnapshot: async () => (await devAdmin()).loadSnapshot,
  createLayout: async () => (await layouts()).createLayout,
  listLayouts: async () => (await layouts()).listLayouts,
  getLayout: async () => (await layouts()).getLayout,
  updateLayout: async () => (await layouts()).updateLayout,
  deleteLayout: async () => (await layouts()).deleteLayout,
  duplicateLayout: async () => (await layouts()).duplicateLayout,
  previewLayout: async () => (await layouts()).previewLayout,
  getLayoutUsage: async () => (await layouts()).getLayoutUsage,
  createTranslation: async () => (await translations()).createTranslation,
  getTranslation: async () => (await translations()).getTranslation,
  deleteTranslation: async () => (await translations()).deleteTranslation,
  deleteTranslationGroup: async () => (await translations()).deleteTranslationGroup,
  getTranslationGroup: async () => (await translations()).getTranslationGroup,
  getMasterJson: async () => (await translations()).getMasterJson,
  importMasterJson: async () => (await translations()).importMasterJson,
  uploadMasterJson: async () => (await translations()).uploadMasterJson,
  uploadTranslationFiles: async () => (await translations()).uploadTranslationFiles,
  listEnvironmentVariables: async () => (await environmentVariables()).listEnvironmentVariables,
  createEnvironmentVariable: async () => (await environmentVariables()).createEnvironmentVariable,
  getEnvironmentVariable: async () => (await environmentVariables()).getEnvironmentVariable,
  updateEnvironmentVariable: async () => (await environmentVariables()).updateEnvironmentVariable,
  deleteEnvironmentVariable: async () => (await environmentVariables()).deleteEnvironmentVariable,
  getEnvironmentVariableUsage: async () => (await environmentVariables()).getEnvironmentVariableUsage,
  getEnvironmentTags: async () => (await publish()).getEnvironmentTags,
  diffEnvironment: async () => (await publish()).diffEnvironment,
  publishEnvironment: async () => (await publish()).publishEnvironment,
  syncWorkflow: async () => (await publish()).syncWorkflow,
  getWorkflowStep: async () => (await publish()).getWorkflowStep,
  autoConfigureIntegration: async () => (await integrations()).autoConfigureIntegration,
  handleInboundWebhook: async () => (await inboundWebhooks()).handleInboundWebhook,
  listDomains: async () => (await domains()).listDomains,
  createDomain: async () => (await domains()).createDomain,
  getDomain: async () => (await domains()).getDomain,
  updateDomain: async () => (await domains()).updateDomain,
  deleteDomain: async () => (await domains()).deleteDomain,
  getDomainAutoConfigure: async () => (await domains()).getDomainAutoConfigure,
  startDomainAutoConfigure: async () => (await domains()).startDomainAutoConfigure,
  diagnoseDomain: async () => (await domains()).diagnoseDomain,
  listDomainRoutes: async () => (await domains()).listDomainRoutes,
  createDomainRoute: async () => (await domains()).createDomainRoute,
  getDomainRoute: async () => (await domains()).getDomainRoute,
  updateDomainRoute: async () => (await domains()).updateDomainRoute,
  deleteDomainRoute: async () => (await domains()).deleteDomainRoute,
  testDomainRoute: async () => (await domains()).testDomainRoute,
  verifyDomain: async () => (await domains()).verifyDomain,
};

export type { Service } from './types.js';
