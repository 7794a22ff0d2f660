// Loaded with `node --import`: records every module file the process loads into the file named by
// SVC_TRACE_LOADS, so a test can tell which packages a command pulled in.
import { register } from 'node:module';
import { appendFileSync } from 'node:fs';

const out = process.env.SVC_TRACE_LOADS;
register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function load(url, context, next) {
        if (url.startsWith('file:')) (await import('node:fs')).appendFileSync(${JSON.stringify(out)}, url + '\\n');
        return next(url, context);
      }`),
  import.meta.url,
);
appendFileSync(out, '');
