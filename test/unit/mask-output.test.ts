import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { maskData, maskHeaders, maskKey, maskUrl } from '../../src/core/mask.js';
import { pickFields, shapeForOutput, pagingHint, getPath } from '../../src/io/output.js';
import { describeZodError, flagLabels } from '../../src/core/validate.js';
import { TriggerBody } from '../../src/api/schemas/requests.js';
import { outcomeOf, statusOf } from '../../src/core/activity.js';

describe('masking', () => {
  test('keys keep a prefix and the last four characters; short ones are hidden entirely', () => {
    expect(maskKey('sk_test_0123456789abcdef')).toBe('sk_…cdef');
    expect(maskKey('0123456789abcdef')).toBe('01…cdef');
    expect(maskKey('short')).toBe('••••');
    expect(maskKey(maskKey('sk_test_0123456789abcdef'))).toBe('sk_…cdef');
  });
  test('secrets in data: tokens and every credential value; structure kept', () => {
    const out = maskData({ auth: { accessToken: 'xoxb-123456789012' }, credentials: { apiKey: 'SG.abcdefghijklmn', secure: true }, name: 'x' });
    expect(out).toEqual({ auth: { accessToken: 'xoxb-…9012' }, credentials: { apiKey: 'SG…klmn', secure: true }, name: 'x' });
  });
  test('personal data only in traces', () => {
    const body = { to: ['u1', { subscriberId: 'u2', email: 'ada@example.com', phone: '+15551234567' }], payload: { webhookUrl: 'https://hooks.example/x' } };
    expect(maskData(body)).toEqual(body);
    expect(maskData(body, { personal: true })).toEqual({
      to: ['u1', { subscriberId: 'u2', email: 'a•••@example.com', phone: '•••' }],
      payload: { webhookUrl: '•••' },
    });
  });
  test('known secrets are scrubbed wherever they appear', () => {
    expect(maskData({ message: 'key sk_test_0123456789abcdef is bad' }, { knownSecrets: ['sk_test_0123456789abcdef'] })).toEqual({
      message: 'key sk_…cdef is bad',
    });
  });
  test('headers and URLs for traces', () => {
    expect(maskHeaders({ authorization: 'ApiKey sk_test_0123456789abcdef', 'content-type': 'application/json' })).toEqual({
      authorization: 'ApiKey sk_…cdef',
      'content-type': 'application/json',
    });
    expect(maskUrl('http://h/v1/notifications?emails=ada@example.com&page=1', { personal: true })).toBe(
      'http://h/v1/notifications?page=1&emails=a%E2%80%A2%E2%80%A2%E2%80%A2%40example.com',
    );
  });
});

describe('output shaping', () => {
  test('pickFields follows a path through arrays, element by element', () => {
    const wf = { workflowId: 'welcome', steps: [{ stepId: 'a', type: 'in_app', controls: {} }, { stepId: 'b', type: 'email' }, { other: 1 }] };
    expect(pickFields(wf, ['workflowId', 'steps.stepId'])).toEqual({ workflowId: 'welcome', steps: [{ stepId: 'a' }, { stepId: 'b' }, {}] });
    expect(pickFields(wf, ['steps.stepId', 'steps.type'])).toEqual({ steps: [{ stepId: 'a', type: 'in_app' }, { stepId: 'b', type: 'email' }, {}] });
    expect(pickFields({ jobs: [{ status: 'completed', details: [{ detail: 'sent', raw: 'x' }] }] }, ['jobs.details.detail'])).toEqual({
      jobs: [{ details: [{ detail: 'sent' }] }],
    });
    expect(pickFields({ jobs: [{ status: 's' }, { status: 't' }] }, ['jobs.1.status'])).toEqual({ jobs: { 1: { status: 't' } } });
    expect(pickFields({ steps: [{ a: 1 }] }, ['steps.nope'])).toEqual({});
    expect(shapeForOutput({ data: [{ _id: '1', x: 2 }], page: 0, hasMore: false }, { list: true }, ['page', 'hasMore', 'data._id']).value).toEqual({
      page: 0,
      hasMore: false,
      data: [{ _id: '1' }],
    });
  });
  test('pickFields keeps nesting and skips missing paths', () => {
    expect(pickFields({ a: { b: 1, c: 2 }, d: 3 }, ['a.b', 'd', 'x.y'])).toEqual({ a: { b: 1 }, d: 3 });
    expect(getPath({ a: [{ b: 5 }] }, 'a.0.b')).toBe(5);
  });
  test('lists print records unless --fields names the envelope', () => {
    const env = { data: [{ id: 1 }], next: 'n', previous: null, totalCount: 1, totalCountCapped: false };
    expect(shapeForOutput(env, { list: true }, undefined)).toEqual({ value: [{ id: 1 }], isList: true });
    expect(shapeForOutput(env, { list: true }, ['id'])).toEqual({ value: [{ id: 1 }], isList: true });
    expect(shapeForOutput(env, { list: true }, ['next'])).toEqual({ value: { next: 'n' }, isList: false });
  });
  test('paging hints', () => {
    expect(pagingHint({ data: [1, 2], next: 'abc', previous: null, totalCount: 60000, totalCountCapped: true })).toBe(
      '2 records of 60000+ · next page: --after abc',
    );
    expect(pagingHint({ data: [1], page: 3, hasMore: false, pageSize: 10 })).toBe('page 3, 1 record · no more pages');
  });
});

describe('validation messages', () => {
  test('a union reports the branch the user meant', () => {
    const r = TriggerBody.safeParse({ name: 'w', to: [{ firstName: 'Ada' }] });
    expect(r.success).toBe(false);
    const msg = describeZodError(r.error!, flagLabels({ to: '--to' }));
    expect(msg).toContain('--to [0].subscriberId');
  });
  test('enum and type problems say what was expected', () => {
    const r = z.object({ markAs: z.enum(['read', 'seen']), n: z.number() }).safeParse({ markAs: 'x', n: 'y' });
    expect(describeZodError(r.error!)).toBe('markAs: must be one of "read", "seen"; n: expected number, got string');
  });
});

describe('activity outcome', () => {
  test('failed beats pending beats delivered', () => {
    // A channel skipped beside a delivered one is not a bare "delivered".
    expect(
      outcomeOf([
        { type: 'in_app', status: 'completed' },
        { type: 'email', status: 'skipped' },
      ]),
    ).toBe('partial');
    // Nothing sent by a channel step is not delivered.
    expect(
      outcomeOf([
        { type: 'in_app', status: 'skipped' },
        { type: 'email', status: 'skipped' },
      ]),
    ).toBe('skipped');
    expect(outcomeOf([{ status: 'completed' }, { status: 'delayed' }])).toBe('pending');
    expect(outcomeOf([{ status: 'failed' }, { status: 'pending' }])).toBe('failed');
    expect(outcomeOf([])).toBe('empty');
    expect(outcomeOf([{ status: 'merged' }, { status: 'merged' }])).toBe('merged');
    expect(outcomeOf([{ status: 'merged' }, { status: 'pending' }])).toBe('pending');
    expect(statusOf([{ status: 'completed' }, { status: 'queued' }])).toBe('pending');
  });
});
