// A channel message whose destination is one of the simulator's (src/server/simulator.ts): the
// simulator answers in place of the provider, and this is what its answers mean for the job. An
// answer that asks to be tried again (429) is tried again with the providers' retry policy (the
// webhook providers' attempts and backoff, in wall-clock time, so a manual or scaled service clock
// changes nothing); a refusal fails the step at once, with the provider's answer as the detail's raw.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from '../../api/schemas/resources.js';
import type { ChannelKind } from '../engine/index.js';
import { isSimulated, simulatorAnswer, type SimulatedAnswer, type SimulatedChannel } from '../simulator.js';
import type { DetailInput } from '../store/jobs.js';
import type { StepResult } from './types.js';
import { PROVIDER_RETRY } from './webhook.js';

export interface SimulatedTarget {
  channel: SimulatedChannel;
  /** Every destination of the message (a push message's device tokens), simulated or not. */
  to: string[];
  providerId: string;
  messageId: string;
}

/** Each destination's answers, one per attempt; undefined for a destination the simulator leaves alone. */
export interface SimulatedSend {
  simulated: true;
  answers: (SimulatedAnswer[] | undefined)[];
}

/** The message's simulated target when one of its destinations is the simulator's. */
export function simulatedTarget(kind: ChannelKind, fields: Partial<Message>, providerId: string, messageId: string): SimulatedTarget | undefined {
  if (kind !== 'email' && kind !== 'sms' && kind !== 'push') return undefined;
  const to = (kind === 'email' ? [fields.email] : kind === 'sms' ? [fields.phone] : (fields.deviceTokens ?? [])).filter(
    (t): t is string => typeof t === 'string',
  );
  return to.some((t) => isSimulated(kind, t)) ? { channel: kind, to, providerId, messageId } : undefined;
}

const answer = (t: SimulatedTarget, to: string, attempt: number, at: string) =>
  simulatorAnswer({ channel: t.channel, to, providerId: t.providerId, attempt, messageId: t.messageId, at });

/** Whether a first answer asks to be tried again: then the sending waits between attempts, in a slot. */
export function needsRetries(t: SimulatedTarget, at: string): boolean {
  return t.to.some((to) => answer(t, to, 1, at)?.outcome === 'retry');
}

/** Every destination's answers, tried again while they ask to be and attempts remain. `at`: service time of each attempt. */
export async function sendSimulated(t: SimulatedTarget, at: () => string): Promise<SimulatedSend> {
  const answers: (SimulatedAnswer[] | undefined)[] = [];
  for (const to of t.to) {
    let tries: SimulatedAnswer[] | undefined;
    for (let n = 1; n <= PROVIDER_RETRY.retries + 1; n++) {
      const a = answer(t, to, n, at());
      if (a === undefined) break;
      (tries ??= []).push(a);
      if (a.outcome !== 'retry' || n > PROVIDER_RETRY.retries) break;
      await sleep(PROVIDER_RETRY.backoffMs(n));
    }
    answers.push(tries);
  }
  return { simulated: true, answers };
}

/** The answers at once, for a message none of whose answers asks to be tried again. */
export function simulateAtOnce(t: SimulatedTarget, at: string): SimulatedSend {
  return {
    simulated: true,
    answers: t.to.map((to) => {
      const a = answer(t, to, 1, at);
      return a && [a];
    }),
  };
}

export const isSimulatedSend = (v: unknown): v is SimulatedSend => (v as SimulatedSend | undefined)?.simulated === true;

/** What the answers mean: the details to add, the message's status and the step's result. */
interface SimulatedVerdict {
  details: DetailInput[];
  message: { status: Message['status']; errorText?: string; errorId?: string };
  result: StepResult;
}

export function simulatedVerdict(t: SimulatedTarget, sent: SimulatedSend): SimulatedVerdict {
  const details: DetailInput[] = [];
  const failures: { reason: string; errorId: string; raw: string }[] = [];
  const providerId = t.providerId;
  let delivered = 0;
  for (const tries of sent.answers) {
    if (!tries) {
      delivered++;
      continue;
    }
    const total = PROVIDER_RETRY.retries + 1;
    tries.forEach((a, n) => {
      if (a.outcome !== 'retry') return;
      const again = n + 1 < tries.length ? `; tried again after ${PROVIDER_RETRY.backoffMs(n + 1)} ms` : '';
      details.push({ status: 'Warning', detail: `${a.reason} (attempt ${n + 1} of ${total}${again})`, providerId, raw: JSON.stringify(a.raw) });
    });
    const last = tries[tries.length - 1]!;
    if (last.outcome === 'delivered') {
      delivered++;
      details.push({ status: 'Success', detail: last.detail, providerId, raw: JSON.stringify(last.raw) });
      for (const after of last.after) details.push({ status: after.status, detail: after.detail, providerId, raw: JSON.stringify(after.raw) });
    } else if (last.outcome === 'failed') {
      failures.push({ reason: last.reason, errorId: last.errorId, raw: JSON.stringify(last.raw) });
    } else {
      failures.push({
        reason: `${last.reason} (gave up after ${tries.length} attempts)`,
        errorId: `unexpected_${t.channel}_error`,
        raw: JSON.stringify(last.raw),
      });
    }
  }
  const first = failures[0];
  if (first === undefined) return { details, message: { status: 'sent' }, result: { status: 'completed' } };
  if (delivered === 0) {
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more destination${failures.length > 2 ? 's' : ''})` : '';
    return {
      details,
      message: { status: 'error', errorText: first.reason, errorId: first.errorId },
      result: { status: 'failed', error: `${first.reason}${more}`, source: 'Internal', raw: first.raw },
    };
  }
  // Some device tokens took it: the step is sent, and each refusal is a warning on its timeline.
  for (const f of failures) details.push({ status: 'Warning', detail: f.reason, providerId, raw: f.raw });
  details.push({ status: 'Success', detail: `Message sent to ${delivered} of ${t.to.length} destinations`, providerId });
  return { details, message: { status: 'sent' }, result: { status: 'completed' } };
}
