// svc messages mark-as: the request it sends and the input it refuses before sending anything.
import { ID, ID2, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'messages mark-as one id',
    {
      argv: ['messages', 'mark-as', 'u1', 'read', ID],
      method: 'POST',
      path: '/v1/subscribers/u1/messages/mark-as',
      status: 201,
      body: { messageId: ID, markAs: 'read' },
      answer: { data: [] },
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
      answer: { data: [] },
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
