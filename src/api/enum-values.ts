// The API's enumeration values (api-spec.md, "Enumerations"), with no dependencies: the command tree
// uses them for choices and completion, and schemas/enums.ts builds the zod enums from them.

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;

export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'throttle', 'custom', 'http_request'] as const;

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;

export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

export const ORDER_DIRECTIONS = ['ASC', 'DESC'] as const;

export const CHANNEL_ENDPOINT_TYPES = ['slack_channel', 'slack_user', 'webhook', 'phone', 'ms_teams_channel', 'ms_teams_user'] as const;

export const CONNECTION_MODES = ['subscriber', 'shared'] as const;

export const MARK_AS = ['read', 'seen', 'unread', 'unseen'] as const;

export const PROVIDER_IDS = [
  'emailjs',
  'mailgun',
  'mailjet',
  'mandrill',
  'nodemailer',
  'postmark',
  'sendgrid',
  'sendinblue',
  'ses',
  'netcore',
  'infobip-email',
  'resend',
  'plunk',
  'mailersend',
  'mailtrap',
  'clickatell',
  'outlook365',
  'svc-email',
  'sparkpost',
  'email-webhook',
  'braze',
  'svc-email-agent',
  'nexmo',
  'plivo',
  'sms77',
  'sms-central',
  'sns',
  'telnyx',
  'twilio',
  'gupshup',
  'firetext',
  'infobip-sms',
  'burst-sms',
  'bulk-sms',
  'isend-sms',
  'forty-six-elks',
  'kannel',
  'maqsam',
  'termii',
  'africas-talking',
  'svc-sms',
  'sendchamp',
  'generic-sms',
  'clicksend',
  'bandwidth',
  'messagebird',
  'simpletexting',
  'azure-sms',
  'ring-central',
  'brevo-sms',
  'eazy-sms',
  'mobishastra',
  'afro-message',
  'unifonic',
  'smsmode',
  'imedia',
  'sinch',
  'isendpro-sms',
  'cm-telecom',
  'fcm',
  'apns',
  'expo',
  'one-signal',
  'pushpad',
  'push-webhook',
  'pusher-beams',
  'appio',
  'svc',
  'slack',
  'discord',
  'msteams',
  'mattermost',
  'ryver',
  'zulip',
  'grafana-on-call',
  'getstream',
  'rocket-chat',
  'whatsapp-business',
  'chat-webhook',
  'svc-slack',
  'anthropic',
] as const;

export const CHAT_PUSH_PROVIDER_IDS = [
  'slack',
  'discord',
  'msteams',
  'mattermost',
  'ryver',
  'zulip',
  'grafana-on-call',
  'getstream',
  'rocket-chat',
  'whatsapp-business',
  'chat-webhook',
  'svc-slack',
  'fcm',
  'apns',
  'expo',
  'one-signal',
  'pushpad',
  'push-webhook',
  'pusher-beams',
  'appio',
] as const;

export const JOB_STATUSES = ['pending', 'queued', 'running', 'completed', 'failed', 'delayed', 'canceled', 'merged', 'skipped'] as const;

export const TRIGGER_STATUSES = [
  'error',
  'trigger_not_active',
  'no_workflow_active_steps_defined',
  'no_workflow_steps_defined',
  'processed',
  'no_tenant_found',
  'invalid_recipients',
] as const;

export const CONTROL_ISSUE_TYPES = [
  'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
  'INVALID_FILTER_ARG_IN_VARIABLE',
  'INVALID_URL',
  'MISSING_VALUE',
  'TIER_LIMIT_EXCEEDED',
] as const;

export const INTEGRATION_ISSUE_TYPES = ['MISSING_INTEGRATION', 'INBOX_NOT_CONNECTED'] as const;

export const FILTER_OPERATORS = [
  'LARGER',
  'SMALLER',
  'LARGER_EQUAL',
  'SMALLER_EQUAL',
  'EQUAL',
  'NOT_EQUAL',
  'ALL_IN',
  'ANY_IN',
  'NOT_IN',
  'BETWEEN',
  'NOT_BETWEEN',
  'LIKE',
  'NOT_LIKE',
  'IN',
] as const;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

type JobStatusValue = (typeof JOB_STATUSES)[number];
/** A job in one of these states will not change any more. */
export const TERMINAL_JOB_STATUSES: readonly JobStatusValue[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/** Sort fields of the cursor lists (ground truth, "Cursor pagination"). */
export const ENDPOINT_ORDER_BY = ['createdAt', 'updatedAt'] as const;
export const SUBSCRIBER_ORDER_BY = ['_id', 'updatedAt'] as const;

export { OBJECT_ID_RE } from '../core/object-id.js';
