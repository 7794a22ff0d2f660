// `svc dev --bridge-url URL`: the app's code-first workflows are registered when svc dev starts, and
// again whenever what the app declares changes. Every `intervalMs` (1 s) the app is asked for its
// workflows (discover, one signed GET) and the answer's text is hashed: a different hash (a restart
// that changed a payload schema, a step, a control) is stored at once; the same hash costs nothing
// more. An app that is not up yet when svc dev starts is registered as soon as it answers.
import type { Environment, Store } from '../store/index.js';
import { discover } from './client.js';
import { BridgeSyncError, discoverBridge, discovered, storeDiscovered } from './sync.js';

interface BridgeWatchOptions {
  store: Store;
  environment: Environment;
  bridgeUrl: string;
  /** `svc dev --allow-remote-bridge`: the URL may be other than loopback. */
  allowRemote?: boolean;
  intervalMs?: number;
  /** One line per registration or change of state (the app down, back, refused). */
  log: (line: string) => void;
}

export interface BridgeWatch {
  /** Settles after the first attempt to register (whether the app answered or not). */
  ready: Promise<void>;
  /** How many times the workflows were discovered and stored. */
  readonly syncs: number;
  stop(): void;
}

export function watchBridge(o: BridgeWatchOptions): BridgeWatch {
  // One quick attempt per check: the next check is the retry.
  const call = { secret: o.environment.apiKey, allowRemote: o.allowRemote === true, retries: 0, timeoutMs: 2_000 };
  /** The hash of the discover answer last stored. */
  let stored: string | undefined;
  /** Why the app cannot be used, as last logged (said once, until it changes). */
  let trouble: string | undefined;
  /** The status of the answer that was last worded (see whyNot). */
  let troubleStatus: number | undefined;
  let stopped = false;
  let busy = false;
  let syncs = 0;
  let timer: NodeJS.Timeout | undefined;

  const say = (why: string) => {
    if (trouble !== why) o.log(`bridge: ${why}`);
    trouble = why;
    troubleStatus = undefined;
  };

  /** The same words `svc workflow sync` would use for an app that does not answer as a bridge. */
  async function whyNot(): Promise<string> {
    try {
      await discoverBridge(o.bridgeUrl, call);
      return `${o.bridgeUrl} changed while it was asked; asking again`;
    } catch (e) {
      if (!(e instanceof BridgeSyncError)) return `${o.bridgeUrl}: ${(e as Error).message}`;
      if (e.kind === 'unreachable') return `${o.bridgeUrl} is not answering (${e.message.replace(/^.*is not reachable: /, '')}); waiting for it`;
      return `${e.message.replace(/^Bridge /, '')}; waiting for it`;
    }
  }

  async function check(): Promise<void> {
    if (busy || stopped) return;
    busy = true;
    try {
      const found = await discover(o.bridgeUrl, call);
      if (stopped) return;
      const a = found.answer;
      if (!found.value) {
        if (a.refused) return say(`${o.bridgeUrl}: ${a.error}`);
        if (a.status === undefined) return say(`${o.bridgeUrl} is not answering (${a.error ?? 'no answer'}); waiting for it`);
        // Worded once per kind of answer: the same refusal every second is not asked about again.
        if (trouble !== undefined && a.status === troubleStatus) return;
        const why = await whyNot();
        if (stopped) return;
        say(why);
        troubleStatus = a.status;
        return;
      }
      const hash = a.bodyHash;
      if (hash === stored) {
        if (trouble !== undefined) o.log(`bridge: ${o.bridgeUrl} answers again; its workflows are unchanged`);
        trouble = undefined;
        return;
      }
      const result = storeDiscovered(o.store, o.environment, discovered(o.bridgeUrl, undefined, found.value.workflows));
      stored = hash;
      trouble = undefined;
      syncs++;
      const names = result.workflows.map((w) => w.workflowId).join(', ');
      const removed = result.removed.length > 0 ? `; removed ${result.removed.join(', ')}` : '';
      o.log(
        `bridge: ${result.workflows.length} workflow${result.workflows.length === 1 ? '' : 's'} from ${o.bridgeUrl}${names ? ` (${names})` : ''}${removed}`,
      );
    } catch (e) {
      say(e instanceof BridgeSyncError ? e.message.replace(/^Bridge /, '') : `${o.bridgeUrl}: ${(e as Error).message}`);
    } finally {
      busy = false;
    }
  }

  const ready = check();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void check().finally(schedule), o.intervalMs ?? 1_000);
    timer.unref();
  };
  void ready.finally(schedule);
  return {
    ready,
    get syncs() {
      return syncs;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The two variables the app's framework reads, for svc dev to print (the key only when asked). */
export function bridgeEnvLines(baseUrl: string, apiKey: string, showSecrets: boolean): string[] {
  return [
    'For the app that serves the workflows (its framework reads these):',
    `  NOVU_API_URL=${baseUrl}`,
    `  NOVU_SECRET_KEY=${showSecrets ? apiKey : '<the API key above; --show-secrets prints it>'}`,
  ];
}
