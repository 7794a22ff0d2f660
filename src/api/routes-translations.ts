// The routes of translations (openapi.json TranslationController_*): one locale of a workflow's or
// layout's texts, their group, the master JSON of a locale and its file uploads. Part of routes.ts's
// table, kept apart only for its length.
import { route } from './route.js';

export const translationRoutes = {
  createTranslation: route({
    name: 'createTranslation',
    method: 'POST',
    path: '/v2/translations',
    summary: 'Create a translation',
    status: 200,
    category: 'configuration',
  }),
  getTranslation: route({
    name: 'getTranslation',
    method: 'GET',
    path: '/v2/translations/{resourceType}/{resourceId}/{locale}',
    summary: 'Retrieve a translation',
    status: 200,
    category: 'configuration',
  }),
  deleteTranslation: route({
    name: 'deleteTranslation',
    method: 'DELETE',
    path: '/v2/translations/{resourceType}/{resourceId}/{locale}',
    summary: 'Delete a translation',
    status: 204,
    category: 'configuration',
  }),
  deleteTranslationGroup: route({
    name: 'deleteTranslationGroup',
    method: 'DELETE',
    path: '/v2/translations/{resourceType}/{resourceId}',
    summary: 'Delete a translation group',
    status: 204,
    category: 'configuration',
  }),
  getTranslationGroup: route({
    name: 'getTranslationGroup',
    method: 'GET',
    path: '/v2/translations/group/{resourceType}/{resourceId}',
    summary: 'Retrieve a translation group',
    status: 200,
    category: 'configuration',
  }),
  getMasterJson: route({
    name: 'getMasterJson',
    method: 'GET',
    path: '/v2/translations/master-json',
    summary: 'Retrieve master translations JSON',
    status: 200,
    category: 'configuration',
  }),
  importMasterJson: route({
    name: 'importMasterJson',
    method: 'POST',
    path: '/v2/translations/master-json',
    summary: 'Import master translations JSON',
    status: 200,
    category: 'configuration',
  }),
  uploadMasterJson: route({
    name: 'uploadMasterJson',
    method: 'POST',
    path: '/v2/translations/master-json/upload',
    summary: 'Upload master translations JSON file',
    status: 200,
    category: 'configuration',
  }),
  uploadTranslationFiles: route({
    name: 'uploadTranslationFiles',
    method: 'POST',
    path: '/v2/translations/upload',
    summary: 'Upload translation files',
    status: 200,
    category: 'configuration',
  }),
};

/** The routes whose body is a multipart form of files (the app's multipart parser lets only these in). */
export const MULTIPART_ROUTES = ['uploadMasterJson', 'uploadTranslationFiles'] as const;
