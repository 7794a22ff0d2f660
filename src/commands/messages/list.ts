// svc messages list [--subscriber] [--channel] [--transaction-id] → GET /v1/messages
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { contextKeys, runList } from '../shared.js';

export interface ListOptions {
  subscriber?: string;
  channel?: string;
  transactionId?: string[];
  context?: string[];
  page?: number;
  limit?: number;
  all?: boolean;
}

export async function run(deps: Deps, opts: ListOptions): Promise<void> {
  const query = {
    subscriberId: opts.subscriber !== undefined ? checkId('--subscriber', opts.subscriber) : undefined,
    channel: opts.channel,
    transactionId: opts.transactionId?.map((t) => checkId('--transaction-id', t)),
    contextKeys: contextKeys('--context', opts.context),
    page: opts.page,
    limit: opts.limit,
  };
  await runList(deps, operations.listMessages, query, { view: 'messages', mode: 'page', all: opts.all, allLimit: 100 });
}
