// Environment variables and what moves between environments, against the built `svc dev`, through the
// official SDK (@novu/api validates every answer with its own schemas): a variable's values per
// environment rendered as `{{env.KEY}}` in the messages of each, secrets masked, usage; an environment's
// tags, a step's data, a workflow's sync; diff and publish between two environments, after which the
// target's own key triggers the published workflow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Novu } from '@novu/api';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;
let staging: { id: string; key: string };
let stagingNovu: Novu;
// Where the published workflows come from: an environment of its own (the development one has the demo's).
let source: { id: string; key: string };
let sourceNovu: Novu;

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  novu = novuClient(dev.baseUrl, dev.apiKey);
  const src = (await novu.environments.create({ name: 'Feature', color: '#33aa66' })).result;
  source = { id: src.id, key: src.apiKeys![0]!.key };
  sourceNovu = novuClient(dev.baseUrl, source.key);
  // Made from the feature environment, whose key may then reach it (as it may change or delete it).
  const created = (await novu.environments.create({ name: 'Staging', color: '#3366ff', parentId: source.id })).result;
  staging = { id: created.id, key: created.apiKeys![0]!.key };
  stagingNovu = novuClient(dev.baseUrl, staging.key);
});
afterAll(async () => {
  await dev?.stop();
});

/**
 * The answer of a call whose answer the SDK's own schema refuses: SDK 3.16 names the resource types of
 * a diff or publish REGULAR/ECHO/BRIDGE, where the service answers `workflow` and `step`.
 */
async function answerOf(p: Promise<{ result: unknown }>): Promise<any> {
  try {
    return (await p).result;
  } catch (e) {
    const raw = (e as { rawValue?: { Result?: unknown } }).rawValue;
    if (raw?.Result === undefined) throw e;
    return raw.Result;
  }
}

