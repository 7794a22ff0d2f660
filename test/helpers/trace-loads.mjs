// Loaded with `node --import`: records every module file the process loads into the file named by
// SVC_TRACE_LOADS, so a test can tell which packages a command pulled in. A file run as a script
// through node:vm (dist/hot-path.js, which dist/main.js runs) is recorded too.
import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

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
const { Script } = vm;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (options?.filename && isAbsolute(options.filename)) appendFileSync(out, `${pathToFileURL(options.filename).href}\n`);
  }
};
appendFileSync(out, '');
