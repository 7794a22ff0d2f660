// The routes of email layouts (`/v2/layouts`): create, list, read, update, delete, duplicate,
// preview and usage. Part of routes.ts's table, kept apart only for its length.
import { route } from './route.js';

export const layoutRoutes = {
  createLayout: route({ name: 'createLayout', method: 'POST', path: '/v2/layouts', summary: 'Create a layout', status: 201, category: 'configuration' }),
  listLayouts: route({ name: 'listLayouts', method: 'GET', path: '/v2/layouts', summary: 'List all layouts', status: 200, category: 'configuration' }),
  getLayout: route({ name: 'getLayout', method: 'GET', path: '/v2/layouts/{layoutId}', summary: 'Retrieve a layout', status: 200, category: 'configuration' }),
  updateLayout: route({
    name: 'updateLayout',
    method: 'PUT',
    path: '/v2/layouts/{layoutId}',
    summary: 'Update a layout',
    status: 200,
    category: 'configuration',
  }),
  deleteLayout: route({
    name: 'deleteLayout',
    method: 'DELETE',
    path: '/v2/layouts/{layoutId}',
    summary: 'Delete a layout',
    status: 204,
    category: 'configuration',
  }),
  duplicateLayout: route({
    name: 'duplicateLayout',
    method: 'POST',
    path: '/v2/layouts/{layoutId}/duplicate',
    summary: 'Duplicate a layout',
    status: 201,
    category: 'configuration',
  }),
  previewLayout: route({
    name: 'previewLayout',
    method: 'POST',
    path: '/v2/layouts/{layoutId}/preview',
    summary: 'Generate layout preview',
    status: 201,
    category: 'configuration',
  }),
  getLayoutUsage: route({
    name: 'getLayoutUsage',
    method: 'GET',
    path: '/v2/layouts/{layoutId}/usage',
    summary: 'Get layout usage',
    status: 200,
    category: 'configuration',
  }),
};
