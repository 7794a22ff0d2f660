// Loaded with `node --require`: counts the functions the process compiles from strings (`new Function`)
// and writes the count to the file named by SVC_COUNT_EVAL after each one, so a test can read how many a
// start compiled while the process still runs.
'use strict';
const { writeFileSync } = require('node:fs');

const out = process.env.SVC_COUNT_EVAL;
const Original = Function;
let count = 0;
writeFileSync(out, '0');
globalThis.Function = new Proxy(Original, {
  construct(target, args, newTarget) {
    writeFileSync(out, String(++count));
    return Reflect.construct(target, args, newTarget === globalThis.Function ? target : newTarget);
  },
  apply(target, self, args) {
    writeFileSync(out, String(++count));
    return Reflect.apply(target, self, args);
  },
});
