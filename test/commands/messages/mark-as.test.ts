// svc messages mark-as: the request it sends and the input it refuses before sending anything.
import { expect, test } from 'vitest';
import { ID, ID2, fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const message = (_id: string) => fixture.message(_id);

sendsRequest(svc, [
  [
    'messages mark-as one id',
    {
      argv: ['messages', 'mark-as', 'u1', 'read', ID],
      method: 'POST',
      path: '/v1/subscribers/u1/messages/mark-as',
      status: 201,
      body: { messageId: ID, markAs: 'read' },
      answer: { data: [message(ID)] },
    },
  ],
  [
    'messages mark-as several ids',
    {
      argv: ['messages', 'mark-as', 'u1', 'unseen', ID, ID2],
      method: 'POST',
      path: '/v1/subscribers/u1/messages/mark-as',
      status: 201,
      body: { messageId: [ID, ID2], markAs: 'unseen' },
      answer: { data: [message(ID), message(ID2)] },
    },
  ],
]);

refusesInput(svc, [
  [['messages', 'mark-as', 'u1', 'read', 'not-an-id'], 'MESSAGE_ID: expected 24-character hexadecimal ids'],
  [
    ['messages', 'mark-as', 'u1', 'archived', '6761f0c2a3b4c5d6e7f80912'],
    "value 'archived' is invalid for argument 'state'. Allowed choices are read, seen, unread, unseen",
  ],
]);

test('nothing changed (no id is a message of the subscriber): exit 5, saying so on one line', async () => {
  svc.stub.on('POST', '/v1/subscribers/u1/messages/mark-as', { status: 201, body: { data: [] } });
  const r = await runSvc(['messages', 'mark-as', 'u1', 'read', ID], { env: svc.env });
  expect(r.code).toBe(5);
  expect(
    r.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('warning:')),
  ).toEqual(['error: no message was marked read: none of the 1 message id(s) is a message of u1; svc messages list --subscriber u1 shows their message ids']);
});

test('some changed: exit 0 with a warning naming how many were not', async () => {
  svc.stub.on('POST', '/v1/subscribers/u1/messages/mark-as', { status: 201, body: { data: [message(ID)] } });
  const r = await runSvc(['messages', 'mark-as', 'u1', 'seen', ID, ID2], { env: svc.env });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('1 of 2 message id(s) do not belong to u1');
});

test('the exit code is documented in the command help and svc help exit-codes', async () => {
  expect((await runSvc(['messages', 'mark-as', '--help'])).stdout).toContain('Exit code 5 when no message was changed');
  expect((await runSvc(['help', 'exit-codes'])).stdout).toMatch(/5 +not found \(404\); also messages mark-as when no message was changed/);
});
