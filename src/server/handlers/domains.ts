// Inbound-email domains and their routes, stored, listed, changed and deleted as the service does.
// What needs the network is not done and the answers say so in the service's own shapes: svc dev
// looks up no DNS (a domain stays pending, its MX record unconfigured; diagnose lists the record to
// add, its checks skipped), discovers no DNS provider (auto-configure is unavailable), receives no
// mail, and has no outbound webhooks or agents for a route to deliver to (a webhook route's test
// builds the payload and reports the webhook skipped; agent routes are refused).
import type { Domain, DomainRoute, ExpectedDnsRecord } from '../../api/schemas/domains.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { isoAt } from '../store/repo.js';
import type { Call, Route } from './types.js';

/** Where a domain's MX record would point: svc dev receives no mail, so a name reserved for tests. */
const INBOUND_MX_HOST = 'inbound.svc.test';

const DIAGNOSTIC_CODES = ['mx_missing', 'mx_wrong_target', 'mx_low_priority', 'apex_cname_collision', 'dnsbl_listed'] as const;

const expectedRecords = (name: string): ExpectedDnsRecord[] => [{ type: 'MX', name, content: INBOUND_MX_HOST, ttl: 'Auto', priority: 10 }];

const NO_AGENTS = 'svc dev runs no agents: a route of type agent is not supported (use type webhook)';

/** What finding a domain or route reads of a call. */
type Where = Pick<Call<'getDomain'>, 'svc' | 'env' | 'params'>;

function domainOf(call: Where): Domain {
  const name = call.params.domain!;
  const d = call.svc.store.domains.find(call.env.id, name);
  if (!d) throw notFound(`Domain ${name} not found`);
  return d;
}

function routeOf(call: Where): { domain: Domain; route: DomainRoute } {
  const domain = domainOf(call);
  const address = call.params.address!;
  const route = call.svc.store.domains.route(domain._id, address);
  if (!route) throw notFound(`Route ${address} not found on domain ${domain.name}`);
  return { domain, route };
}

const cursor = (q: {
  after?: string | undefined;
  before?: string | undefined;
  limit?: number | undefined;
  orderDirection?: 'ASC' | 'DESC' | undefined;
  orderBy?: string | undefined;
  includeCursor?: boolean | undefined;
}) => {
  if (q.after !== undefined && q.before !== undefined) throw badRequest("Cannot use both 'after' and 'before' cursors at the same time");
  return { ...q, orderBy: q.orderBy ?? 'createdAt', orderDirection: q.orderDirection ?? ('DESC' as const), limit: q.limit ?? 10 };
};

export const listDomains: Route<'listDomains'> = {
  envelope: 'raw',
  handle: ({ svc, env, query }) => svc.store.domains.list(env.id, cursor(query)),
};

export const createDomain: Route<'createDomain'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const name = body.name.toLowerCase();
    return svc.store.tx(() => {
      if (svc.store.domains.taken(name)) throw conflict(`Domain ${name} already exists`);
      return svc.store.domains.create(env, {
        name,
        status: 'pending',
        mxRecordConfigured: false,
        expectedDnsRecords: expectedRecords(name),
        ...(body.data !== undefined && { data: body.data }),
      });
    });
  },
};

export const getDomain: Route<'getDomain'> = { envelope: 'data', handle: (call) => domainOf(call) };

export const updateDomain: Route<'updateDomain'> = {
  envelope: 'data',
  handle: (call) =>
    call.svc.store.tx(() => {
      const d = domainOf(call);
      return call.body.data === undefined ? d : call.svc.store.domains.save({ ...d, data: call.body.data });
    }),
};

export const deleteDomain: Route<'deleteDomain'> = {
  envelope: 'none',
  handle: (call) => call.svc.store.tx(() => call.svc.store.domains.remove(domainOf(call))),
};

/** svc dev looks up no DNS: the status stays as it is (pending), the MX record unconfigured. */
export const verifyDomain: Route<'verifyDomain'> = { envelope: 'data', handle: (call) => domainOf(call) };

export const getDomainAutoConfigure: Route<'getDomainAutoConfigure'> = {
  envelope: 'data',
  handle(call) {
    const d = domainOf(call);
    return {
      available: false,
      reasonCode: 'discovery_not_configured' as const,
      reason: `svc dev runs offline and discovers no DNS provider for ${d.name}: add the records of manualRecords at your DNS provider`,
      manualRecords: d.expectedDnsRecords ?? expectedRecords(d.name),
    };
  },
};

