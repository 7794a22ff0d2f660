import { describe, expect, it } from 'vitest';
import { emailSource, quotedPrintable, rfc5322Date } from '../../src/core/email-source.js';
import { APNS_MAX_BYTES, GMAIL_CLIP_BYTES, inspectMessage, senderOf, smsInfo } from '../../src/core/message-checks.js';
import { extract, firstLink, firstOtp, htmlToText, messageContains, parsePattern } from '../../src/core/message-text.js';

const email = (content: string, extra: Record<string, unknown> = {}) => ({
  _id: '6761f0c2a3b4c5d6e7f80912',
  channel: 'email',
  subject: 'Your code',
  email: 'ada@example.com',
  createdAt: '2025-01-14T10:00:00.000Z',
  content,
  ...extra,
});

describe('extract', () => {
  const html =
    '<html><head><style>td{padding:2024px}</style><title>2025</title></head><body><p>Hi Ada, © 2024 is not it.</p>' +
    '<a href="https://app.example.com/verify?token=abc123&amp;u=7">Verify</a><p>Code: <b>482913</b></p></body></html>';

  it('link: the first <a href> of the HTML, entities decoded', () => {
    expect(firstLink(email(html))).toBe('https://app.example.com/verify?token=abc123&u=7');
  });
  it('otp: the first 4-8 digit code of the visible text, not of the markup or the title', () => {
    expect(firstOtp(email('<p>Your code is 5521.</p><a href="https://x.test/12345678">x</a>'))).toBe('5521');
    // "2024" in the footer text comes first: the first code is what the spec asks for.
    expect(firstOtp(email(html))).toBe('2024');
    expect(firstOtp(email('<p>Code: 123456789 or 12-34</p>'))).toBeUndefined();
  });
  it('otp in SMS, in-app and push bodies', () => {
    expect(firstOtp({ channel: 'sms', content: 'Your Acme code: 004512. Do not share.' })).toBe('004512');
    expect(firstOtp({ channel: 'in_app', content: 'Use <b>7788</b> to sign in' })).toBe('7788');
    expect(firstOtp({ channel: 'push', title: 'Sign in', content: 'code 99881' })).toBe('99881');
  });
  it('link of an in-app message is its call to action, of an SMS its text', () => {
    expect(firstLink({ channel: 'in_app', content: 'see https://b.test/x', cta: { type: 'redirect', data: { url: 'https://a.test/cta' } } })).toBe(
      'https://a.test/cta',
    );
    expect(firstLink({ channel: 'sms', content: 'Open https://s.test/r/1, thanks.' })).toBe('https://s.test/r/1');
    expect(firstLink(email('<p>Go to https://t.test/only-text.</p>'))).toBe('https://t.test/only-text');
  });
  it('a pattern prints its first capture group, searched in the markup too', () => {
    expect(extract(email(html), parsePattern('token=([a-z0-9]+)') as RegExp)).toBe('abc123');
    expect(extract(email(html), parsePattern('/CODE: (\\d+)/i') as RegExp)).toBe('482913');
    expect(extract(email(html), parsePattern('Verify') as RegExp)).toBe('Verify');
    expect(typeof parsePattern('(')).toBe('string');
  });
  it('contains: any case, in subject or text', () => {
    expect(messageContains(email(html), 'hi ada')).toBe(true);
    expect(messageContains(email(html), 'your CODE')).toBe(true);
    expect(messageContains(email(html), 'nope')).toBe(false);
  });
  it('htmlToText: blocks as lines, link targets after their words, hidden parts gone', () => {
    expect(htmlToText(html)).toBe('Hi Ada, © 2024 is not it.\nVerify (https://app.example.com/verify?token=abc123&u=7)Code: 482913');
  });
});

