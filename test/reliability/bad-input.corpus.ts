// The corpus of malformed input. Every row must end with exit code 2, a one-line message on stderr
// that names the flag or field (`names`), and no request sent. `{dir}` in an argument is the directory
// of input files the test prepares (see FILES); `stdin` is what the command reads from standard input.
export interface BadInput {
  /** What kind of mistake it is, for the count by kind. */
  kind: string;
  argv: string[];
  stdin?: string;
  /** What the message must name: the flag, argument or field at fault. */
  names: string | RegExp;
}

export const ID = '6761f0c2a3b4c5d6e7f80912';
const TRIGGER = ['trigger', 'welcome', '--to', 'u1'];
const PREVIEW = ['workflow', 'preview', 'welcome', 'in-app'];
const ENDPOINT = ['endpoints', 'create', '--subscriber', 'u1', '--integration', 'twilio', '--type', 'phone'];
const CONNECTION = ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1'];

/** Files the test writes in {dir}: name → content (null: the test makes it specially). */
export const FILES: Record<string, string | Buffer | null> = {
  'users.csv': 'subscriberId\nu1\n',
  'bad.json': '{\n  "name": "Ada",\n  "tags": ["a", "b",]\n}\n',
  'bad.yaml': 'name: Ada\ntags: [a, b\n',
  'array.json': '[1, 2, 3]\n',
  'string.json': '"just a string"\n',
  'null.json': 'null\n',
  'huge.json': `{"blob": "${'x'.repeat(27 * 1024 * 1024)}"}`,
  'utf16.json': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')]),
  'nul.json': '{"a": "\u0000"}\u0000',
  'deep.json': `{"x": ${'['.repeat(5000)}${']'.repeat(5000)}}`,
  'deep.yaml': `x: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
  'deep.ndjson': `{"subscriberId":"u1","payload":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}\n`,
  'deep-seed.json': `{"contexts": [{"type": "t", "id": "i", "data": {"x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}}]}`,
  'unreadable.json': null,
  'a-directory': null,
  'unknown-column.csv': 'subscriberId,favouriteColour\nu1,blue\n',
  'no-id-column.csv': 'email,firstName\nada@example.com,Ada\n',
  'missing-id.csv': 'subscriberId,firstName\nu1,Ada\n,Grace\nu3,Alan\n',
  'ragged.csv': 'subscriberId,firstName\nu1,Ada\nu2,Grace,extra,columns\n',
  'bad-quotes.csv': 'subscriberId,firstName\nu1,"Ada\nu2,Grace\n',
  'duplicate-column.csv': 'subscriberId,firstName,firstName\nu1,Ada,Ada\n',
  'control-id.csv': 'subscriberId\nu1\nu\u00072\n',
  'long-id.csv': `subscriberId\nu1\n${'x'.repeat(513)}\n`,
  'invalid-line.ndjson': '{"subscriberId":"u1"}\n{"subscriberId":"u2",}\n',
  'not-object.ndjson': '{"subscriberId":"u1"}\n["u2"]\n',
  'unknown-field.ndjson': '{"subscriberId":"u1","favouriteColour":"blue"}\n',
  'payload-not-object.ndjson': '{"subscriberId":"u1","payload":"hello"}\n',
  'number-id.ndjson': '{"subscriberId":42}\n',
  'email-not-string.ndjson': '{"subscriberId":"u1","email":["a@b.c"]}\n',
};

const jsonFlags: { flag: string; base: string[]; object: boolean }[] = [
  { flag: '--payload', base: TRIGGER, object: true },
  { flag: '--overrides', base: TRIGGER, object: true },
  { flag: '--to-json', base: ['trigger', 'welcome'], object: false },
  { flag: '--data', base: ['contexts', 'create', 'tenant', 'acme'], object: true },
  { flag: '--data', base: ['api', 'POST', '/v2/contexts'], object: false },
  { flag: '--data', base: ['workflow', 'create'], object: true },
  { flag: '--controls', base: PREVIEW, object: true },
  { flag: '--subscriber', base: PREVIEW, object: true },
  { flag: '--payload', base: PREVIEW, object: true },
  { flag: '--endpoint', base: ENDPOINT, object: true },
  { flag: '--actor', base: TRIGGER, object: true },
  { flag: '--tenant', base: TRIGGER, object: true },
  { flag: '--context', base: TRIGGER, object: true },
  { flag: '--context', base: PREVIEW, object: true },
];

function jsonFlagCases(): BadInput[] {
  const out: BadInput[] = [];
  for (const { flag, base, object } of jsonFlags) {
    const at = (v: string, kind: string, stdin?: string): BadInput => ({
      kind,
      argv: [...base, flag, v],
      names: flag,
      ...(stdin !== undefined ? { stdin } : {}),
    });
    out.push(
      at('{"name": "Ada",}', 'invalid JSON, inline'),
      at('{name: Ada}', 'invalid JSON, inline'),
      at('{"a": 1', 'invalid JSON, inline'),
      at('{"a": "tab\there"}', 'invalid JSON, inline'),
      at('@{dir}/bad.json', 'invalid JSON, file'),
      at('@{dir}/bad.yaml', 'invalid YAML, file'),
      at('@{dir}/utf16.json', 'invalid JSON, file'),
      at('@{dir}/nul.json', 'invalid JSON, file'),
      at('-', 'invalid JSON, stdin', '{"a": [1, 2}'),
      at('-', 'invalid JSON, stdin', ''),
      at('@{dir}/does-not-exist.json', 'missing file'),
      at('@{dir}/unreadable.json', 'unreadable file'),
      at('@{dir}/a-directory', 'a directory for a file'),
      at('@{dir}/huge.json', 'huge file'),
      at('@', 'missing file'),
      at('@{dir}/deep.json', 'nested thousands of levels deep'),
      at('@{dir}/deep.yaml', 'nested thousands of levels deep'),
      at('-', 'nested thousands of levels deep', `[${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]`),
    );
    if (object) out.push(at('@{dir}/array.json', 'wrong type'), at('[1, 2]', 'wrong type'), at('@{dir}/null.json', 'wrong type'));
  }
  return out;
}

const long = (n: number) => 'x'.repeat(n);
const hundredAndOne = Array.from({ length: 101 }, (_, i) => ['--to', `user-${i}`]).flat();

export const CORPUS: BadInput[] = [
  ...jsonFlagCases(),

  // Wrong types and shapes inside otherwise valid JSON.
  { kind: 'wrong type', argv: ['trigger', 'welcome', '--to-json', '5'], names: /--to\/--to-json recipient/ },
  { kind: 'wrong type', argv: ['trigger', 'welcome', '--to-json', '{"firstName":"no id"}'], names: /--to\/--to-json recipient.*subscriberId/ },
  { kind: 'wrong type', argv: ['trigger', 'welcome', '--to-json', '{"subscriberId":"u1","email":42}'], names: /email/ },
  { kind: 'wrong type', argv: ['trigger', 'welcome', '--to-json', '{"type":"Topic"}'], names: /--to\/--to-json recipient/ },
  { kind: 'wrong type', argv: [...TRIGGER, '--tenant', '{"identifier": 5}'], names: /--tenant/ },
  { kind: 'wrong type', argv: [...TRIGGER, '--actor', '{"firstName":"no id"}'], names: /--actor/ },
  { kind: 'wrong type', argv: [...TRIGGER, '--context', '{"tenant": 5}'], names: /--context/ },
  { kind: 'wrong type', argv: [...TRIGGER, '--context', '{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6"}'], names: /--context/ },
  { kind: 'wrong type', argv: [...ENDPOINT, '--endpoint', '{"phoneNumber":"555"}'], names: /--endpoint phoneNumber/ },
  { kind: 'wrong type', argv: [...ENDPOINT, '--endpoint', '{}'], names: /--endpoint/ },
  { kind: 'wrong type', argv: ['workflow', 'create', '--data', '{"workflowId":"x","name":"X","steps":[{"name":"s","type":"fax"}]}'], names: /--data steps/ },
  { kind: 'wrong type', argv: ['workflow', 'create', '--data', '{"name":"x","steps":[]}'], names: /--data workflowId/ },
  { kind: 'wrong type', argv: ['contexts', 'create', 'tenant', 'acme', '--data', '"a string"'], names: '--data' },
  { kind: 'wrong type', argv: [...TRIGGER, '--set', 'n:=nope'], names: '--set' },
  { kind: 'wrong type', argv: [...TRIGGER, '--set', 'novalue'], names: '--set' },
  { kind: 'wrong type', argv: [...TRIGGER, '--set', '__proto__.polluted=1'], names: '--set' },
  { kind: 'wrong type', argv: [...TRIGGER, '--set', 'a=1', '--set', 'a.b=2'], names: '--set' },
  { kind: 'nested thousands of levels deep', argv: [...TRIGGER, '--set', `deep:=${'['.repeat(5000)}${']'.repeat(5000)}`], names: '--set' },
  { kind: 'wrong type', argv: [...TRIGGER, '--payload', '{"a":{}}', '--set', 'a..b=1'], names: '--set' },
  { kind: 'wrong type', argv: ['subscribers', 'online', 'u1', 'maybe'], names: 'online' },
  // Any other non-empty string is a transaction id (cli.md: NOTIFICATION_ID|TRANSACTION_ID).
  { kind: 'wrong type', argv: ['events', 'get', ''], names: 'NOTIFICATION_ID' },
  { kind: 'wrong type', argv: ['events', 'get', '   '], names: 'TRANSACTION_ID' },
  { kind: 'wrong type', argv: ['messages', 'mark-as', 'u1', 'read', ID, 'zz'], names: 'MESSAGE_ID' },
  { kind: 'wrong type', argv: ['api', 'GET', 'v1/notifications'], names: 'PATH' },
  { kind: 'wrong type', argv: ['api', 'GET', '/v1/notifications', '--data', '{}'], names: '--data' },
  { kind: 'wrong type', argv: ['--base-url', 'ftp://example.com', 'integrations', 'active'], names: '--base-url' },
  { kind: 'wrong type', argv: ['--base-url', 'not a url', 'integrations', 'active'], names: '--base-url' },
  { kind: 'wrong type', argv: ['--fields', 'a..b', 'integrations', 'active'], names: '--fields' },
  { kind: 'wrong type', argv: ['--query', 'foo[', 'integrations', 'active'], names: '--query' },
  { kind: 'wrong type', argv: ['--query', '[?', 'events', 'list', '--all'], names: '--query' },

  // Values outside an enumeration.
  { kind: 'enum value', argv: ['events', 'list', '--channel', 'fax'], names: '--channel' },
  { kind: 'enum value', argv: ['events', 'list', '--channel', 'email,,fax'], names: '--channel' },
  { kind: 'enum value', argv: ['events', 'list', '--severity', 'urgent'], names: '--severity' },
  { kind: 'enum value', argv: ['subscribers', 'search', '--order-direction', 'UP'], names: '--order-direction' },
  { kind: 'enum value', argv: ['subscribers', 'search', '--order-by', 'name'], names: '--order-by' },
  { kind: 'enum value', argv: ['endpoints', 'list', '--provider', 'pigeon'], names: '--provider' },
  { kind: 'enum value', argv: ['endpoints', 'list', '--channel', 'EMAIL'], names: '--channel' },
  { kind: 'enum value', argv: ['endpoints', 'create', '--subscriber', 'u1', '--integration', 'i', '--type', 'tablet', '--endpoint', '{}'], names: '--type' },
  { kind: 'enum value', argv: [...CONNECTION, '--mode', 'team', '--access-token', 'tok-1234567890'], names: '--mode' },
  { kind: 'enum value', argv: ['messages', 'mark-as', 'u1', 'archived', ID], names: 'state' },
  { kind: 'enum value', argv: ['messages', 'list', '--channel', 'pager'], names: '--channel' },
  { kind: 'enum value', argv: ['-o', 'xml', 'integrations', 'active'], names: '--output' },
  { kind: 'enum value', argv: ['api', 'FETCH', '/v1/notifications'], names: 'method' },
  { kind: 'enum value', argv: ['completion', 'powershell'], names: 'shell' },

  // Numbers out of range, or not numbers.
  { kind: 'out-of-range limit', argv: ['events', 'list', '--limit', '0'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['events', 'list', '--limit', '51'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['events', 'list', '--limit', 'ten'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['events', 'list', '--limit', '1e3'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['events', 'list', '--page', '-1'], names: '--page' },
  { kind: 'out-of-range limit', argv: ['events', 'list', '--page', '1.5'], names: '--page' },
  { kind: 'out-of-range limit', argv: ['events', 'list', '--page', '99999999999999999999'], names: '--page' },
  { kind: 'out-of-range limit', argv: ['subscribers', 'search', '--limit', '0'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['endpoints', 'list', '--limit', '101'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['connections', 'list', '--limit', '-5'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['messages', 'list', '--limit', '1001'], names: '--limit' },
  { kind: 'out-of-range limit', argv: ['--retries', '11', 'integrations', 'active'], names: '--retries' },
  { kind: 'out-of-range limit', argv: ['--retries', '-1', 'integrations', 'active'], names: '--retries' },
  { kind: 'out-of-range limit', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/x.csv', '--chunk', '0'], names: '--chunk' },
  { kind: 'out-of-range limit', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/x.csv', '--chunk', '101'], names: '--chunk' },
  { kind: 'out-of-range limit', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/x.csv', '--concurrency', '0'], names: '--concurrency' },
  { kind: 'out-of-range limit', argv: ['dev', '--port', '70000'], names: '--port' },
  { kind: 'out-of-range limit', argv: ['dev', '--time-scale', '-2'], names: '--time-scale' },

  // Strings too long for the field.
  { kind: 'over-long string', argv: ['contexts', 'create', long(101), 'acme'], names: 'TYPE' },
  { kind: 'over-long string', argv: ['contexts', 'create', 'tenant', long(101)], names: 'ID' },
  { kind: 'over-long string', argv: [...TRIGGER, '--context', `tenant=${long(101)}`], names: '--context' },
  { kind: 'over-long string', argv: ['events', 'list', '--context', `${long(101)}:acme`], names: '--context' },
  { kind: 'over-long string', argv: ['--idempotency-key', long(256), 'contexts', 'create', 'tenant', 'acme'], names: '--idempotency-key' },
  { kind: 'over-long string', argv: [...TRIGGER, '--transaction-id', long(513)], names: '--transaction-id' },
  { kind: 'over-long string', argv: ['trigger', 'welcome', '--to', long(513)], names: '--to' },
  { kind: 'over-long string', argv: ['trigger', long(513), '--to', 'u1'], names: 'WORKFLOW' },
  {
    kind: 'over-long string',
    argv: ['profile', 'add', long(65), '--base-url', 'http://127.0.0.1:1', '--api-key', 'sk_test_0123456789abcdef'],
    names: 'profile name',
  },

  // Unicode and control characters where they cannot go.
  { kind: 'unicode and control characters', argv: ['trigger', 'welcome', '--to', 'a\u0000b'], names: '--to' },
  { kind: 'unicode and control characters', argv: ['trigger', 'welcome', '--to', 'line\nbreak'], names: '--to' },
  { kind: 'unicode and control characters', argv: [...TRIGGER, '--transaction-id', 'bell\u0007'], names: '--transaction-id' },
  { kind: 'unicode and control characters', argv: ['trigger', 'wel\u001bcome', '--to', 'u1'], names: 'WORKFLOW' },
  { kind: 'unicode and control characters', argv: ['contexts', 'create', 'ténant', 'acme'], names: 'TYPE' },
  { kind: 'unicode and control characters', argv: ['contexts', 'create', 'tenant', 'ac me'], names: 'ID' },
  { kind: 'unicode and control characters', argv: ['contexts', 'create', 'tenant', 'acme\u200b'], names: 'ID' },
  { kind: 'unicode and control characters', argv: [...TRIGGER, '--context', 'tenant=🚀'], names: '--context' },
  {
    kind: 'unicode and control characters',
    argv: ['--idempotency-key', 'key\nwith newline', 'contexts', 'create', 'tenant', 'acme'],
    names: '--idempotency-key',
  },
  {
    kind: 'unicode and control characters',
    argv: ['profile', 'add', 'prod/eu', '--base-url', 'http://127.0.0.1:1', '--api-key', 'sk_test_0123456789abcdef'],
    names: 'profile name',
  },
  { kind: 'unicode and control characters', argv: ['messages', 'mark-as', 'u1', 'read', '６７６１f0c2a3b4c5d6e7f80912'], names: 'MESSAGE_ID' },

  // Too many recipients for one trigger.
  { kind: '101 recipients', argv: ['trigger', 'welcome', ...hundredAndOne], names: '--to' },
  { kind: '101 recipients', argv: ['trigger', 'welcome', '--to-json', JSON.stringify(Array.from({ length: 101 }, (_, i) => `u${i}`))], names: '--to' },
  {
    kind: '101 recipients',
    argv: ['trigger', 'welcome', '--to', 'u0', '--to-json', JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ subscriberId: `v${i}` })))],
    names: '--to',
  },

  // Recipients files with bad rows, with --strict: the file is refused before anything is sent.
  ...[
    ['unknown-column.csv', /favouriteColour/],
    ['no-id-column.csv', /subscriberId/],
    ['missing-id.csv', /row 3: missing subscriberId/],
    ['ragged.csv', /row 3/],
    ['bad-quotes.csv', /--recipients-file/],
    ['duplicate-column.csv', /firstName/],
    ['control-id.csv', /row 3: subscriberId contains control characters/],
    ['long-id.csv', /row 3: subscriberId is longer than 512/],
    ['invalid-line.ndjson', /row 2: invalid JSON/],
    ['not-object.ndjson', /row 2: expected a JSON object/],
    ['unknown-field.ndjson', /row 1: unknown field favouriteColour/],
    ['payload-not-object.ndjson', /row 1: payload must be an object/],
    ['number-id.ndjson', /row 1: missing subscriberId/],
    ['email-not-string.ndjson', /row 1: email must be a string/],
    ['deep.ndjson', /row 1: nests more than 100 levels deep/],
  ].map(
    ([file, names]): BadInput => ({
      kind: 'malformed rows (--strict)',
      argv: ['trigger', 'welcome', '--recipients-file', `{dir}/${String(file)}`, '--strict'],
      names: names as RegExp,
    }),
  ),
  { kind: 'missing file', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/does-not-exist.csv'], names: '--recipients-file' },
  { kind: 'unreadable file', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/unreadable.json'], names: '--recipients-file' },
  { kind: 'a directory for a file', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/a-directory'], names: '--recipients-file' },
  { kind: 'a directory for a file', argv: ['trigger', 'welcome', '--recipients-file', ''], names: '--recipients-file' },
  { kind: 'missing file', argv: ['dev', '--seed', '{dir}/does-not-exist.yaml', '--in-memory', '--port', '0'], names: '--seed' },
  { kind: 'invalid JSON, file', argv: ['dev', '--seed', '{dir}/bad.json', '--in-memory', '--port', '0'], names: '--seed' },
  { kind: 'invalid YAML, file', argv: ['dev', '--seed', '{dir}/bad.yaml', '--in-memory', '--port', '0'], names: '--seed' },
  { kind: 'nested thousands of levels deep', argv: ['dev', '--seed', '{dir}/deep-seed.json', '--in-memory', '--port', '0'], names: '--seed' },

  // Durations and dates.
  { kind: 'bad duration', argv: ['--timeout', '0', 'integrations', 'active'], names: '--timeout' },
  { kind: 'bad duration', argv: ['--timeout', '5x', 'integrations', 'active'], names: '--timeout' },
  { kind: 'bad duration', argv: ['--timeout', '-1s', 'integrations', 'active'], names: '--timeout' },
  { kind: 'bad duration', argv: ['--timeout', '10', 'integrations', 'active'], names: '--timeout' },
  { kind: 'bad duration', argv: ['--timeout', '1e400s', 'integrations', 'active'], names: '--timeout' },
  { kind: 'bad duration', argv: [...TRIGGER, '--wait', '--wait-timeout', 'forever'], names: '--wait-timeout' },
  { kind: 'bad duration', argv: [...TRIGGER, '--wait-timeout', '30s'], names: '--wait-timeout' },
  { kind: 'bad duration', argv: ['events', 'watch', '--interval', 'often'], names: '--interval' },
  { kind: 'bad date', argv: ['events', 'list', '--since', 'yesterday'], names: '--since' },
  { kind: 'bad date', argv: ['events', 'list', '--until', '2026-13-45'], names: '--until' },
  { kind: 'bad date', argv: ['events', 'list', '--since', '2026-02-30T10:00:00Z'], names: '--since' },
  { kind: 'bad date', argv: ['events', 'list', '--since', ''], names: '--since' },
  { kind: 'bad date', argv: ['events', 'watch', '--since', 'last tuesday'], names: '--since' },

  // Flags and commands that do not exist, or are missing.
  { kind: 'unknown flag', argv: ['integrations', 'active', '--frobnicate'], names: '--frobnicate' },
  { kind: 'unknown flag', argv: ['trigger', 'welcome', '--to', 'u1', '--recipient', 'u2'], names: '--recipient' },
  { kind: 'unknown flag', argv: ['--verbose', 'events', 'list'], names: '--verbose' },
  { kind: 'unknown flag', argv: ['events', 'lst'], names: 'lst' },
  { kind: 'unknown flag', argv: ['frobnicate'], names: 'frobnicate' },
  { kind: 'unknown flag', argv: ['integrations', 'active', 'extra'], names: /too many arguments for 'active'/ },
  { kind: 'missing argument', argv: ['trigger'], names: 'workflow' },
  { kind: 'missing argument', argv: ['events', 'get'], names: 'notificationId|transactionId' },
  { kind: 'missing argument', argv: ['events', 'list', '--limit'], names: '--limit' },
  { kind: 'missing argument', argv: ['trigger', 'welcome'], names: /--to/ },
  { kind: 'missing argument', argv: ['endpoints', 'create', '--subscriber', 'u1', '--integration', 'i', '--type', 'phone'], names: '--endpoint' },
  { kind: 'missing argument', argv: [...CONNECTION], names: /access.token/ },

  // Flags that contradict each other.
  { kind: 'conflicting flags', argv: ['subscribers', 'search', '--after', 'a', '--before', 'b'], names: /--after and --before/ },
  { kind: 'conflicting flags', argv: [...TRIGGER, '--chunk', '10'], names: '--chunk' },
  { kind: 'conflicting flags', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/x.csv', '--to', 'u1'], names: '--recipients-file' },
  { kind: 'conflicting flags', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/x.csv', '--transaction-id', 't1'], names: '--transaction-id' },
  { kind: 'conflicting flags', argv: ['trigger', 'welcome', '--recipients-file', '{dir}/users.csv', '--resume'], names: '--resume' },
  { kind: 'conflicting flags', argv: ['trigger', 'welcome', '--to-json', '-', '--payload', '-'], stdin: '"u1"', names: /stdin/ },
  { kind: 'conflicting flags', argv: [...CONNECTION, '--access-token', 'tok-1234567890', '--access-token-stdin'], stdin: 'tok', names: /--access-token/ },
  { kind: 'conflicting flags', argv: [...CONNECTION.slice(0, 6), '--mode', 'shared', '--access-token', 'tok-1234567890'], names: /--context/ },
  { kind: 'conflicting flags', argv: ['dev', '--in-memory', '--data', '{dir}/x.sqlite', '--port', '0'], names: /--data and --in-memory/ },
];
