// svc __complete KIND [PREFIX]: the candidates a shell's Tab offers for values the command tree cannot
// know: profile names (from the profile store), workflow ids and subscriber ids (from the short-lived
// cache that earlier commands filled, core/completion-cache.ts). The service is asked only when that
// cache is empty and a profile with a key exists, and then for at most 300 ms; a slow or failing
// service gives no candidates, never an error or a hung shell. Hidden from help: the completion
// scripts call it.
import type { Deps } from '../deps.js';
import { type ArgsOf, Command, examples, type OptsOf } from './define.js';
import { cacheScope } from './events/cache.js';
import { complete } from '../core/completion-cache.js';

const KINDS = ['profiles', 'workflows', 'subscribers'] as const;

/** Not in help nor offered by Tab: attached with commander's `hidden` (cli.ts). */
export const hidden = true;

export const command = () =>
  examples(
    new Command('__complete')
      .description('print completion candidates (used by the completion scripts)')
      .argument('<kind>', KINDS.join(', '))
      .argument('[prefix]', 'what has been typed so far'),
    ['svc __complete workflows wel'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [kind, prefix = '']: ArgsOf<typeof command>): Promise<void> {
  const out = (xs: string[]) => {
    if (xs.length) deps.io.stdout.write(`${xs.join('\n')}\n`);
  };
  try {
    if (kind === 'profiles') {
      return out(
        Object.keys(deps.profiles().read().profiles)
          .filter((n) => n.startsWith(prefix))
          .sort(),
      );
    }
    if (kind !== 'workflows' && kind !== 'subscribers') return;
    const scope = cacheScope(deps);
    if (!scope) return;
    let canFetch = false;
    try {
      canFetch = Boolean(deps.settings().apiKey.value);
    } catch {
      canFetch = false;
    }
    out(
      await complete(kind, prefix, {
        ...scope,
        canFetch,
        fetch: async (signal) => {
          const api = await deps.client({ signal, retries: 0, timeoutMs: 300 });
          if (kind === 'workflows') {
            const res = await api.call<{ workflows?: { workflowId?: unknown }[] }>('listWorkflows', { query: { limit: 100 } });
            return (res?.data.workflows ?? []).map((w) => w.workflowId).filter((x): x is string => typeof x === 'string');
          }
          const res = await api.call<{ data?: { subscriberId?: unknown }[] }>('searchSubscribers', { query: { limit: 100 } });
          return (res?.data.data ?? []).map((s) => s.subscriberId).filter((x): x is string => typeof x === 'string');
        },
      }),
    );
  } catch {
    // A Tab never shows an error.
  }
}
