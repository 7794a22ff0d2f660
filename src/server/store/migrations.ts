// Schema migrations, versioned in code. The database's `PRAGMA user_version` is the number of
// migrations applied; a new migration is appended, never edited, so that every store written by an
// older svc can be brought forward and a store written by a newer svc is recognised and refused.
// Each is the literal SQL it ran (no helper of the live code builds it: changing that helper would
// change a migration that has already run on users' stores).
//
// Records keep the fields the service filters or sorts on as columns and the rest as a JSON `doc`,
// because the API's resources are wide, loosely typed documents and only a few fields are queried.

import { createHash } from 'node:crypto';

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
  // Compact activity: a job names its step definition by content (one stored copy per
  // distinct step, not one per job), and keeps its execution details in a JSON array on its own row
  // (no row, id and two index entries per detail). Rows written before keep their doc and details.
  `
  CREATE TABLE step_defs (ref TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID;
  ALTER TABLE jobs ADD COLUMN step_ref TEXT;
  ALTER TABLE jobs ADD COLUMN details TEXT;
  `,
  // Compact activity, second step (at most 1.5 KB per notification). Times are integers (service
  // milliseconds: 6 bytes instead of a 24-character ISO string), and ObjectIds their 12 bytes (BLOB)
  // instead of 24 hex characters, and UUID transactionIds their 16 bytes, in each row and index.
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
  INSERT INTO notifications_4 SELECT CASE WHEN length(id) = 24 AND id NOT GLOB '*[^0-9a-f]*' THEN unhex(id) ELSE id END, CASE WHEN length(env_id) = 24 AND env_id NOT GLOB '*[^0-9a-f]*' THEN unhex(env_id) ELSE env_id END, CASE WHEN length(org_id) = 24 AND org_id NOT GLOB '*[^0-9a-f]*' THEN unhex(org_id) ELSE org_id END, iif(transaction_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]', unhex(replace(transaction_id, '-', '')), transaction_id), CASE WHEN length(workflow_id) = 24 AND workflow_id NOT GLOB '*[^0-9a-f]*' THEN unhex(workflow_id) ELSE workflow_id END,
    CASE WHEN length(subscriber_id) = 24 AND subscriber_id NOT GLOB '*[^0-9a-f]*' THEN unhex(subscriber_id) ELSE subscriber_id END, channels, severity, context_keys, topic_keys, doc, CAST(round((julianday(created_at) - 2440587.5) * 86400000) AS INTEGER), CAST(round((julianday(updated_at) - 2440587.5) * 86400000) AS INTEGER)
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
  INSERT INTO jobs_4 SELECT CASE WHEN length(id) = 24 AND id NOT GLOB '*[^0-9a-f]*' THEN unhex(id) ELSE id END, CASE WHEN length(notification_id) = 24 AND notification_id NOT GLOB '*[^0-9a-f]*' THEN unhex(notification_id) ELSE notification_id END, step_index, type, status, run_at, provider_id, state,
    step_ref, details, group_key, nullif(doc, ''), CAST(round((julianday(created_at) - 2440587.5) * 86400000) AS INTEGER), CAST(round((julianday(updated_at) - 2440587.5) * 86400000) AS INTEGER) FROM jobs ORDER BY rowid;
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
  INSERT INTO messages_4 SELECT CASE WHEN length(id) = 24 AND id NOT GLOB '*[^0-9a-f]*' THEN unhex(id) ELSE id END, CASE WHEN length(env_id) = 24 AND env_id NOT GLOB '*[^0-9a-f]*' THEN unhex(env_id) ELSE env_id END, CASE WHEN length(notification_id) = 24 AND notification_id NOT GLOB '*[^0-9a-f]*' THEN unhex(notification_id) ELSE notification_id END, CASE WHEN length(job_id) = 24 AND job_id NOT GLOB '*[^0-9a-f]*' THEN unhex(job_id) ELSE job_id END, CASE WHEN length(subscriber_id) = 24 AND subscriber_id NOT GLOB '*[^0-9a-f]*' THEN unhex(subscriber_id) ELSE subscriber_id END,
    channel, read, seen, status, doc, CAST(round((julianday(created_at) - 2440587.5) * 86400000) AS INTEGER), CAST(round((julianday(updated_at) - 2440587.5) * 86400000) AS INTEGER) FROM messages ORDER BY rowid;
  DROP TABLE messages;
  ALTER TABLE messages_4 RENAME TO messages;
  CREATE INDEX messages_created ON messages (env_id, created_at, id);
  CREATE INDEX messages_subscriber ON messages (subscriber_id, created_at);
  `,
  // One store format: what migrations 3 and 4 left in its older form is converted, so that every
  // read knows one form. Execution details kept as rows join their job's `details` array (oldest
  // first; their ids become the derived ones, as every detail's: nothing looks a detail up by id); a
  // job's step definition kept in its `doc` goes to step_defs; a digest or throttle group kept as
  // its whole key becomes its reference (svc_group_ref: '#' and 16 characters of its SHA-1, as the
  // runner writes it); ids kept as text become their 12 bytes. The triggers table goes: since the
  // events' transactionId index became the record of accepted transactionIds nothing writes it, and
  // a repeat of a transactionId whose trigger created no event is accepted anew, as in a new store.
  `
  UPDATE jobs SET details = (
    SELECT json_group_array(json(v) ORDER BY part, t, k) FROM (
      SELECT json_array(d.status, d.detail, CAST(round((julianday(d.created_at) - 2440587.5) * 86400000) AS INTEGER) - jobs.created_at,
        d.provider_id, nullif(d.source, 'Internal'), d.raw) AS v, 0 AS part, d.created_at AS t, d.id AS k
      FROM execution_details d WHERE d.notification_id = lower(hex(jobs.notification_id)) AND d.job_id = lower(hex(jobs.id))
      UNION ALL
      SELECT value, 1, '', key FROM json_each(coalesce(jobs.details, '[]'))
    )
  ) WHERE id IN (SELECT unhex(job_id) FROM execution_details);
  DROP TABLE execution_details;

  INSERT OR IGNORE INTO step_defs (ref, doc)
    SELECT '~' || lower(hex(min(id))), json_extract(doc, '$.step') FROM jobs WHERE step_ref IS NULL AND doc IS NOT NULL GROUP BY 2;
  UPDATE jobs SET step_ref = (SELECT ref FROM step_defs WHERE ref LIKE '~%' AND doc = json_extract(jobs.doc, '$.step'))
    WHERE step_ref IS NULL AND doc IS NOT NULL;
  ALTER TABLE jobs DROP COLUMN doc;

  UPDATE jobs SET group_key = svc_group_ref(group_key) WHERE group_key IS NOT NULL AND group_key NOT LIKE '#%';

  UPDATE notifications SET id = iif(typeof(id) = 'text', coalesce(unhex(id), id), id), env_id = iif(typeof(env_id) = 'text', coalesce(unhex(env_id), env_id), env_id),
    org_id = iif(typeof(org_id) = 'text', coalesce(unhex(org_id), org_id), org_id), workflow_id = iif(typeof(workflow_id) = 'text', coalesce(unhex(workflow_id), workflow_id), workflow_id),
    subscriber_id = iif(typeof(subscriber_id) = 'text', coalesce(unhex(subscriber_id), subscriber_id), subscriber_id)
    WHERE 'text' IN (typeof(id), typeof(env_id), typeof(org_id), typeof(workflow_id), typeof(subscriber_id));
  UPDATE jobs SET id = iif(typeof(id) = 'text', coalesce(unhex(id), id), id), notification_id = iif(typeof(notification_id) = 'text', coalesce(unhex(notification_id), notification_id), notification_id)
    WHERE 'text' IN (typeof(id), typeof(notification_id));
  UPDATE messages SET id = iif(typeof(id) = 'text', coalesce(unhex(id), id), id), env_id = iif(typeof(env_id) = 'text', coalesce(unhex(env_id), env_id), env_id),
    notification_id = iif(typeof(notification_id) = 'text', coalesce(unhex(notification_id), notification_id), notification_id),
    job_id = iif(typeof(job_id) = 'text', coalesce(unhex(job_id), job_id), job_id), subscriber_id = iif(typeof(subscriber_id) = 'text', coalesce(unhex(subscriber_id), subscriber_id), subscriber_id)
    WHERE 'text' IN (typeof(id), typeof(env_id), typeof(notification_id), typeof(job_id), typeof(subscriber_id));

  DROP TABLE triggers;
  `,
  // The feed at any size: each filter the CLI, the terminal browser and the console send finds its
  // rows through an index in the listed order (newest first), so a page stops after its rows instead
  // of reading every newer event: a subscriber's events, a workflow's, a severity's, a channel's (one
  // partial index per channel, as `channels` is a JSON array; the query names the same condition),
  // a channel's messages in an environment (their count reads the index alone; a subscriber's
  // messages already have an index), and an event's messages (also what retention deletes by).
  // Ties in time are ordered by id after the index (a sort of one instant), which keeps each entry
  // 12 bytes smaller; the newest-first indexes of events and messages drop their id for the same
  // reason, paying for part of the new ones.
  `
  DROP INDEX notifications_created;
  CREATE INDEX notifications_created ON notifications (env_id, created_at);
  DROP INDEX messages_created;
  CREATE INDEX messages_created ON messages (env_id, created_at);
  CREATE INDEX notifications_subscriber ON notifications (subscriber_id, created_at);
  CREATE INDEX notifications_workflow ON notifications (workflow_id, created_at);
  CREATE INDEX notifications_severity ON notifications (severity, created_at);
  CREATE INDEX notifications_in_app ON notifications (created_at) WHERE channels LIKE '%"in_app"%';
  CREATE INDEX notifications_email ON notifications (created_at) WHERE channels LIKE '%"email"%';
  CREATE INDEX notifications_sms ON notifications (created_at) WHERE channels LIKE '%"sms"%';
  CREATE INDEX notifications_chat ON notifications (created_at) WHERE channels LIKE '%"chat"%';
  CREATE INDEX notifications_push ON notifications (created_at) WHERE channels LIKE '%"push"%';
  CREATE INDEX messages_channel ON messages (env_id, channel, created_at);
  CREATE INDEX messages_notification ON messages (notification_id);
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
  // The message list's totalCount at any size: how many messages each environment has on each channel,
  // and each subscriber on each channel, kept by triggers on every insert, delete (retention, the
  // Inbox's delete) and change of those columns. A count of the whole environment, of a channel, of a
  // subscriber or of a subscriber's channel (an inbox) reads at most one row per channel, where a
  // count through an index read up to 50,000 entries per page. Filled from the messages already stored.
  `
  CREATE TABLE message_counts_env (
    env_id BLOB NOT NULL, channel TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (env_id, channel)
  ) WITHOUT ROWID;
  CREATE TABLE message_counts_subscriber (
    subscriber_id BLOB NOT NULL, channel TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (subscriber_id, channel)
  ) WITHOUT ROWID;
  INSERT INTO message_counts_env SELECT env_id, channel, count(*) FROM messages GROUP BY env_id, channel;
  INSERT INTO message_counts_subscriber SELECT subscriber_id, channel, count(*) FROM messages GROUP BY subscriber_id, channel;
  CREATE TRIGGER messages_counted AFTER INSERT ON messages BEGIN
    INSERT INTO message_counts_env VALUES (NEW.env_id, NEW.channel, 1) ON CONFLICT DO UPDATE SET n = n + 1;
    INSERT INTO message_counts_subscriber VALUES (NEW.subscriber_id, NEW.channel, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER messages_uncounted AFTER DELETE ON messages BEGIN
    UPDATE message_counts_env SET n = n - 1 WHERE env_id = OLD.env_id AND channel = OLD.channel;
    UPDATE message_counts_subscriber SET n = n - 1 WHERE subscriber_id = OLD.subscriber_id AND channel = OLD.channel;
  END;
  CREATE TRIGGER messages_recounted AFTER UPDATE OF env_id, subscriber_id, channel ON messages
  WHEN OLD.env_id IS NOT NEW.env_id OR OLD.subscriber_id IS NOT NEW.subscriber_id OR OLD.channel IS NOT NEW.channel BEGIN
    UPDATE message_counts_env SET n = n - 1 WHERE env_id = OLD.env_id AND channel = OLD.channel;
    UPDATE message_counts_subscriber SET n = n - 1 WHERE subscriber_id = OLD.subscriber_id AND channel = OLD.channel;
    INSERT INTO message_counts_env VALUES (NEW.env_id, NEW.channel, 1) ON CONFLICT DO UPDATE SET n = n + 1;
    INSERT INTO message_counts_subscriber VALUES (NEW.subscriber_id, NEW.channel, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  `,
  // The Inbox's topic subscriptions, made by a subscriber from an app's <Inbox/>: each has an
  // identifier unique in its topic and a name, beside the topic_subscribers row the trigger's
  // fan-out reads; and each subscription's preference per workflow (on or off, a condition, channels),
  // listed in the order they were first set (seq).
  `
  CREATE TABLE topic_subscriptions (
    id TEXT PRIMARY KEY, topic_id TEXT NOT NULL, subscriber_id TEXT NOT NULL, identifier TEXT NOT NULL,
    name TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (topic_id, identifier)
  );
  CREATE INDEX topic_subscriptions_subscriber ON topic_subscriptions (subscriber_id, identifier);
  CREATE TABLE topic_subscription_preferences (
    subscription_id TEXT NOT NULL, workflow_id TEXT NOT NULL, seq INTEGER NOT NULL, enabled INTEGER NOT NULL,
    condition TEXT, channels TEXT NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (subscription_id, workflow_id)
  ) WITHOUT ROWID;
  `,
  // Readable jobs: a job's status is one of the API's words, checked by the schema; its execution
  // details are arrays of words ([status, detail, ms after the job's creation, providerId, source,
  // raw]) where migration 5 had kept the usual statuses and texts as numbers (positions in lists in
  // the code); a state kept as {"$s": 0, ...} (the in-app output every in-app job had) is written out.
  // The table is rebuilt in rowid order for the CHECK.
  `
  CREATE TABLE jobs_words (
    id BLOB PRIMARY KEY, notification_id BLOB NOT NULL, step_index INTEGER NOT NULL, type TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'queued', 'running', 'completed', 'failed', 'delayed', 'canceled', 'merged', 'skipped')),
    run_at INTEGER NOT NULL, provider_id TEXT, state TEXT NOT NULL, step_ref TEXT, details TEXT, group_key TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  INSERT INTO jobs_words SELECT id, notification_id, step_index, type, status, run_at, provider_id,
    CASE WHEN json_extract(state, '$."$s"') = 0 THEN
      iif(json_type(state, '$.output') IS NULL,
        json_set(json_remove(state, '$."$s"'), '$.output', json('{"seen":false,"read":false,"lastSeenDate":null,"lastReadDate":null}')),
        json_remove(state, '$."$s"'))
    ELSE state END,
    step_ref,
    CASE WHEN details IS NULL THEN NULL ELSE (
      SELECT json_group_array(json_set(d.value,
        '$[0]', CASE json_extract(d.value, '$[0]') WHEN 0 THEN 'Success' WHEN 1 THEN 'Warning' WHEN 2 THEN 'Failed' WHEN 3 THEN 'Pending'
          WHEN 4 THEN 'Queued' WHEN 5 THEN 'ReadConfirmation' ELSE json_extract(d.value, '$[0]') END,
        '$[1]', CASE json_extract(d.value, '$[1]') WHEN 0 THEN 'Step queued' WHEN 1 THEN 'Start sending message' WHEN 2 THEN 'Message created'
          WHEN 3 THEN 'Message sent' WHEN 4 THEN 'Step running' ELSE json_extract(d.value, '$[1]') END) ORDER BY d.key)
      FROM json_each(details) d
    ) END,
    group_key, created_at, updated_at FROM jobs ORDER BY rowid;
  DROP TABLE jobs;
  ALTER TABLE jobs_words RENAME TO jobs;
  CREATE INDEX jobs_notification ON jobs (notification_id, step_index);
  CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status IN ('queued', 'delayed');
  CREATE INDEX jobs_group ON jobs (group_key, status) WHERE group_key IS NOT NULL;
  `,
  // Environments as the service has them (POST /v1/environments): the environment a new one was made
  // from (its parent) and its colour.
  `
  ALTER TABLE environments ADD COLUMN parent_id TEXT;
  ALTER TABLE environments ADD COLUMN color TEXT;
  `,
  // Email layouts (/v2/layouts): an environment's frames for email bodies, one of them its default.
  `
  CREATE TABLE layouts (
    id TEXT PRIMARY KEY,
    env_id TEXT NOT NULL,
    org_id TEXT NOT NULL,
    layout_id TEXT NOT NULL,
    name TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    doc TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX layouts_env_layout_id ON layouts (env_id, layout_id);
  `,
  // Translations: a resource's texts per locale (a workflow by its identifier, or a layout).
  `
  CREATE TABLE translations (
    env_id TEXT NOT NULL, resource_type TEXT NOT NULL, resource_id TEXT NOT NULL, locale TEXT NOT NULL,
    content TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    PRIMARY KEY (env_id, resource_type, resource_id, locale)
  ) WITHOUT ROWID;
  CREATE INDEX translations_locale ON translations (env_id, locale);
  `,
  // The organisation's environment variables (/v1/environment-variables): one key per organisation,
  // its type, secrecy and per-environment values in the document.
  `
  CREATE TABLE environment_variables (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    key TEXT NOT NULL,
    doc TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (org_id, key)
  );
  `,
  // Inbound-email domains (names unique across the service) and their routes (an address unique on
  // its domain).
  `
  CREATE TABLE domains (id TEXT PRIMARY KEY, env_id TEXT NOT NULL, name TEXT NOT NULL UNIQUE, doc TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
  CREATE INDEX domains_env ON domains (env_id, created_at);
  CREATE TABLE domain_routes (id TEXT PRIMARY KEY, domain_id TEXT NOT NULL, address TEXT NOT NULL, doc TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (domain_id, address));
  `,
];

/**
 * SQL functions the migrations call, frozen with them: svc_group_ref(key) is a digest or throttle
 * group's reference as migration 5 wrote it.
 */
export const MIGRATION_FUNCTIONS: Readonly<Record<string, (text: string) => string>> = {
  svc_group_ref: (key) => `#${createHash('sha1').update(key).digest('base64url').slice(0, 16)}`,
};

export const SCHEMA_VERSION = MIGRATIONS.length;