describe('checks', () => {
  it('email: says by how much the HTML is over the point where Gmail clips it', () => {
    const big = `<p>${'x'.repeat(GMAIL_CLIP_BYTES + 2048)}</p>`;
    const size = inspectMessage(email(big)).checks.find((c) => c.check === 'size')!;
    expect(size.level).toBe('problem');
    expect(size.text).toMatch(/^HTML is 10[45] KB \([\d,]+ bytes\): over the 102 KB past which Gmail clips the message, by 2 KB$/);
    expect(inspectMessage(email('<p>hi</p>')).checks.find((c) => c.check === 'size')!.level).toBe('ok');
  });
  it('email: links and images a reader cannot use', () => {
    const i = inspectMessage(
      email('<a href="/relative">a</a><a href="http://localhost:3000/x">b</a><img src="data:image/png;base64,AAAA"><img src="https://c.test/i.png" alt="">'),
      { from: { address: 'hello@acme.test', name: 'Acme' } },
    );
    const texts = i.checks.map((c) => `${c.level} ${c.check}: ${c.text}`);
    expect(texts).toContain('problem links: /relative is not absolute: a mail client has no page to resolve it against');
    expect(texts).toContain('warning links: http://localhost:3000/x points at this machine: it works only where the app runs locally');
    expect(texts).toContain('warning images: 1 of 2 image(s) without alt text: blank where images are blocked');
    expect(texts).toContain('problem images: an image is inline data (data: URI), which Gmail and Outlook do not show');
    expect(i.email!.headers.From).toBe('"Acme" <hello@acme.test>');
  });
  it('sms: GSM-7 and UCS-2, with segments and the characters that forced UCS-2', () => {
    expect(smsInfo('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(smsInfo('a'.repeat(161))).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    // € is in the extension table: two septets.
    expect(smsInfo('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsInfo(`${'a'.repeat(69)}😀`)).toMatchObject({ encoding: 'UCS-2', units: 71, segments: 2, outsideGsm: ['😀'] });
    const checks = inspectMessage({ channel: 'sms', content: `Hi ${'a'.repeat(70)} 😀` }).checks;
    expect(checks[0]!.text).toBe("UCS-2 because of '😀' (U+1F600), which GSM-7 does not have");
    expect(checks[1]!.text).toBe('2 segments, billed as 2 messages: 76 UTF-16 units exceed the 70 of one SMS (67 per part when split)');
  });
  it('push: payload sizes against APNs and FCM limits, data from the overrides', () => {
    const small = inspectMessage({ channel: 'push', providerId: 'fcm', title: 'Hi', content: 'There', overrides: { fcm: { data: { n: 1 } } } });
    expect(small.push!.data).toEqual({ n: 1 });
    expect(small.checks[0]!.text).toMatch(/^APNs payload is \d+ of 4,096 bytes$/);
    const big = inspectMessage({ channel: 'push', title: 'Hi', content: 'x'.repeat(APNS_MAX_BYTES) });
    expect(big.checks[0]).toMatchObject({ level: 'problem' });
    expect(big.checks[0]!.text).toMatch(/^APNs payload is 4,\d{3} bytes: over APNs's 4,096-byte limit by \d+; the provider refuses it$/);
  });
  it('senderOf: the integration credentials', () => {
    expect(senderOf({ credentials: { from: 'a@b.test', senderName: 'B' } })).toEqual({ address: 'a@b.test', name: 'B' });
    expect(senderOf({ credentials: {} })).toBeUndefined();
  });
});

describe('email source', () => {
  it('is RFC 5322: CRLF, headers, a blank line, multipart/alternative with text and HTML', () => {
    const src = emailSource(email('<p>Grüße</p>', { subject: 'Grüße' }), { address: 'hello@acme.test' }).source;
    expect(src).toMatch(/^From: hello@acme\.test\r\nTo: ada@example\.com\r\nSubject: =\?UTF-8\?B\?R3LDvMOfZQ==\?=\r\n/);
    expect(src).toContain('Date: Tue, 14 Jan 2025 10:00:00 +0000\r\n');
    expect(src).toContain('Message-ID: <6761f0c2a3b4c5d6e7f80912@acme.test>\r\n');
    expect(src).toContain('\r\n\r\n--svc-6761f0c2a3b4c5d6e7f80912\r\nContent-Type: text/plain; charset=utf-8\r\n');
    expect(src).toContain('Gr=C3=BC=C3=9Fe');
    expect(src.endsWith('--svc-6761f0c2a3b4c5d6e7f80912--\r\n')).toBe(true);
    for (const line of src.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
    expect(src.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });
  it('quoted-printable keeps lines at 76 and never splits an escape', () => {
    const qp = quotedPrintable('é'.repeat(100));
    for (const line of qp.split('\r\n')) {
      expect(line.length).toBeLessThanOrEqual(76);
      expect(line).toMatch(/^(=[0-9A-F]{2})*=?$/);
    }
    expect(rfc5322Date(0)).toBe('Thu, 01 Jan 1970 00:00:00 +0000');
  });
});
