// Schema migrations, versioned in code. The database's `PRAGMA user_version` is the number of
// migrations applied; a new migration is appended, never edited, so that every store written by an
// older svc can be brought forward and a store written by a newer svc is recognised and refused.
//
// Records keep the fields the service filters or sorts on as columns and the rest as a JSON `doc`,
// because the API's resources are wide, loosely typed documents and only a few fields are queried.

import { txKeySql } from './repo.js';

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL
  );
  CREATE TABLE environments (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL REFERENCES organizations(id), name TEXT NOT NULL,
    api_key TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, UNIQUE (org_id, name)
  );
  CREATE TABLE subscribers (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, subscriber_id TEXT NOT NULL,
    first_name TEXT, last_name TEXT, email TEXT, phone TEXT, doc TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, subscriber_id)
  );
  CREATE INDEX subscribers_updated ON subscribers (env_id, updated_at, id);
  CREATE TABLE integrations (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, identifier TEXT NOT NULL,
    provider_id TEXT NOT NULL, channel TEXT, active INTEGER NOT NULL, is_primary INTEGER NOT NULL,
    doc TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, identifier)
  );
  CREATE INDEX integrations_org ON integrations (org_id, active);
  CREATE TABLE workflows (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, workflow_id TEXT NOT NULL,
    slug TEXT NOT NULL, active INTEGER NOT NULL, doc TEXT NOT NULL, last_triggered_at TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, workflow_id)
  );
  CREATE TABLE contexts (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, type TEXT NOT NULL, ctx_id TEXT NOT NULL,
    data TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, type, ctx_id)
  );
  CREATE TABLE tenants (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, identifier TEXT NOT NULL, name TEXT,
    data TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, identifier)
  );
  CREATE TABLE topics (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, key TEXT NOT NULL, name TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, key)
  );
  CREATE TABLE topic_subscribers (
    topic_id TEXT NOT NULL, subscriber_id TEXT NOT NULL, created_at TEXT NOT NULL,
    PRIMARY KEY (topic_id, subscriber_id)
  );
  -- One row per accepted transactionId: a repeat answers the stored result and creates nothing.
  CREATE TABLE triggers (
    env_id TEXT NOT NULL, transaction_id TEXT NOT NULL, result TEXT NOT NULL, created_at TEXT NOT NULL,
    PRIMARY KEY (env_id, transaction_id)
  );
  CREATE TABLE notifications (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, transaction_id TEXT NOT NULL,
    workflow_id TEXT NOT NULL, subscriber_id TEXT NOT NULL, channels TEXT NOT NULL, severity TEXT NOT NULL,
    context_keys TEXT NOT NULL, topic_keys TEXT NOT NULL, doc TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
  );
  CREATE INDEX notifications_created ON notifications (env_id, created_at, id);
  CREATE INDEX notifications_tx ON notifications (env_id, transaction_id);
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, notification_id TEXT NOT NULL,
    subscriber_id TEXT NOT NULL, workflow_id TEXT NOT NULL, step_index INTEGER NOT NULL, type TEXT NOT NULL,
    status TEXT NOT NULL, run_at INTEGER NOT NULL, provider_id TEXT, state TEXT NOT NULL, doc TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
  );
  CREATE INDEX jobs_notification ON jobs (notification_id, step_index);
  CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status IN ('queued', 'delayed');
  CREATE TABLE execution_details (
    id TEXT PRIMARY KEY, job_id TEXT NOT NULL, notification_id TEXT NOT NULL, status TEXT NOT NULL,
    detail TEXT NOT NULL, source TEXT NOT NULL, provider_id TEXT, raw TEXT, created_at TEXT NOT NULL
  );
  CREATE INDEX execution_details_notification ON execution_details (notification_id, id);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, notification_id TEXT NOT NULL,
    job_id TEXT NOT NULL, subscriber_id TEXT NOT NULL, channel TEXT NOT NULL, transaction_id TEXT NOT NULL,
    read INTEGER NOT NULL, seen INTEGER NOT NULL, status TEXT NOT NULL, context_keys TEXT NOT NULL,
    doc TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
  );
  CREATE INDEX messages_created ON messages (env_id, created_at, id);
  CREATE INDEX messages_subscriber ON messages (subscriber_id, created_at);
  CREATE TABLE channel_connections (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, identifier TEXT NOT NULL,
    integration_identifier TEXT NOT NULL, subscriber_id TEXT, context_keys TEXT NOT NULL, channel TEXT,
    provider_id TEXT, doc TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    UNIQUE (env_id, identifier)
  );
  CREATE TABLE channel_endpoints (
    id TEXT PRIMARY KEY, env_id TEXT NOT NULL, org_id TEXT NOT NULL, identifier TEXT NOT NULL,
    integration_identifier TEXT NOT NULL, connection_identifier TEXT, subscriber_id TEXT,
    context_keys TEXT NOT NULL, channel TEXT, provider_id TEXT, type TEXT NOT NULL, doc TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (env_id, identifier)
  );
  -- Idempotency-key cache, per organisation, kept 24 h; persisted so replays survive a restart.
  CREATE TABLE idempotency (
    org_id TEXT NOT NULL, key TEXT NOT NULL, body_hash TEXT NOT NULL, state TEXT NOT NULL,
    status INTEGER, body TEXT, expires_at INTEGER NOT NULL, PRIMARY KEY (org_id, key)
  );
  `,
  // The workflow engine: digest and throttle steps find the other executions of their group (the
  // open digest of a subscriber and key, the executions a throttle window counts) by `group_key`.
  `
  ALTER TABLE jobs ADD COLUMN group_key TEXT;
  CREATE INDEX jobs_group ON jobs (group_key, status) WHERE group_key IS NOT NULL;
  `,
  // Compact activity (issue 11): a job names its step definition by content (one stored copy per
  // distinct step, not one per job), and keeps its execution details in a JSON array on its own row
  // (no row, id and two index entries per detail). Rows written before keep their doc and details.
  `
  CREATE TABLE step_defs (ref TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID;
  ALTER TABLE jobs ADD COLUMN step_ref TEXT;
  ALTER TABLE jobs ADD COLUMN details TEXT;
  `,
  // Compact activity, second step (issue 11: at most 1.5 KB per notification). Times are integers
  // (service milliseconds: 6 bytes instead of a 24-character ISO string), and ObjectIds their 12 bytes
  // (BLOB) instead of 24 hex characters, and UUID transactionIds their 16 bytes, in each row and index
  // (other ids stay text: idText and txKey in repo.ts).
  // A job or message no longer repeats what its event holds (environment, organisation, subscriber,
  // workflow, transactionId, context keys: read through the event). The event's transactionId index
  // no longer starts with the environment (the row says which). Tables are rebuilt in rowid order.
  `
  CREATE TABLE notifications_4 (
    id BLOB PRIMARY KEY, env_id BLOB NOT NULL, org_id BLOB NOT NULL, transaction_id BLOB NOT NULL,
    workflow_id BLOB NOT NULL, subscriber_id BLOB NOT NULL, channels TEXT NOT NULL, severity TEXT NOT NULL,
    context_keys TEXT NOT NULL, topic_keys TEXT NOT NULL, doc TEXT NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  INSERT INTO notifications_4 SELECT ${key('id')}, ${key('env_id')}, ${key('org_id')}, ${txKeySql('transaction_id')}, ${key('workflow_id')},
    ${key('subscriber_id')}, channels, severity, context_keys, topic_keys, doc, ${ms('created_at')}, ${ms('updated_at')}
    FROM notifications ORDER BY rowid;
  DROP TABLE notifications;
  ALTER TABLE notifications_4 RENAME TO notifications;
  CREATE INDEX notifications_created ON notifications (env_id, created_at, id);
  CREATE INDEX notifications_tx ON notifications (transaction_id);

  CREATE TABLE jobs_4 (
    id BLOB PRIMARY KEY, notification_id BLOB NOT NULL, step_index INTEGER NOT NULL, type TEXT NOT NULL,
    status TEXT NOT NULL, run_at INTEGER NOT NULL, provider_id TEXT, state TEXT NOT NULL, step_ref TEXT,
    details TEXT, group_key TEXT, doc TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  INSERT INTO jobs_4 SELECT ${key('id')}, ${key('notification_id')}, step_index, type, status, run_at, provider_id, state,
    step_ref, details, group_key, nullif(doc, ''), ${ms('created_at')}, ${ms('updated_at')} FROM jobs ORDER BY rowid;
  DROP TABLE jobs;
  ALTER TABLE jobs_4 RENAME TO jobs;
  CREATE INDEX jobs_notification ON jobs (notification_id, step_index);
  CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status IN ('queued', 'delayed');
  CREATE INDEX jobs_group ON jobs (group_key, status) WHERE group_key IS NOT NULL;

  CREATE TABLE messages_4 (
    id BLOB PRIMARY KEY, env_id BLOB NOT NULL, notification_id BLOB NOT NULL, job_id BLOB NOT NULL,
    subscriber_id BLOB NOT NULL, channel TEXT NOT NULL, read INTEGER NOT NULL, seen INTEGER NOT NULL,
    status TEXT NOT NULL, doc TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  INSERT INTO messages_4 SELECT ${key('id')}, ${key('env_id')}, ${key('notification_id')}, ${key('job_id')}, ${key('subscriber_id')},
    channel, read, seen, status, doc, ${ms('created_at')}, ${ms('updated_at')} FROM messages ORDER BY rowid;
  DROP TABLE messages;
  ALTER TABLE messages_4 RENAME TO messages;
  CREATE INDEX messages_created ON messages (env_id, created_at, id);
  CREATE INDEX messages_subscriber ON messages (subscriber_id, created_at);
  `,
  // The in-app Inbox: a message's archived and snoozed states are columns (its filters and counts
  // read them; the partial index answers the unread and unseen counts without reading rows; the list
  // walks messages_subscriber newest first), each environment has an application identifier and the secret its subscriber session
  // tokens are signed with, and a subscriber's own channel preferences (global: workflow_id '').
  `
  ALTER TABLE messages ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE messages ADD COLUMN snoozed_until INTEGER;
  CREATE INDEX messages_inbox_state ON messages (subscriber_id, read, archived, seen, snoozed_until) WHERE channel = 'in_app';
  CREATE TABLE inbox_environments (
    env_id TEXT PRIMARY KEY, identifier TEXT NOT NULL UNIQUE, jwt_secret TEXT NOT NULL
  );
  CREATE TABLE subscriber_preferences (
    subscriber_id TEXT NOT NULL, workflow_id TEXT NOT NULL, channels TEXT NOT NULL, schedule TEXT,
    updated_at INTEGER NOT NULL, PRIMARY KEY (subscriber_id, workflow_id)
  ) WITHOUT ROWID;
  `,
];

/** SQL for an id column as its key (see idText in repo.ts): a lower-case 24-digit hex ObjectId as its 12 bytes. */
function key(column: string): string {
  return `CASE WHEN length(${column}) = 24 AND ${column} NOT GLOB '*[^0-9a-f]*' THEN unhex(${column}) ELSE ${column} END`;
}

/** SQL for an ISO time column as integer milliseconds (exact: julianday keeps well under 1 ms). */
function ms(column: string): string {
  return `CAST(round((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`;
}

export const SCHEMA_VERSION = MIGRATIONS.length;
