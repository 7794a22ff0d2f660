// The diff between two environments' workflows (handlers/publish.ts), as pure data: workflows added,
// deleted and modified by workflowId, and a modified one's steps added, deleted, changed or moved.
import { describe, expect, it } from 'vitest';
import { diffWorkflows } from '../../src/server/handlers/publish.js';
import { DEFAULT_PREFERENCES, type StoredStep, type StoredWorkflow } from '../../src/server/store/workflows.js';

const step = (stepId: string, body = 'hi'): StoredStep => ({
  _id: `db-${stepId}`,
  stepId,
  slug: stepId,
  name: stepId,
  type: 'in_app',
  controlValues: { body },
});
const workflow = (workflowId: string, steps: StoredStep[], fields: Partial<StoredWorkflow> = {}): StoredWorkflow => ({
  _id: `db-${workflowId}`,
  _environmentId: 'env',
  _organizationId: 'org',
  workflowId,
  slug: workflowId,
  name: workflowId,
  tags: [],
  active: true,
  validatePayload: false,
  payloadSchema: null,
  isTranslationEnabled: false,
  origin: 'svc-cloud',
  preferences: { user: null, default: DEFAULT_PREFERENCES },
  severity: 'none',
  critical: false,
  steps,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('diffWorkflows', () => {
  it('equal workflows (other database ids and times) differ in nothing', () => {
    const target = { ...workflow('a', [step('s1')]), _id: 'other', updatedAt: '2027-01-01T00:00:00.000Z' };
    expect(diffWorkflows([workflow('a', [step('s1')])], [target])).toEqual([]);
  });

  it('a workflow only the target has is deleted; only the source has, added', () => {
    const r = diffWorkflows([workflow('new', [])], [workflow('old', [])]);
    expect(r.map((x) => [x.changes[0]!.action, x.sourceResource?.id ?? x.targetResource?.id])).toEqual([
      ['added', 'new'],
      ['deleted', 'old'],
    ]);
    expect(r[1]!.summary).toEqual({ added: 0, modified: 0, deleted: 1, unchanged: 0 });
  });

  it("a modified workflow lists its fields' changes and each step added, changed, moved or deleted", () => {
    const source = workflow('a', [step('s3'), step('s1', 'changed'), step('s2')], { tags: ['beta'] });
    const target = workflow('a', [step('s1'), step('s2'), step('gone')]);
    const [r] = diffWorkflows([source], [target]);
    expect(r!.changes.map((c) => [c.resourceType, c.action, c.sourceResource?.id ?? c.targetResource?.id])).toEqual([
      ['workflow', 'modified', 'a'],
      ['step', 'added', 's3'],
      ['step', 'modified', 's1'],
      ['step', 'moved', 's2'],
      ['step', 'deleted', 'gone'],
    ]);
    expect(r!.changes[0]!.diffs).toEqual({ previous: { tags: [] }, new: { tags: ['beta'] } });
    expect(r!.changes[3]).toMatchObject({ previousIndex: 1, newIndex: 2 });
    expect(r!.summary).toEqual({ added: 1, modified: 3, deleted: 1, unchanged: 0 });
  });
});
