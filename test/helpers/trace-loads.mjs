// Loaded with `node --import`: records every module file the process loads into the file named by
// SVC_TRACE_LOADS, so a test can tell which packages a command pulled in: one URL a line, whose fragment
// says how it loaded: `#module` (an ES module), `#commonjs` (require), `#script` (run through node:vm,
// as dist/main.cjs runs the hot path and the chunks that are scripts).
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const out = process.env.SVC_TRACE_LOADS;
register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function load(url, context, next) {
        if (url.startsWith('file:')) (await import('node:fs')).appendFileSync(${JSON.stringify(out)}, url + '#module\\n');
        return next(url, context);
      }`),
  import.meta.url,
);
const { Script } = vm;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (options?.filename && isAbsolute(options.filename)) appendFileSync(out, `${pathToFileURL(options.filename).href}#script\n`);
  }
};
const { _compile } = Module.prototype;
Module.prototype._compile = function (content, filename, ...rest) {
  if (isAbsolute(filename)) appendFileSync(out, `${pathToFileURL(filename).href}#commonjs\n`);
  return _compile.call(this, content, filename, ...rest);
};
appendFileSync(out, '');