/** The in-app message of a transaction, read with the key of the environment it was sent in. */
async function messageOf(key: string, transactionId: string, since: string): Promise<any> {
  const r = await api({ baseUrl: dev.baseUrl, apiKey: key }, 'GET', `/v1/svc-dev/messages/wait?transactionId=${transactionId}&since=${since}&holdMs=15000`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const workflowBody = (body: string) => ({
  workflowId: 'env-greeting',
  name: 'Env greeting',
  active: true,
  tags: ['onboarding', 'env'],
  steps: [{ name: 'Inbox', type: 'in_app' as const, controlValues: { body } }],
});

describe('environment variables through the SDK', () => {
  it('create, list, retrieve, update (merged by environment), usage, delete; secrets masked', async () => {
    const made = (
      await sourceNovu.environmentVariables.create({
        key: 'GREETING',
        values: [
          { environmentId: source.id, value: 'Hello from feature' },
          { environmentId: staging.id, value: 'Hello from staging' },
        ],
      })
    ).result;
    expect(made).toMatchObject({ key: 'GREETING', type: 'string', isSecret: false });
    expect(made.values.map((v) => [v.environmentId, v.value]).sort()).toEqual(
      [
        [source.id, 'Hello from feature'],
        [staging.id, 'Hello from staging'],
      ].sort(),
    );

    const secret = (await sourceNovu.environmentVariables.create({ key: 'API_TOKEN', isSecret: true, values: [{ environmentId: source.id, value: 's3cr3t' }] }))
      .result;
    expect(secret.values).toEqual([{ environmentId: source.id, value: '••••••••' }]);
    expect(JSON.stringify((await sourceNovu.environmentVariables.list()).result)).not.toContain('s3cr3t');
    expect((await sourceNovu.environmentVariables.list('greet')).result.map((v) => v.key)).toEqual(['GREETING']);
    expect((await sourceNovu.environmentVariables.retrieve('API_TOKEN')).result.values[0]!.value).toBe('••••••••');

    // The mask is never a value; a taken key is a conflict; an empty update says so.
    expect(await sdkFailure(sourceNovu.environmentVariables.update({ values: [{ environmentId: source.id, value: '••••••••' }] }, 'API_TOKEN'))).toMatchObject({
      status: 400,
    });
    expect(await sdkFailure(sourceNovu.environmentVariables.create({ key: 'GREETING' }))).toMatchObject({ status: 409 });
    expect(await sdkFailure(sourceNovu.environmentVariables.update({}, 'GREETING'))).toMatchObject({
      status: 400,
      body: { message: 'At least one field must be provided to update' },
    });
    expect((await sdkFailure(sourceNovu.environmentVariables.create({ key: '1BAD-KEY' }))).status).toBeGreaterThanOrEqual(400);

    // PATCH merges: staging's value stays when only dev's is sent.
    const patched = (await sourceNovu.environmentVariables.update({ values: [{ environmentId: source.id, value: 'Hi from feature' }] }, 'GREETING')).result;
    expect(Object.fromEntries(patched.values.map((v) => [v.environmentId, v.value]))).toEqual({
      [source.id]: 'Hi from feature',
      [staging.id]: 'Hello from staging',
    });

    // The staging key sees its own value only.
    expect((await stagingNovu.environmentVariables.retrieve('GREETING')).result.values).toEqual([{ environmentId: staging.id, value: 'Hello from staging' }]);

    await sourceNovu.workflows.create(workflowBody('{{env.GREETING}}, {{subscriber.firstName}}'));
    expect((await sourceNovu.environmentVariables.usage('GREETING')).result.workflows).toEqual([{ name: 'Env greeting', workflowId: 'env-greeting' }]);
    expect((await sourceNovu.environmentVariables.usage('API_TOKEN')).result.workflows).toEqual([]);

    await sourceNovu.environmentVariables.delete('API_TOKEN');
    expect(await sdkFailure(sourceNovu.environmentVariables.retrieve('API_TOKEN'))).toMatchObject({ status: 404 });
  });

  it("renders {{env.KEY}} with the triggering environment's value", async () => {
    const since = new Date().toISOString();
    const t = (await sourceNovu.trigger({ workflowId: 'env-greeting', to: { subscriberId: 'env-ada', firstName: 'Ada' } })).result;
    expect((await messageOf(source.key, t.transactionId!, since)).content).toBe('Hi from feature, Ada');
  });
});

describe('between environments through the SDK', () => {
  it('tags of an environment, a step of a workflow', async () => {
    expect((await sourceNovu.environments.getTags(source.id)).result.map((t) => t.name).sort()).toEqual(['env', 'onboarding']);
    expect((await sourceNovu.environments.getTags(staging.id)).result).toEqual([]);
    const step = (await sourceNovu.workflows.steps.retrieve('env-greeting', 'inbox')).result;
    expect(step).toMatchObject({
      stepId: 'inbox',
      type: 'in_app',
      workflowId: 'env-greeting',
      controlValues: { body: '{{env.GREETING}}, {{subscriber.firstName}}' },
    });
    expect(await sdkFailure(sourceNovu.workflows.steps.retrieve('env-greeting', 'nope'))).toMatchObject({ status: 404 });
  });

  it("diff shows the workflow added; publish creates it; the target's key then triggers it with the target's value", async () => {
    // Before: the staging environment has no such workflow.
    expect((await sdkFailure(stagingNovu.trigger({ workflowId: 'env-greeting', to: 'env-bo' }))).status).toBe(422);

    const diff = await answerOf(sourceNovu.environments.diff({}, staging.id));
    expect(diff).toMatchObject({ sourceEnvironmentId: source.id, targetEnvironmentId: staging.id, summary: { totalChanges: 1, hasChanges: true } });
    expect(diff.resources).toEqual([
      expect.objectContaining({
        resourceType: 'workflow',
        sourceResource: expect.objectContaining({ id: 'env-greeting', name: 'Env greeting' }),
        targetResource: null,
        changes: [expect.objectContaining({ action: 'added', resourceType: 'workflow' })],
        summary: { added: 1, modified: 0, deleted: 0, unchanged: 0 },
      }),
    ]);

    const dry = await answerOf(sourceNovu.environments.publish({ dryRun: true }, staging.id));
    expect(dry.summary).toEqual({ resources: 1, successful: 0, failed: 0, skipped: 1 });

    const published = await answerOf(sourceNovu.environments.publish({}, staging.id));
    expect(published.results[0].successful).toEqual([
      { resourceType: 'workflow', resourceId: 'env-greeting', resourceName: 'Env greeting', action: 'created' },
    ]);
    expect(published.summary).toEqual({ resources: 1, successful: 1, failed: 0, skipped: 0 });

    const since = new Date().toISOString();
    const t = (await stagingNovu.trigger({ workflowId: 'env-greeting', to: { subscriberId: 'env-bo', firstName: 'Bo' } })).result;
    expect((await messageOf(staging.key, t.transactionId!, since)).content).toBe('Hello from staging, Bo');

    // Published again with nothing changed: skipped.
    expect((await answerOf(sourceNovu.environments.publish({}, staging.id))).results[0].skipped[0].reason).toBe('No changes detected');
  });

  it('diff shows a modified workflow and its changed step; sync copies it', async () => {
    const wf = (await sourceNovu.workflows.get('env-greeting')).result;
    await sourceNovu.workflows.update(
      {
        name: 'Env greeting v2',
        origin: 'novu-cloud',
        preferences: {},
        active: true,
        tags: wf.tags,
        steps: [{ id: wf.steps[0]!.id, stepId: 'inbox', name: 'Inbox', type: 'in_app', controlValues: { body: '{{env.GREETING}}!' } }],
      } as never,
      'env-greeting',
    );
    const diff = await answerOf(sourceNovu.environments.diff({}, staging.id));
    const changes = diff.resources[0].changes;
    expect(changes).toEqual([
      expect.objectContaining({
        resourceType: 'workflow',
        action: 'modified',
        diffs: { previous: { name: 'Env greeting' }, new: { name: 'Env greeting v2' } },
      }),
      expect.objectContaining({
        resourceType: 'step',
        action: 'modified',
        stepType: 'in_app',
        diffs: {
          previous: { controlValues: expect.objectContaining({ body: '{{env.GREETING}}, {{subscriber.firstName}}' }) },
          new: { controlValues: expect.objectContaining({ body: '{{env.GREETING}}!' }) },
        },
      }),
    ]);
    expect(diff.resources[0].summary).toEqual({ added: 0, modified: 2, deleted: 0, unchanged: 0 });

    const synced = (await sourceNovu.workflows.sync({ targetEnvironmentId: staging.id }, 'env-greeting')).result;
    expect(synced).toMatchObject({ workflowId: 'env-greeting', name: 'Env greeting v2' });
    expect((await stagingNovu.workflows.get('env-greeting')).result.name).toBe('Env greeting v2');
    expect((await answerOf(sourceNovu.environments.diff({}, staging.id))).summary).toEqual({ totalEntities: 0, totalChanges: 0, hasChanges: false });
  });

  it('refuses the same environment, and an environment outside the caller’s reach', async () => {
    expect(await sdkFailure(sourceNovu.environments.diff({ sourceEnvironmentId: staging.id }, staging.id))).toMatchObject({ status: 400 });
    // The development key may not reach an environment made from another one.
    expect(await sdkFailure(novu.environments.diff({ sourceEnvironmentId: source.id }, staging.id))).toMatchObject({ status: 403 });
    // The staging key may not publish into the environment it was made from.
    expect(await sdkFailure(stagingNovu.environments.publish({}, source.id))).toMatchObject({ status: 403 });
    expect(await sdkFailure(novu.environments.diff({}, '0123456789abcdef01234567'))).toMatchObject({ status: 404 });
  });
});
