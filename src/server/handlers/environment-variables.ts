// The organisation's environment variables (/v1/environment-variables): one key per organisation and
// a value per environment, read by templates as `{{env.KEY}}`. As the service does: a secret's value
// reads as the mask (and the mask is refused as a value), PATCH merges values by environment, and
// usage names the workflows whose step controls mention `env.KEY`. An API key reads and writes the
// values of its own environment and of those created from it (as PUT /v1/environments/{id} allows);
// another environment's value is refused with the service's 403, and never shown.
import { badRequest, conflict, HttpError, notFound } from '../errors.js';
import type { StoredVariable, VariableValue } from '../store/environment-variables.js';
import type { Environment, Store } from '../store/index.js';
import type { Route } from './types.js';

/** What a secret's value reads as (and what may never be stored as one). */
const SECRET_MASK = '••••••••';

/** An environment of the caller's organisation: its own or one created from it, else 403 (404 outside the organisation). */
export function reachableEnvironment(store: Store, caller: Environment, id: string, what = 'Environment'): Environment {
  const target = store.environments.findById(id);
  if (!target || target.orgId !== caller.orgId) throw notFound(`${what} ${id} not found`);
  if (!canReach(caller, target)) {
    throw new HttpError(
      403,
      'This authentication scheme is scoped to a single environment and cannot access a different environment. Use credentials from the target environment, or authenticate with a session token.',
    );
  }
  return target;
}

const canReach = (caller: Environment, target: Environment) => target.id === caller.id || target.parentId === caller.id;

function view(store: Store, caller: Environment, v: StoredVariable) {
  const shown = v.values.filter((x) => {
    const e = store.environments.findById(x._environmentId);
    return e !== undefined && canReach(caller, e);
  });
  return {
    _id: v._id,
    _organizationId: v._organizationId,
    key: v.key,
    type: v.type,
    isSecret: v.isSecret,
    values: shown.map((x) => ({ _environmentId: x._environmentId, value: v.isSecret ? SECRET_MASK : x.value })),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

function checkedValues(store: Store, caller: Environment, values: VariableValue[] | undefined, keepHint: string): VariableValue[] | undefined {
  if (values === undefined) return undefined;
  if (values.some((v) => v.value === SECRET_MASK)) {
    throw badRequest(`Submitted value matches the secret mask placeholder; provide the real value or omit the entry${keepHint}.`);
  }
  for (const v of values) reachableEnvironment(store, caller, v._environmentId);
  // One value per environment: the last one given wins.
  return [...new Map(values.map((v) => [v._environmentId, { _environmentId: v._environmentId, value: v.value }])).values()];
}

function existing(store: Store, caller: Environment, key: string): StoredVariable {
  const v = store.environmentVariables.find(caller.orgId, key);
  if (!v) throw notFound(`Environment variable with key "${key}" not found`);
  return v;
}

export const listEnvironmentVariables: Route<'listEnvironmentVariables'> = {
  envelope: 'data',
  handle: ({ svc, env, query }) => svc.store.environmentVariables.list(env.orgId, query.search).map((v) => view(svc.store, env, v)),
};

export const getEnvironmentVariable: Route<'getEnvironmentVariable'> = {
  envelope: 'data',
  handle: ({ svc, env, params }) => view(svc.store, env, existing(svc.store, env, params.variableKey!)),
};

export const createEnvironmentVariable: Route<'createEnvironmentVariable'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const { store } = svc;
    return store.tx(() => {
      if (store.environmentVariables.find(env.orgId, body.key)) throw conflict(`Environment variable with key "${body.key}" already exists`);
      const values = checkedValues(store, env, body.values, '');
      return view(store, env, store.environmentVariables.create(env.orgId, { key: body.key, type: body.type, isSecret: body.isSecret, values }));
    });
  },
};

export const updateEnvironmentVariable: Route<'updateEnvironmentVariable'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const stored = existing(store, env, params.variableKey!);
      const given = checkedValues(store, env, body.values, ' to keep the existing one');
      if (body.key === undefined && body.type === undefined && body.isSecret === undefined && given === undefined) {
        throw badRequest('At least one field must be provided to update');
      }
      if (body.key !== undefined && body.key !== stored.key && store.environmentVariables.find(env.orgId, body.key)) {
        throw conflict(`Environment variable with key "${body.key}" already exists`);
      }
      // PATCH merges by environment: the environments not named keep their values.
      const values = given && [...stored.values.filter((v) => !given.some((g) => g._environmentId === v._environmentId)), ...given];
      return view(store, env, store.environmentVariables.update(stored, { key: body.key, type: body.type, isSecret: body.isSecret, values }));
    });
  },
};

export const deleteEnvironmentVariable: Route<'deleteEnvironmentVariable'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    const { store } = svc;
    store.tx(() => {
      const stored = existing(store, env, params.variableKey!);
      // A value another environment renders is that environment's to remove.
      for (const v of stored.values) if (store.environments.findById(v._environmentId)) reachableEnvironment(store, env, v._environmentId);
      store.environmentVariables.remove(stored._id);
    });
  },
};

/** `env.KEY` as a whole name (not `env.KEY_2`), in Liquid (`{{env.KEY}}`) or in a block editor's JSON (`"id":"env.KEY"`). */
function mentions(key: string): RegExp {
  return new RegExp(`(^|[^\\w$])env\\.${key}(?![\\w$])`);
}

export const getEnvironmentVariableUsage: Route<'getEnvironmentVariableUsage'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const { store } = svc;
    const variable = existing(store, env, params.variableKey!);
    const pattern = mentions(variable.key);
    const workflows = new Map<string, { name: string; workflowId: string }>();
    for (const e of store.environments.ofOrganization(env.orgId).filter((x) => canReach(env, x))) {
      for (const wf of store.workflows.all(e.id)) {
        if (wf.steps.some((s) => pattern.test(JSON.stringify(s.controlValues)))) workflows.set(wf.workflowId, { name: wf.name, workflowId: wf.workflowId });
      }
    }
    return { workflows: [...workflows.values()] };
  },
};
