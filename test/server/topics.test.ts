// Topic subscriptions: each has its own id, not its subscriber's.
import { afterAll, describe, expect, it } from 'vitest';
import { OBJECT_ID_RE } from '../../src/api/schemas/common.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

const subscribe = (topic: string, ids: string[]) => svc.request('POST', `/v2/topics/${topic}/subscriptions`, { body: { subscriberIds: ids } });

describe('topic subscriptions', () => {
  it("a subscription's _id is its own: stable for the pair, another for another topic; subscriber._id stays the subscriber's", async () => {
    await svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'sub-topics', firstName: 'T' } });
    const subscriber = (await svc.request('GET', '/v2/subscribers/sub-topics')).body.data;
    const team = await subscribe('team', ['sub-topics']);
    expect(team.status).toBe(201);
    const [inTeam] = team.body.data;
    expect(inTeam._id).toMatch(OBJECT_ID_RE);
    expect(inTeam._id).not.toBe(subscriber._id);
    expect(inTeam.subscriber._id).toBe(subscriber._id);
    const [inOps] = (await subscribe('ops', ['sub-topics'])).body.data;
    expect(inOps._id).toMatch(OBJECT_ID_RE);
    expect(inOps._id).not.toBe(inTeam._id);
    expect(inOps.subscriber._id).toBe(subscriber._id);
    // The same subscription read again (subscribe again, list) has the same id.
    expect((await subscribe('team', ['sub-topics'])).body.data[0]._id).toBe(inTeam._id);
    const listed = await svc.request('GET', '/v2/topics/team/subscriptions');
    expect(listed.body.data.find((s: { identifier: string }) => s.identifier === 'tk=team:si=sub-topics')._id).toBe(inTeam._id);
    // Two subscribers of one topic: two ids.
    await svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'sub-topics-2' } });
    const [other] = (await subscribe('team', ['sub-topics-2'])).body.data;
    expect(other._id).not.toBe(inTeam._id);
  });
});
