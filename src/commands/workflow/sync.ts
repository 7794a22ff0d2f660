// svc workflow sync --bridge-url URL → POST /v1/bridge/sync?source=cli {bridgeUrl}
// Registers the app that serves code-first workflows (its bridge): the service discovers them and
// stores them with origin `external`. Nothing answered at the URL: exit 4; something answered that is
// not a framework bridge (or refused the signature), or a URL svc dev may not call (not loopback,
// without `svc dev --allow-remote-bridge`): exit 6; one line each.
import { ApiError, EXIT, NetworkError, SvcError, UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('sync')
      .description(about("register an app's code-first workflows: discover them at its bridge URL", 'bridgeSync'))
      .requiredOption('--bridge-url <url>', "the app's framework endpoint, e.g. http://localhost:4000/api/novu"),
    ['svc workflow sync --bridge-url http://localhost:4000/api/novu', 'svc --profile local workflow sync --bridge-url http://127.0.0.1:4000/api/novu -o json'],
  );

function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--bridge-url: not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--bridge-url: must be an http(s) URL, got ${url.protocol.replace(/:$/, '')}`);
  return text;
}

/** The service's refusal in one line: nothing answered at the URL (exit 4), or not a bridge (exit 6). */
function bridgeError(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  const body = (e.body ?? {}) as { message?: unknown; ctx?: { code?: unknown } };
  const message = typeof body.message === 'string' ? body.message : e.message;
  if (body.ctx?.code === 'BRIDGE_UNREACHABLE') return new NetworkError(message);
  if (body.ctx?.code === 'BRIDGE_INVALID' || body.ctx?.code === 'BRIDGE_CONFLICT' || body.ctx?.code === 'BRIDGE_NOT_ALLOWED')
    return new SvcError(message, 'bridge_rejected', EXIT.rejected);
  return e;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const bridgeUrl = checkUrl(opts.bridgeUrl);
  const api = await deps.client();
  const res = await api.call('bridgeSync', { query: { source: 'cli' }, body: { bridgeUrl } }).catch((e: unknown) => {
    throw bridgeError(e);
  });
  if (!res) return;
  const { workflows, sdkVersion } = res.data as { workflows: { steps: { type: string }[] }[]; sdkVersion: string | null };
  await deps.print(
    workflows.map((w) => ({ ...w, status: 'ACTIVE', stepTypeOverviews: [...new Set(w.steps.map((s) => s.type))] })),
    { view: 'workflows' },
  );
  deps.info(`${workflows.length} workflow${workflows.length === 1 ? '' : 's'} synced from ${bridgeUrl}${sdkVersion ? ` (framework ${sdkVersion})` : ''}`);
}
