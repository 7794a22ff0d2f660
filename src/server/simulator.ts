// Failures on purpose: destinations that svc dev's providers answer the way real providers answer
// them, so that a team can test its failure paths offline. Email at simulator.svc.test follows the
// Amazon SES mailbox simulator, SMS the magic "To" numbers of Twilio's test credentials, push the
// token `simulator-unregistered` (FCM's UNREGISTERED, APNs' 410 Unregistered). Pure: a destination
// and an attempt number in, the provider's answer out (undefined: not a simulator destination, the
// message goes out as any other); the runner writes what the answer means.
import type { JsonObject } from '../api/schemas/common.js';
import { providerMessageId } from './delivery-reports.js';

const SIMULATOR_EMAIL_DOMAIN = 'simulator.svc.test';
const UNREGISTERED_TOKEN = 'simulator-unregistered';

export type SimulatedChannel = 'email' | 'sms' | 'push';

export interface SimulatorInput {
  channel: SimulatedChannel;
  /** An email address, a phone number or one device token. */
  to: string;
  /** The integration's provider: push answers take APNs' shape for `apns`, FCM's otherwise. */
  providerId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The message's id: the provider's own ids in answers are made from it. */
  messageId: string;
  /** Service time, ISO-8601, for the answers' timestamps. */
  at: string;
}

/** What comes back after a delivery: a complaint, an automatic reply. */
interface Aftermath {
  status: 'Success' | 'Warning';
  detail: string;
  raw: JsonObject;
}

export type SimulatedAnswer =
  /** Sent; `after` is what the provider reported about it afterwards. */
  | { outcome: 'delivered'; detail: string; raw: JsonObject; after: Aftermath[] }
  /** Refused for good (a hard bounce, an invalid number): the step fails and is not tried again. */
  | { outcome: 'failed'; reason: string; errorId: string; raw: JsonObject }
  /** Refused for now (429): the runner tries again after its backoff. */
  | { outcome: 'retry'; reason: string; raw: JsonObject };

/** The simulator's answer for this destination, or undefined when it is not one of its own. */
export function simulatorAnswer(input: SimulatorInput): SimulatedAnswer | undefined {
  switch (input.channel) {
    case 'email':
      return emailAnswer(input);
    case 'sms':
      return smsAnswer(input);
    case 'push':
      return pushAnswer(input);
  }
}

/** Whether a destination of this channel is answered by the simulator. */
export function isSimulated(channel: SimulatedChannel, to: string): boolean {
  switch (channel) {
    case 'email':
      return mailbox(to) !== undefined;
    case 'sms':
      return TWILIO[phoneDigits(to)] !== undefined;
    case 'push':
      return to === UNREGISTERED_TOKEN;
  }
}

// --- email: after the SES mailbox simulator ----------------------------------------------------------

const SIMULATOR_MAILBOXES = ['success', 'bounce', 'complaint', 'ooto', 'suppressionlist', 'ratelimit'] as const;

/** The mailbox of a simulator address, `+label` left out as SES does (`bounce+signup@…` is `bounce`). */
function mailbox(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (
    at < 0 ||
    address
      .slice(at + 1)
      .trim()
      .toLowerCase() !== SIMULATOR_EMAIL_DOMAIN
  )
    return undefined;
  return address.slice(0, at).trim().toLowerCase().split('+')[0]!;
}

const sesMessageId = (input: SimulatorInput) => `simulator-${input.messageId}`;

function sesMail(input: SimulatorInput): JsonObject {
  return { timestamp: input.at, messageId: sesMessageId(input), destination: [input.to] };
}

function delivery(input: SimulatorInput): JsonObject {
  return {
    notificationType: 'Delivery',
    mail: sesMail(input),
    delivery: {
      timestamp: input.at,
      recipients: [input.to],
      smtpResponse: '250 2.6.0 Message received',
      reportingMTA: SIMULATOR_EMAIL_DOMAIN,
    },
  };
}

function bounce(input: SimulatorInput, subType: 'General' | 'Suppressed', status: string, diagnosticCode: string): JsonObject {
  return {
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: subType,
      bouncedRecipients: [{ emailAddress: input.to, action: 'failed', status, diagnosticCode }],
      timestamp: input.at,
      feedbackId: `${sesMessageId(input)}-bounce`,
      reportingMTA: `dns; ${SIMULATOR_EMAIL_DOMAIN}`,
    },
    mail: sesMail(input),
  };
}

const SUPPRESSED = 'Amazon SES has suppressed sending to this address because it has a recent history of bouncing as an invalid address.';