export const startDomainAutoConfigure: Route<'startDomainAutoConfigure'> = {
  envelope: 'data',
  handle(call) {
    const d = domainOf(call);
    throw badRequest(
      `DNS auto-configuration is not available for ${d.name}: svc dev runs offline and discovers no DNS provider (GET /v1/domains/${d.name}/auto-configure lists the records to add)`,
    );
  },
};

export const diagnoseDomain: Route<'diagnoseDomain'> = {
  envelope: 'data',
  handle(call) {
    const d = domainOf(call);
    return {
      ok: false,
      runAt: isoAt(call.svc.clock.now()),
      checks: DIAGNOSTIC_CODES.map((code) => ({ code, status: 'skipped' as const, latencyMs: 0 })),
      issues: [
        {
          code: 'mx_missing' as const,
          severity: 'error' as const,
          message: `The MX record of ${d.name} was not checked: svc dev runs offline and looks up no DNS`,
          fix: `Add an MX record for ${d.name} pointing to ${INBOUND_MX_HOST} with priority 10 at your DNS provider`,
        },
      ],
    };
  },
};

export const listDomainRoutes: Route<'listDomainRoutes'> = {
  envelope: 'raw',
  handle(call) {
    const d = domainOf(call);
    return call.svc.store.domains.listRoutes(d._id, cursor(call.query));
  },
};

export const createDomainRoute: Route<'createDomainRoute'> = {
  envelope: 'data',
  handle(call) {
    const { body, svc } = call;
    if (body.type === 'agent') throw badRequest(NO_AGENTS);
    return svc.store.tx(() => {
      const d = domainOf(call);
      if (svc.store.domains.route(d._id, body.address)) throw conflict(`Route ${body.address} already exists on domain ${d.name}`);
      return svc.store.domains.createRoute(d, { address: body.address, type: body.type, ...(body.data !== undefined && { data: body.data }) });
    });
  },
};

export const getDomainRoute: Route<'getDomainRoute'> = { envelope: 'data', handle: (call) => routeOf(call).route };

export const updateDomainRoute: Route<'updateDomainRoute'> = {
  envelope: 'data',
  handle(call) {
    if (call.body.type === 'agent') throw badRequest(NO_AGENTS);
    return call.svc.store.tx(() => {
      const { route } = routeOf(call);
      if (call.body.data === undefined && call.body.type === undefined) return route;
      return call.svc.store.domains.saveRoute({
        ...route,
        ...(call.body.type !== undefined && { type: call.body.type }),
        ...(call.body.data !== undefined && { data: call.body.data }),
      });
    });
  },
};

export const deleteDomainRoute: Route<'deleteDomainRoute'> = {
  envelope: 'none',
  handle: (call) =>
    call.svc.store.tx(() => {
      call.svc.store.domains.removeRoute(routeOf(call).route);
    }),
};

/**
 * A synthetic email to `<address>@<domain>` through routing: the address's route, else the domain's
 * wildcard `*`. A webhook route's mail goes to the environment's outbound webhooks, which svc dev
 * does not have: the payload is built, and the webhook is reported skipped, as the service reports
 * it for an environment with outbound webhooks disabled.
 */
export const testDomainRoute: Route<'testDomainRoute'> = {
  envelope: 'data',
  handle(call) {
    const d = domainOf(call);
    const address = call.params.address!;
    const route = call.svc.store.domains.route(d._id, address) ?? call.svc.store.domains.route(d._id, '*');
    const dryRun = call.body.dryRun === true;
    const base = { dryRun, domainStatus: d.status, mxRecordConfigured: d.mxRecordConfigured };
    if (!route) return { matched: false, ...base };
    const { from, subject, text, html } = call.body;
    const payload = {
      object: {
        domain: d.name,
        route: { address: route.address },
        from: [from],
        to: [{ address: `${address}@${d.name}` }],
        subject,
        ...(text !== undefined && { text }),
        ...(html !== undefined && { html }),
        receivedAt: isoAt(call.svc.clock.now()),
        test: true,
      },
    };
    if (dryRun) return { matched: true, ...base, type: route.type, wouldDeliverTo: `outbound webhooks of environment ${call.env.name}`, payload };
    return { matched: true, ...base, type: route.type, webhook: { skipped: true, latencyMs: 0 } };
  },
};
