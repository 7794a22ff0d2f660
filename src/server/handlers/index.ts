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
};

export type { Service } from './types.js';
