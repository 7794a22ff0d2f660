// Reading providers' delivery reports (pure): which message each entry names, what its event is,
// and what it changes; and the provider's own id of a message svc dev sends, which reports name.
import { describe, expect, it } from 'vitest';
import { detailStatus, messageEffect, messageIdOf, parseReports, providerMessageId, readsReports } from '../../src/server/delivery-reports.js';

const AT = '2026-01-02T03:04:05.000Z';
const ID = '6b0bfff2fb1a2a98bd856f5a';

describe('providerMessageId', () => {
  it("is the message's id for SendGrid, a Message SID for Twilio (as the simulator's answers), a UUID for Postmark", () => {
    expect(providerMessageId('sendgrid', ID)).toBe(ID);
    expect(providerMessageId('twilio', ID)).toBe(`SM${ID}00000000`);
    expect(providerMessageId('postmark', ID)).toBe(`00000000-${ID.slice(0, 4)}-${ID.slice(4, 8)}-${ID.slice(8, 12)}-${ID.slice(12)}`);
    expect(providerMessageId('mailgun', ID)).toBe(ID);
  });

  it('is read back to the message id, and nothing else is', () => {
    for (const p of ['sendgrid', 'twilio', 'postmark']) expect(messageIdOf(p, providerMessageId(p, ID))).toBe(ID);
    expect(messageIdOf('twilio', `SM${ID}00000001`)).toBeUndefined();
    expect(messageIdOf('twilio', 'SM1')).toBeUndefined();
    expect(messageIdOf('sendgrid', 'abc.filter0001')).toBeUndefined();
    expect(messageIdOf('postmark', '6b0bfff2-fb1a-2a98-bd85-6f5a00000000')).toBeUndefined();
  });
});

describe('parseReports', () => {
  it("reads SendGrid's event array entry by entry, leaving out events the provider's reader does not know", () => {
    const body = [
      { id: ID, event: 'processed' },
      { id: ID, event: 'delivered', response: '250 OK' },
      { id: ID, event: 'bounce', reason: '550 unknown user', attempt: '2' },
      { event: 'open' },
    ];
    const reports = parseReports('sendgrid', body, AT);
    expect(reports.map((r) => [r.id, r.event.status, r.event.response, r.event.attempts])).toEqual([
      [ID, 'delivered', '250 OK', 1],
      [ID, 'bounced', '550 unknown user', 2],
    ]);
    expect(JSON.parse(reports[1]!.event.row)).toEqual(body[2]);
    expect(reports[0]!.event.date).toBe(AT);
  });

  it("reads Twilio's status callback and Postmark's record", () => {
    expect(parseReports('twilio', { MessageSid: 'SM1', MessageStatus: 'delivered' }, AT).map((r) => r.event.status)).toEqual(['delivered']);
    expect(parseReports('postmark', { MessageID: 'u-1', RecordType: 'SpamComplaint' }, AT).map((r) => r.event.status)).toEqual(['spam']);
    expect(parseReports('slack', { id: ID, event: 'delivered' }, AT)).toEqual([]);
  });

  it('knows which providers it reads', () => {
    expect(['sendgrid', 'postmark', 'twilio', 'fcm'].map(readsReports)).toEqual([true, true, true, false]);
  });
});

describe("a report's effect", () => {
  it('gives the detail the status the service gives it, and changes the message as the event says', () => {
    expect(detailStatus('email', 'bounced')).toBe('Failed');
    expect(detailStatus('email', 'opened')).toBe('Success');
    expect(detailStatus('sms', 'queued')).toBe('Queued');
    expect(detailStatus('sms', 'sending')).toBe('Pending');
    expect(detailStatus('sms', 'undelivered')).toBe('Failed');
    expect(messageEffect('bounced')).toBe('failed');
    expect(messageEffect('delivered')).toBe('delivered');
    expect(messageEffect('clicked')).toBe('seen');
    expect(messageEffect('queued')).toBeUndefined();
  });
});
