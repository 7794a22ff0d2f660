// How the CLI knows it talks to `svc dev`: it asks GET /v1/svc-dev, a path only svc dev serves (the
// hosted service answers 404). The answer names svc dev's own extensions of the API, which the CLI then
// uses (`listEvents.svcStatus`: the feed filtered by derived status in the store). Against anything
// else, or when the question fails, the CLI does what works against the hosted service. Asked once per
// client, and only by commands that have a use for an extension.
import { EXIT, SvcError } from '../core/errors.js';
import type { LocalServiceInfo } from './schemas/resources.js';
import type { Api } from './session.js';

const asked = new WeakMap<Api, Promise<LocalServiceInfo | undefined>>();

/** svc dev's answer, or undefined when the service is not svc dev (or did not say; a dry run does not ask). */
function localService(api: Api, opts: { dryRun?: boolean } = {}): Promise<LocalServiceInfo | undefined> {
  if (opts.dryRun) return Promise.resolve(undefined);
  let answer = asked.get(api);
  if (!answer) {
    answer = api.call<LocalServiceInfo>('getLocalService').then(
      (res) => (res?.data?.service === 'svc dev' ? res.data : undefined),
      // 404 from the hosted service; any other failure: the command's own request says what is wrong.
      () => undefined,
    );
    asked.set(api, answer);
  }
  return answer;
}

/** Whether the service is svc dev and serves this extension (e.g. `listEvents.svcStatus`). */
export async function hasExtension(api: Api, name: string, opts: { dryRun?: boolean } = {}): Promise<boolean> {
  return (await localService(api, opts))?.extensions.includes(name) === true;
}

/**
 * The admin commands' first question (`svc dev clock|reset|snapshot`, `svc environments`): they act on
 * the `svc dev` of the current profile only. Against anything else they refuse in one line, exit 5,
 * before sending what they came to send.
 */
export async function requireLocalService(api: Api, command: string): Promise<LocalServiceInfo> {
  const info = await localService(api);
  if (info !== undefined) return info;
  throw new SvcError(
    `${command} works only against svc dev, and this profile's service is not svc dev (it did not answer GET /v1/svc-dev)`,
    'not_svc_dev',
    EXIT.notFound,
    'start one with `svc dev`, or choose its profile with --profile local',
  );
}
