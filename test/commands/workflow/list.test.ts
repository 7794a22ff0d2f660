// svc workflow list: the search, filters and paging it sends; --query after the command is the search.
import { expect, test } from 'vitest';
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const page = (n: number, total: number, from = 0) => ({
  data: { workflows: Array.from({ length: n }, (_, i) => ({ workflowId: `wf-${from + i}`, name: `Workflow ${from + i}` })), totalCount: total },
});

sendsRequest(svc, [
  [
    'workflow list with filters',
    {
      argv: ['workflow', 'list', '--query', 'order', '--status', 'ERROR', '--tag', 'a', '--tag', 'b', '--order-by', 'name', '--limit', '5', '--offset', '10'],
      method: 'GET',
      path: '/v2/workflows',
      query: { query: ['order'], status: ['ERROR'], tags: ['a', 'b'], orderBy: ['name'], limit: ['5'], offset: ['10'] },
      answer: page(0, 0),
    },
  ],
]);

refusesInput(svc, [
  [['workflow', 'list', '--limit', '101'], '--limit'],
  [['workflow', 'list', '--status', 'PAUSED'], '--status'],
  [['workflow', 'list', '--query', 'a', '--search', 'b'], '--search'],
]);

test('--all follows the offsets to the end, each workflow once', async () => {
  svc.stub.on('GET', '/v2/workflows', (req) => {
    const offset = Number(req.query.get('offset') ?? 0);
    return { body: page(offset === 0 ? 100 : 30, 130, offset) };
  });
  const r = await runSvc(['workflow', 'list', '--all', '-o', 'ndjson'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  const ids = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).workflowId);
  expect(ids).toHaveLength(130);
  expect(new Set(ids).size).toBe(130);
  expect(svc.stub.requests.map((q) => q.query.get('offset') ?? '0')).toEqual(['0', '100']);
});
