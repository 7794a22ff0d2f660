// The in-app integration's HMAC state (credentials.hmac): when on, the Inbox must send
// subscriberHash, the hex HMAC-SHA256 of the subscriber id keyed by the environment's API key. The
// service returns credentials only to dashboard sessions, never to an API key: the state is shown
// when the answer carries it, or when this command has just set it.
import type { Deps } from '../../deps.js';

type Rec = Record<string, unknown>;

/** on/off from an answer's credentials, else undefined (credentials withheld). */
export function hmacState(integration: unknown): boolean | undefined {
  const credentials = (integration as Rec | undefined)?.credentials as Rec | undefined;
  return typeof credentials?.hmac === 'boolean' ? credentials.hmac : undefined;
}

/** One line on stderr for an in-app integration: its HMAC state, or how to learn and set it. */
export function hmacNote(deps: Deps, integration: unknown, justSet?: unknown): void {
  const i = integration as Rec | undefined;
  if (i?.channel !== 'in_app') return;
  const state = typeof justSet === 'boolean' ? justSet : hmacState(i);
  const name = String(i.identifier ?? i._id ?? '');
  if (state === true) deps.info(`HMAC on for ${name}: the Inbox must send subscriberHash (see the README)`);
  else if (state === false) deps.info(`HMAC off for ${name}: the Inbox needs no subscriberHash`);
  else deps.info(`HMAC of ${name}: not shown to an API key (integrations update --hmac sets it)`);
}
