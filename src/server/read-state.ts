// What reading or seeing an in-app message changes beyond the message itself, whichever door it came
// through (the operator's mark-as or the Inbox's routes): later steps of the workflow read the in-app
// step's state as `steps.<id>.read` and `.seen`, and the activity feed shows a read or a view as a
// ReadConfirmation detail of the message's job ("did ada read it?" is answered in the timeline).
import type { Store } from './store/index.js';
import type { MessageRecord } from './store/messages.js';

type ReadStateChange = 'read' | 'seen' | 'unread' | 'unseen';

export function recordReadState(store: Store, changed: readonly MessageRecord[], change: ReadStateChange): void {
  for (const m of changed) {
    if (m.doc.channel !== 'in_app') continue;
    const { read, seen, lastReadDate, lastSeenDate } = m.doc;
    store.jobs.setOutput(m.jobId, { read, seen, lastReadDate: lastReadDate ?? null, lastSeenDate: lastSeenDate ?? null });
  }
  if (change !== 'read' && change !== 'seen') return;
  for (const m of changed) {
    store.jobs.addDetail(
      { id: m.jobId, notificationId: m.doc._notificationId },
      { status: 'ReadConfirmation', detail: change === 'read' ? 'Message read' : 'Message seen', source: 'Internal' },
    );
  }
}
