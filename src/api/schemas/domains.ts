// Inbound-email domains and their routes (openapi.json DomainsController_*), the delivery reports
// providers post back (InboundWebhooksController_handleWebhook) and an integration's auto-configure
// answer. Metadata (`data`) is string key-value pairs, at most 10 keys and 500 characters in all.
import { z } from 'zod';
import { QueryBool, queryInt } from './common.js';
import { OrderDirection } from './enums.js';

const DOMAIN_STATUSES = ['pending', 'verified'] as const;
const ROUTE_TYPES = ['agent', 'webhook'] as const;

const METADATA_MAX_KEYS = 10;
const METADATA_MAX_CHARS = 500;

/** String metadata within the service's limits (checked as its DTOs check them). */
const DomainMetadata = z
  .record(z.string(), z.string())
  .refine((d) => Object.keys(d).length <= METADATA_MAX_KEYS, { message: `must have at most ${METADATA_MAX_KEYS} keys` })
  .refine((d) => Object.entries(d).reduce((n, [k, v]) => n + k.length + v.length, 0) <= METADATA_MAX_CHARS, {
    message: `keys and values must be at most ${METADATA_MAX_CHARS} characters in total`,
  });

export const ExpectedDnsRecord = z.looseObject({
  type: z.string(),
  name: z.string(),
  content: z.string(),
  ttl: z.string(),
  priority: z.number().optional(),
});
export type ExpectedDnsRecord = z.infer<typeof ExpectedDnsRecord>;

export const Domain = z.looseObject({
  _id: z.string(),
  name: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  mxRecordConfigured: z.boolean(),
  dnsProvider: z.string().optional(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expectedDnsRecords: z.array(ExpectedDnsRecord).optional(),
  data: z.record(z.string(), z.string()).optional(),
});
export type Domain = z.infer<typeof Domain>;

/** A host name: labels of letters, digits and inner dashes, at least two of them. */
const DOMAIN_NAME_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

export const CreateDomainBody = z.looseObject({
  name: z.string().trim().regex(DOMAIN_NAME_RE, 'must be a valid domain name'),
  data: DomainMetadata.optional(),
});
export type CreateDomainBody = z.infer<typeof CreateDomainBody>;

export const UpdateDomainBody = z.looseObject({ data: DomainMetadata.optional() });

const cursorQuery = {
  after: z.string().optional(),
  before: z.string().optional(),
  limit: queryInt({ min: 1, max: 100 }).optional(),
  orderDirection: OrderDirection.optional(),
  orderBy: z.enum(['createdAt', 'updatedAt']).optional(),
  includeCursor: QueryBool.optional(),
};

export const ListDomainsQuery = z.looseObject({ ...cursorQuery, name: z.string().optional() });
export const ListDomainRoutesQuery = z.looseObject({ ...cursorQuery, agentId: z.string().optional() });

export const DomainRoute = z.looseObject({
  _id: z.string(),
  _domainId: z.string(),
  address: z.string(),
  agentId: z.string().optional(),
  type: z.enum(ROUTE_TYPES),
  _environmentId: z.string(),
  _organizationId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  data: z.record(z.string(), z.string()).optional(),
});
export type DomainRoute = z.infer<typeof DomainRoute>;

/** An address's local part, or `*` for the domain's wildcard route. */
const LOCAL_PART_RE = /^(?:\*|[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]{1,64})$/;

export const DomainRouteBody = z.looseObject({
  address: z.string().regex(LOCAL_PART_RE, 'must be the local part of an address, or *'),
  agentId: z.string().optional(),
  type: z.enum(ROUTE_TYPES),
  data: DomainMetadata.optional(),
});
export type DomainRouteBody = z.infer<typeof DomainRouteBody>;

export const UpdateDomainRouteBody = z.looseObject({
  agentId: z.string().optional(),
  type: z.enum(ROUTE_TYPES).optional(),
  data: DomainMetadata.optional(),
});

export const TestDomainRouteBody = z.looseObject({
  from: z.looseObject({ address: z.string().min(1), name: z.string().optional() }),
  subject: z.string(),
  text: z.string().optional(),
  html: z.string().optional(),
  dryRun: z.boolean().optional(),
});
export type TestDomainRouteBody = z.infer<typeof TestDomainRouteBody>;

export const TestDomainRouteResult = z.looseObject({
  matched: z.boolean(),
  dryRun: z.boolean(),
  domainStatus: z.enum(DOMAIN_STATUSES).optional(),
  mxRecordConfigured: z.boolean().optional(),
  type: z.enum(ROUTE_TYPES).optional(),
  wouldDeliverTo: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
  webhook: z.looseObject({ skipped: z.boolean().optional(), latencyMs: z.number() }).optional(),
});

export const DomainConnectStatus = z.looseObject({
  available: z.boolean(),
  providerName: z.string().optional(),
  providerId: z.string().optional(),
  reason: z.string().optional(),
  reasonCode: z
    .enum([
      'disabled',
      'discovery_not_configured',
      'unsupported_provider',
      'incomplete_configuration',
      'provider_settings_unavailable',
      'untrusted_provider_flow',
      'template_not_onboarded',
    ])
    .optional(),
  manualRecords: z.array(ExpectedDnsRecord),
});

export const DomainConnectStartBody = z.looseObject({ redirectUri: z.string().optional() });
export const DomainConnectApplyUrl = z.looseObject({ applyUrl: z.string(), providerName: z.string(), redirectUri: z.string() });

const DIAGNOSTIC_CODES = ['mx_missing', 'mx_wrong_target', 'mx_low_priority', 'apex_cname_collision', 'dnsbl_listed'] as const;
export const DiagnoseDomainResult = z.looseObject({
  ok: z.boolean(),
  runAt: z.string(),
  checks: z.array(z.looseObject({ code: z.enum(DIAGNOSTIC_CODES), status: z.enum(['pass', 'fail', 'skipped']), latencyMs: z.number() })),
  issues: z.array(z.looseObject({ code: z.enum(DIAGNOSTIC_CODES), severity: z.enum(['warn', 'error']), message: z.string(), fix: z.string() })),
});
export type DiagnoseDomainResult = z.infer<typeof DiagnoseDomainResult>;

/** A provider's report as it posts it: SendGrid an array of events, the others one object. */
export const InboundWebhookBody = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

export const WebhookResult = z.looseObject({
  id: z.string(),
  event: z.looseObject({
    status: z.string(),
    date: z.string(),
    externalId: z.string().optional(),
    attempts: z.number().optional(),
    response: z.string().optional(),
    row: z.string().optional(),
  }),
});

export const AutoConfigureResult = z.looseObject({
  success: z.boolean(),
  message: z.string().optional(),
  integration: z.record(z.string(), z.unknown()).optional(),
});
