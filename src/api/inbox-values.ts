// Values of the in-app Inbox's schemas that commands need at start-up (flag checks, help text)
// without loading zod: the channels a preference switches, the severities, a topic key's form.

export const INBOX_SEVERITIES = ['high', 'medium', 'low', 'none'] as const;
export const INBOX_CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export const TOPIC_KEY_RE = /^[a-zA-Z0-9_:-]+$/;
