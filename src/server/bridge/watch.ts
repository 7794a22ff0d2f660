// `svc dev --bridge-url URL`: the app's code-first workflows are registered when svc dev starts, and
// again when the app comes back or declares something else. A health check every `intervalMs` (cheap,
// unsigned) notices: the app stopped answering and answers again (a restart), or the numbers of
// workflows and steps it reports changed; then a discover stores what it now declares. An app that is
// not up yet when svc dev starts is registered as soon as it answers.
import type { Environment, Store } from '../store/index.js';
import { healthCheck } from './client.js';
import { BridgeSyncError, discoverBridge, notABridge, storeDiscovered } from './sync.js';

export interface BridgeWatchOptions {
  store: Store;
  environment: Environment;
  bridgeUrl: string;
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
  const secret = o.environment.apiKey;
  // One quick attempt per check: the next check is the retry.
  const call = { secret, retries: 0, timeoutMs: 2_000 };
  let seen: string | undefined;
  let down = false;
  let stopped = false;
  let busy = false;
  let syncs = 0;
  let timer: NodeJS.Timeout | undefined;

  async function sync(): Promise<boolean> {
    try {
      const found = await discoverBridge(o.bridgeUrl, call);
      if (stopped) return false;
      const result = storeDiscovered(o.store, o.environment, found);
      syncs++;
      const names = result.workflows.map((w) => w.workflowId).join(', ');
      const removed = result.removed.length > 0 ? `; removed ${result.removed.join(', ')}` : '';
      o.log(
        `bridge: ${result.workflows.length} workflow${result.workflows.length === 1 ? '' : 's'} from ${o.bridgeUrl}${names ? ` (${names})` : ''}${removed}`,
      );
      return true;
    } catch (e) {
      o.log(`bridge: ${e instanceof BridgeSyncError ? e.message : `${o.bridgeUrl}: ${(e as Error).message}`}`);
      return false;
    }
  }

  async function check(): Promise<void> {
    if (busy || stopped) return;
    busy = true;
    try {
      const health = await healthCheck(o.bridgeUrl, call);
      if (stopped) return;
      if (!health.value) {
        // Something answered, but not as a framework bridge: say what (the words of workflow sync).
        const a = health.answer;
        const why = a.status === undefined ? `is not answering (${a.error ?? 'no answer'})` : notABridge(a);
        if (!down) o.log(`bridge: ${o.bridgeUrl} ${why}; waiting for it`);
        down = true;
        return;
      }
      const now = `${health.value.discovered.workflows}/${health.value.discovered.steps}`;
      if (down || now !== seen) {
        if (await sync()) {
          seen = now;
          down = false;
        }
      }
    } finally {
      busy = false;
    }
  }

  const ready = check();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void check().finally(schedule), o.intervalMs ?? 2_000);
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
