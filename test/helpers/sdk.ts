// The official SDK (@novu/api) pointed at svc dev: its enums say `novu` where the service says `svc`
// (`svc-cloud`, `"svc"`, `svcSignature`), so answers are renamed before the SDK validates them. Hooks
// let a test see each request (`onRequest`) or change a request's JSON body after the SDK built it
// (`rewriteBody`, read at each call: to send what the SDK itself would refuse).
import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';

export function toNovuNames(json: string): string {
  return json.replace(/"svc(-[a-z0-9-]+)?"/g, (_m, rest: string | undefined) => `"novu${rest ?? ''}"`).replace(/"svcSignature"/g, '"novuSignature"');
}

export interface SdkHooks {
  rewriteBody?: () => ((body: Record<string, unknown>) => Record<string, unknown>) | undefined;
  onRequest?: (req: Request, res: Response) => void;
}

export function novuClient(serverURL: string, secretKey: string, hooks: SdkHooks = {}): Novu {
  const httpClient = new HTTPClient({
    fetcher: async (input, init) => {
      const rewrite = hooks.rewriteBody?.();
      if (rewrite && input instanceof Request && input.body) {
        input = new Request(input, { body: JSON.stringify(rewrite((await input.clone().json()) as Record<string, unknown>)) });
      }
      const res = await fetch(input, init);
      hooks.onRequest?.(input instanceof Request ? input : new Request(input, init), res);
      if (!(res.headers.get('content-type') ?? '').includes('json')) return res;
      const text = toNovuNames(await res.text());
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  return new Novu({ serverURL, secretKey, httpClient, retryConfig: { strategy: 'none' } });
}

/** The SDK's error for a non-2xx answer: its status and parsed body. */
export async function sdkFailure(p: Promise<unknown>): Promise<{ status: number; body: any }> {
  try {
    await p;
  } catch (e) {
    const err = e as { statusCode?: number; body?: string; rawResponse?: Response };
    return { status: err.statusCode ?? err.rawResponse?.status ?? 0, body: JSON.parse(err.body ?? 'null') };
  }
  throw new Error('expected the call to fail');
}
