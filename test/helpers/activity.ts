// The activity feed as a stub serves it to `trigger --wait` and `events watch`: jobs with one execution
// detail, the event (notification) of a subscriber, and a page of the feed.

/** A job of `type` in `status`, with one execution detail saying `detail`. */
export const job = (type: string, status: string, detail: string) => ({
  _id: `j-${type}`,
  type,
  status,
  providerId: type === 'email' ? 'sendgrid' : 'svc',
  step: { _id: 's', active: true, filters: [], _templateId: 't' },
  executionDetails: [{ _id: 'd', status: status === 'failed' ? 'Failed' : 'Success', detail, isRetry: false, isTest: false, source: 'Internal' }],
});

/** The event of subscriber `sub` (its id derived from `sub`) in transaction txn-w, with its jobs. */
export const notification = (sub: string, jobs: unknown[]) => ({
  _id: `6761f0c2a3b4c5d6e7f8${sub.padStart(4, '0')}`,
  transactionId: 'txn-w',
  _environmentId: 'e',
  _organizationId: 'o',
  _subscriberId: sub,
  subscriber: { _id: sub, subscriberId: sub },
  jobs,
});

/** A stub's answer: one page of the feed, the last. */
export const page = (data: unknown[]) => ({ body: { data, hasMore: false, page: 0, pageSize: 50 } });
