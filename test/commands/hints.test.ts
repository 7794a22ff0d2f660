// Errors that say what to do next: a rejected key points to svc login and the profiles; an
// unknown workflow names the closest workflow ids the service has.
import { describe, expect, test } from 'vitest';
import { stubbedService, workflowRecord } from '../helpers/command-test.js';
import { runSvc } from '../helpers/run.js';

const svc = stubbedService();
const unauthorized = { status: 401, body: { statusCode: 401, message: 'API Key not found' } };
const notFound = { status: 422, body: { statusCode: 422, message: 'workflow_not_found' } };
const workflow = workflowRecord;
const workflows = (...ids: string[]) => ({ body: { workflows: ids.map(workflow), totalCount: ids.length } });

describe('a rejected API key', () => {
  test('401: exit 3, one line pointing to svc login and svc profile show', async () => {
    svc.stub.on('GET', '/v1/notifications', unauthorized);
    const r = await runSvc(['events', 'list'], { env: svc.env });
    expect(r.code).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/401 API Key not found; the API key was rejected: svc login .*svc profile show/);
  });
  test('with -o json the hint is a member of the error object', async () => {
    svc.stub.on('GET', '/v1/notifications', unauthorized);
    const r = await runSvc(['events', 'list', '--json'], { env: svc.env });
    const err = JSON.parse(r.stderr).error;
    expect(err).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(err.hint).toContain('svc login');
  });
});

describe('an unknown workflow', () => {
  test('trigger names the closest workflow ids', async () => {
    svc.stub.on('POST', '/v1/events/trigger', notFound);
    svc.stub.on('GET', '/v2/workflows', workflows('welcome', 'welcome-back', 'otp', 'incident'));
    const r = await runSvc(['trigger', 'welcom', '--to', 'user-1'], { env: svc.env });
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toContain("422 workflow_not_found; no workflow 'welcom'; did you mean 'welcome' or 'welcome-back'?");
    expect(r.stderr).not.toContain('otp');
  });
  test('nothing close: says where the ids are', async () => {
    svc.stub.on('POST', '/v1/events/trigger', notFound);
    svc.stub.on('GET', '/v2/workflows', workflows('welcome', 'otp'));
    const r = await runSvc(['trigger', 'zzzzzz', '--to', 'user-1'], { env: svc.env });
    expect(r.stderr).toContain("no workflow 'zzzzzz' among the 2 workflows: svc workflow list shows the workflow ids");
  });
  test('when the list cannot be read the error is reported as it was, with the plain hint', async () => {
    svc.stub.on('POST', '/v1/events/trigger', notFound);
    svc.stub.on('GET', '/v2/workflows', unauthorized);
    const r = await runSvc(['trigger', 'welcom', '--to', 'user-1'], { env: svc.env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain("422 workflow_not_found; no workflow 'welcom': svc workflow list shows the workflow ids");
  });
});
