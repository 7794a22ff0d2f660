// The baseline for a request command: a bare script that loads undici and sends the same request
// (same headers) as `svc integrations active -o json`, then prints the body.
import { request } from 'undici';

const res = await request(`${process.env.SVC_BASE_URL}/v1/integrations/active`, {
  headers: { authorization: `ApiKey ${process.env.SVC_API_KEY}`, accept: 'application/json', 'user-agent': 'bare' },
});
process.stdout.write(await res.body.text());
