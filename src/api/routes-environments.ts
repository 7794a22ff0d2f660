// The organisation's environments (openapi.json EnvironmentsControllerV1_*): their rows of the
// operation table, which routes.ts spreads into its own (and checks there as Routes).

export const environmentRoutes = {
  listEnvironments: {
    name: 'listEnvironments',
    method: 'GET',
    path: '/v1/environments',
    summary: 'List all environments',
    status: 200,
    category: 'global',
  },
  createEnvironment: {
    name: 'createEnvironment',
    method: 'POST',
    path: '/v1/environments',
    summary: 'Create an environment',
    status: 201,
    category: 'global',
  },
  updateEnvironment: {
    name: 'updateEnvironment',
    method: 'PUT',
    path: '/v1/environments/{environmentId}',
    summary: 'Update an environment',
    status: 200,
    category: 'global',
  },
  deleteEnvironment: {
    name: 'deleteEnvironment',
    method: 'DELETE',
    path: '/v1/environments/{environmentId}',
    summary: 'Delete an environment',
    status: 200,
    category: 'global',
  },
} as const;
