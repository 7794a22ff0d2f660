// Packages the engine needs only for some work, loaded when it first does it: liquidjs to render or
// check a template, cron-parser for a schedule, ajv for a payload schema. A service that has rendered
// nothing has loaded no template engine. The engine's functions are synchronous, so these are taken
// with require() from the installed packages (the bundle keeps no copy of them).
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
let liquid: typeof import('liquidjs') | undefined;
let cron: typeof import('cron-parser') | undefined;
let ajv: typeof import('ajv') | undefined;

export const liquidjs = (): typeof import('liquidjs') => (liquid ??= load('liquidjs') as typeof import('liquidjs'));
export const cronParser = (): typeof import('cron-parser') => (cron ??= load('cron-parser') as typeof import('cron-parser'));
export const ajvPackage = (): typeof import('ajv') => (ajv ??= load('ajv') as typeof import('ajv'));