function emailAnswer(input: SimulatorInput): SimulatedAnswer | undefined {
  const box = mailbox(input.to);
  if (box === undefined) return undefined;
  const sent = (after: Aftermath[] = []): SimulatedAnswer => ({
    outcome: 'delivered',
    detail: `Message sent: delivered to ${input.to} (250 2.6.0 Message received)`,
    raw: delivery(input),
    after,
  });
  switch (box) {
    case 'success':
      return sent();
    case 'complaint':
      return sent([
        {
          status: 'Warning',
          detail: `Complaint from ${input.to}: the recipient marked the message as spam (feedback type abuse)`,
          raw: {
            notificationType: 'Complaint',
            complaint: {
              complainedRecipients: [{ emailAddress: input.to }],
              complaintFeedbackType: 'abuse',
              timestamp: input.at,
              feedbackId: `${sesMessageId(input)}-complaint`,
            },
            mail: sesMail(input),
          },
        },
      ]);
    case 'ooto':
      return sent([
        {
          status: 'Success',
          detail: `Automatic reply from ${input.to}: out of the office (Auto-Submitted: auto-replied)`,
          raw: {
            from: input.to,
            headers: { 'Auto-Submitted': 'auto-replied', 'In-Reply-To': `<${sesMessageId(input)}@${SIMULATOR_EMAIL_DOMAIN}>` },
            subject: 'Out of the office',
            text: 'I am out of the office and will read your message when I return.',
          },
        },
      ]);
    case 'suppressionlist':
      return {
        outcome: 'failed',
        reason: `Message not delivered: ${input.to} is on the suppression list (hard bounce, Permanent/Suppressed): it has a recent history of bouncing as an invalid address; not retried`,
        errorId: 'unexpected_email_error',
        raw: bounce(input, 'Suppressed', '5.1.1', SUPPRESSED),
      };
    case 'ratelimit':
      if (input.attempt > 1) return sent();
      return {
        outcome: 'retry',
        reason: `Provider answered 429 TooManyRequestsException for ${input.to}: Maximum sending rate exceeded.`,
        raw: { status: 429, body: { __type: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' } },
      };
    default: {
      // bounce@, and any other mailbox of the domain: no such user, as a receiving server answers.
      const known = box === 'bounce' ? '' : ` (not a simulator address: ${SIMULATOR_MAILBOXES.join(', ')})`;
      return {
        outcome: 'failed',
        reason: `Message not delivered: hard bounce from ${input.to} (Permanent/General): smtp; 550 5.1.1 user unknown${known}; not retried`,
        errorId: 'unexpected_email_error',
        raw: bounce(input, 'General', '5.1.1', 'smtp; 550 5.1.1 user unknown'),
      };
    }
  }
}

// --- sms: after Twilio's test credentials ------------------------------------------------------------

/** Twilio's magic "To" numbers: its error code and the words of its test credentials' table. */
const TWILIO: Record<string, { code: number; what: string; message: (to: string) => string } | null> = {
  '+15005550006': null,
  '+15005550001': { code: 21211, what: 'invalid number', message: (to) => `The 'To' number ${to} is not a valid phone number.` },
  '+15005550002': { code: 21612, what: 'cannot route', message: () => 'Twilio cannot route to this number.' },
  '+15005550003': {
    code: 21408,
    what: 'no international permission',
    message: (to) => `Permission to send an SMS has not been enabled for the region indicated by the 'To' number: ${to}.`,
  },
  '+15005550004': { code: 21610, what: 'blocked', message: () => 'This number is blocked for your account.' },
  '+15005550009': {
    code: 21614,
    what: 'cannot route: not a mobile number',
    message: (to) => `'To' number ${to} is not a valid mobile number: this number is incapable of receiving SMS messages.`,
  },
};

/** `+1 (500) 555-0001` is `+15005550001`. */
const phoneDigits = (phone: string) => phone.replace(/[\s().-]/g, '');

function smsAnswer(input: SimulatorInput): SimulatedAnswer | undefined {
  const to = phoneDigits(input.to);
  const entry = TWILIO[to];
  if (entry === undefined) return undefined;
  const sid = providerMessageId('twilio', input.messageId);
  if (entry === null) {
    return {
      outcome: 'delivered',
      detail: `Message sent: Twilio queued ${sid} to ${to}`,
      raw: { sid, to, status: 'queued', date_created: input.at, error_code: null, error_message: null },
      after: [],
    };
  }
  const message = entry.message(to);
  return {
    outcome: 'failed',
    reason: `Message not delivered: Twilio error ${entry.code} (${entry.what}): ${message} Not retried`,
    errorId: 'unexpected_sms_error',
    raw: { status: 400, body: { code: entry.code, message, more_info: `https://www.twilio.com/docs/errors/${entry.code}`, status: 400 } },
  };
}

// --- push: an unregistered device token --------------------------------------------------------------

function pushAnswer(input: SimulatorInput): SimulatedAnswer | undefined {
  if (input.to !== UNREGISTERED_TOKEN) return undefined;
  if (input.providerId === 'apns') {
    return {
      outcome: 'failed',
      reason: `Message not delivered: APNs answered 410 Unregistered for device token ${input.to}: the token is no longer active for the topic; remove it`,
      errorId: 'unexpected_push_error',
      raw: { status: 410, body: { reason: 'Unregistered', timestamp: Date.parse(input.at) } },
    };
  }
  return {
    outcome: 'failed',
    reason: `Message not delivered: FCM answered 404 UNREGISTERED for device token ${input.to}: the app instance is no longer registered (uninstalled, or the token expired); remove it`,
    errorId: 'unexpected_push_error',
    raw: {
      status: 404,
      body: {
        error: {
          code: 404,
          message: 'Requested entity was not found.',
          status: 'NOT_FOUND',
          details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
        },
      },
    },
  };
}
