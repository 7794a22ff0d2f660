// The notification test kit as a CI job uses it: the built binary against the real `svc dev`.
// `svc messages wait` is answered as the message is stored, --extract prints the value alone, the
// default --since never matches an older message, and `svc messages get` shows the checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
});
afterAll(async () => {
  await dev?.stop();
});

const env = () => ({ SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey });
async function trigger(name: string, to: string, payload: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${dev.baseUrl}/v1/events/trigger`, {
    method: 'POST',
    headers: { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, to, payload }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { transactionId: string } }).data.transactionId;
}

describe('svc messages wait against svc dev', () => {
  it('a wait started before the trigger prints the code alone', async () => {
    const since = new Date().toISOString();
    const waiting = svcBin(['messages', 'wait', '--subscriber', 'ada', '--workflow', 'otp', '--since', since, '--extract', 'otp', '--wait-timeout', '20s'], {
      env: env(),
    });
    await trigger('otp', 'ada', { code: '7314' });
    const r = await waiting;
    expect(r.stderr).toBe('');
    expect({ code: r.exitCode, stdout: r.stdout }).toEqual({ code: 0, stdout: '7314' });
  });

  it('by default a message sent before the command started is not matched: exit 8', async () => {
    const r = await svcBin(['messages', 'wait', '--subscriber', 'ada', '--workflow', 'otp', '--wait-timeout', '300ms'], { env: env() });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain('no message matched within 300ms');
  });

  it('--transaction-id with --since finds the email already sent; --extract link prints its first link', async () => {
    const tx = await trigger('welcome', 'grace');
    const r = await svcBin(['messages', 'wait', '--transaction-id', tx, '--channel', 'email', '--since', '1m', '--extract', 'link'], { env: env() });
    expect({ code: r.exitCode, stdout: r.stdout }).toEqual({ code: 0, stdout: 'https://app.example.com/onboarding' });
    const json = await svcBin(['messages', 'wait', '--transaction-id', tx, '--channel', 'email', '--since', '1m', '-o', 'json'], { env: env() });
    const message = JSON.parse(String(json.stdout));
    expect(message).toMatchObject({ channel: 'email', transactionId: tx, subject: 'Welcome aboard, Grace' });

    const got = await svcBin(['messages', 'get', message._id, '-o', 'json'], { env: env() });
    const shown = JSON.parse(String(got.stdout));
    expect(shown.outbox.email.headers).toMatchObject({ From: '"Acme" <hello@example.com>', To: 'grace@example.com', Subject: 'Welcome aboard, Grace' });
    expect(shown.outbox.checks[0]).toMatchObject({ level: 'ok', check: 'size' });
  });
});
