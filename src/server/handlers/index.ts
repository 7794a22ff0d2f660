// One handler per operation of the table; the type makes a missing one a compile error.
import { bridgeSync, withBridgePreview, withBulkBridge, withTriggerBridge } from './code-first.js';
import { generateChatOauthUrl, generateConnectOauthUrl, generateLinkUserOauthUrl } from './chat-oauth.js';
import { createContext, deleteContext, getContext, listContexts, updateContext } from './contexts.js';
import { createChannelConnection, deleteChannelConnection, getChannelConnection, listChannelConnections, updateChannelConnection } from './connections.js';
import { createChannelEndpoint, deleteChannelEndpoint, getChannelEndpoint, listChannelEndpoints, updateChannelEndpoint } from './endpoints.js';
import { cancelEvent, getEvent, getLocalService, listEvents, triggerBulk, triggerEvent } from './events.js';
import { deleteMessage, deleteMessagesByTransaction } from './messages-admin.js';
import { getMessage, waitForMessage } from './dev-messages.js';
import { createIntegration, deleteIntegration, listActiveIntegrations, listIntegrations, setPrimaryIntegration } from './integrations.js';
import {
  createSubscriber,
  deleteSubscriber,
  getSubscriber,
  listMessages,
  markMessagesAs,
  patchSubscriber,
  searchSubscribers,
  updateOnlineStatus,
} from './subscribers.js';
import type { Routes } from './types.js';
import { triggerBroadcast } from './broadcast.js';
import { appendSubscriberCredentials, bulkCreateSubscribers, deleteSubscriberCredentials, updateSubscriberCredentials } from './credentials.js';
import { getTopicSubscriber, getTopicSubscription, listSubscriberSubscriptions, updateTopicSubscription } from './topic-subscriptions.js';
import {
  bulkSubscriberPreferences,
  createTopic,
  createTopicSubscriptions,
  deleteTopic,
  deleteTopicSubscriptions,
  getCurrentEnvironment,
  getSubscriberPreferences,
  getTopic,
  listTopicSubscriptions,
  listTopics,
  patchSubscriberPreferences,
  updateIntegration,
  updateTopic,
} from '../inbox/operator.js';
import { createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, patchWorkflow, previewStep, updateWorkflow } from './workflows.js';

export const routes: Routes = {
  listChannelEndpoints,
  previewStep: withBridgePreview(previewStep),
  updateOnlineStatus,
  updateChannelConnection,
  searchSubscribers,
  listActiveIntegrations,
  markMessagesAs,
  createContext,
  createChannelConnection,
  setPrimaryIntegration,
  getWorkflow,
  getEvent,
  triggerEvent: withTriggerBridge(triggerEvent),
  listEvents,
  getLocalService,
  triggerBulk: withBulkBridge(triggerBulk),
  cancelEvent,
  listChannelConnections,
  getChannelConnection,
  deleteChannelConnection,
  createChannelEndpoint,
  getChannelEndpoint,
  updateChannelEndpoint,
  deleteChannelEndpoint,
  createWorkflow,
  listMessages,
  listWorkflows,
  updateWorkflow,
  patchWorkflow,
  deleteWorkflow,
  createSubscriber,
  getSubscriber,
  patchSubscriber,
  deleteSubscriber,
  bridgeSync,
  getCurrentEnvironment,
  updateIntegration,
  getSubscriberPreferences,
  patchSubscriberPreferences,
  bulkSubscriberPreferences,
  listTopics,
  createTopic,
  getTopic,
  updateTopic,
  deleteTopic,
  listTopicSubscriptions,
  createTopicSubscriptions,
  deleteTopicSubscriptions,
  generateChatOauthUrl,
  generateConnectOauthUrl,
  generateLinkUserOauthUrl,
  listContexts,
  getContext,
  updateContext,
  deleteContext,
  listIntegrations,
  createIntegration,
  deleteIntegration,
  deleteMessage,
  deleteMessagesByTransaction,
  waitForMessage,
  getMessage,
  triggerBroadcast,
  bulkCreateSubscribers,
  updateSubscriberCredentials,
  appendSubscriberCredentials,
  deleteSubscriberCredentials,
  listSubscriberSubscriptions,
  getTopicSubscriber,
  getTopicSubscription,
  updateTopicSubscription,
};

export type { Service } from './types.js';
