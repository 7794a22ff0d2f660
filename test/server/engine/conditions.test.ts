import { describe, expect, it } from 'vitest';
import { matchesField, matchesFilters, shouldSkip, skipVariables, unknownSkipOperators } from '../../../src/server/engine/conditions.js';
import type { StepFilter } from '../../../src/api/schemas/resources.js';

const subject = {
  subscriber: { firstName: 'Ada', email: 'ada@example.com', data: { age: 36, plan: 'pro', roles: ['admin', 'dev'], vip: true } },
  payload: { amount: 120, status: 'open', tags: ['urgent', 'billing'], createdAt: '2025-03-10T00:00:00Z', title: 'Invoice overdue' },
};

describe('shouldSkip', () => {
  it('skips when the JSON-logic conditions hold', () => {
    const rule = { and: [{ '==': [{ var: 'payload.status' }, 'open'] }, { '>': [{ var: 'subscriber.data.age' }, 30] }] };
    expect(shouldSkip(rule, subject)).toEqual({ skip: true });
    expect(shouldSkip(rule, { ...subject, payload: { status: 'closed' } })).toEqual({ skip: false });
  });

  it('does not skip without conditions', () => {
    expect(shouldSkip(undefined, subject)).toEqual({ skip: false });
    expect(shouldSkip({}, subject)).toEqual({ skip: false });
  });

  it('reports an unknown operator instead of guessing', () => {
    const decision = shouldSkip({ nope: [1, 2] }, subject);
    expect(decision.skip).toBe(false);
    expect(decision.error).toMatch(/Unrecognized operation nope/);
    expect(shouldSkip('payload.x', subject).error).toMatch(/JSON-logic object/);
  });

  it('lists the variables and unknown operators of a rule', () => {
    const rule = { or: [{ in: [{ var: 'payload.tier' }, ['a']] }, { bogus: [{ var: ['subscriber.data.x', 1] }] }] };
    expect(skipVariables(rule)).toEqual(['payload.tier', 'subscriber.data.x']);
    expect(unknownSkipOperators(rule)).toEqual(['bogus']);
  });
});

describe('matchesField', () => {
  const cases: Array<[string, 'subscriber' | 'payload', string, string, boolean]> = [
    ['EQUAL string', 'payload', 'status', 'open', true],
    ['EQUAL number coerced', 'payload', 'amount', '120', true],
    ['EQUAL boolean coerced', 'subscriber', 'data.vip', 'true', true],
    ['NOT_EQUAL', 'payload', 'status', 'closed', true],
    ['LARGER', 'payload', 'amount', '100', true],
    ['SMALLER', 'payload', 'amount', '100', false],
    ['LARGER_EQUAL', 'payload', 'amount', '120', true],
    ['SMALLER_EQUAL', 'subscriber', 'data.age', '35', false],
    ['LARGER dates', 'payload', 'createdAt', '2025-01-01', true],
    ['IN array contains', 'payload', 'tags', 'urgent', true],
    ['IN string contains', 'payload', 'title', 'overdue', true],
    ['NOT_IN', 'payload', 'tags', 'sales', true],
    ['ANY_IN', 'subscriber', 'data.roles', 'owner, admin', true],
    ['ANY_IN scalar', 'subscriber', 'data.plan', '["free","pro"]', true],
    ['ALL_IN', 'subscriber', 'data.roles', 'admin,dev', true],
    ['ALL_IN missing one', 'subscriber', 'data.roles', 'admin,owner', false],
    ['BETWEEN', 'payload', 'amount', '100,200', true],
    ['BETWEEN bounds inclusive', 'payload', 'amount', '120,120', true],
    ['NOT_BETWEEN', 'payload', 'amount', '1,10', true],
    ['LIKE wildcard', 'subscriber', 'email', '%@example.com', true],
    ['LIKE substring, case-insensitive', 'payload', 'title', 'INVOICE', true],
    ['NOT_LIKE', 'payload', 'title', 'refund%', true],
  ];
  it.each(cases)('%s', (name, on, field, value, expected) => {
    const operator = name.split(' ')[0] as never;
    expect(matchesField({ on, field, value, operator }, subject)).toBe(expected);
  });

  it('is false for comparisons on absent fields', () => {
    for (const operator of ['LARGER', 'SMALLER', 'BETWEEN', 'NOT_BETWEEN', 'LIKE', 'IN'] as const) {
      expect(matchesField({ on: 'payload', field: 'missing', value: '1,2', operator }, subject)).toBe(false);
    }
  });
});

describe('matchesFilters', () => {
  const group = (value: 'AND' | 'OR', children: StepFilter['children'], isNegated = false): StepFilter => ({ type: 'GROUP', value, children, isNegated });
  const isPro = { on: 'subscriber' as const, field: 'data.plan', value: 'pro', operator: 'EQUAL' as const };
  const isClosed = { on: 'payload' as const, field: 'status', value: 'closed', operator: 'EQUAL' as const };

  it('passes without filters', () => {
    expect(matchesFilters(undefined, subject)).toBe(true);
    expect(matchesFilters([], subject)).toBe(true);
  });

  it('combines children with AND or OR, and negates', () => {
    expect(matchesFilters([group('AND', [isPro, isClosed])], subject)).toBe(false);
    expect(matchesFilters([group('OR', [isPro, isClosed])], subject)).toBe(true);
    expect(matchesFilters([group('OR', [isPro, isClosed], true)], subject)).toBe(false);
  });

  it('passes when any group passes', () => {
    expect(matchesFilters([group('AND', [isClosed]), group('AND', [isPro])], subject)).toBe(true);
  });
});
