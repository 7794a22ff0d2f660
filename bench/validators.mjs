// What the build-time validators (src/api/shape-compile.ts) cost and save per answer: each answer below
// checked by its compiled validator and by zod's safeParse of the same schema (the one source of truth,
// which zod alone would otherwise check), in the same process, alternately. Start-up: a command whose
// answer passes loads no zod with them; for that cost, build a copy without them (scripts/build.mjs
// with shape-validators.ts left as it is) and run `SVC_BENCH_BEFORE=<that copy> node bench/startup.mjs`.
//   node bench/validators.mjs [rounds]
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const rounds = Number(process.argv[2] ?? 2000);
const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the project, so that the generated modules find its packages.
const dir = mkdtempSync(join(root, 'node_modules', '.svc-bench-validators-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
await build({
  stdin: {
    contents: "export { compileShapes } from './src/api/shape-compile.ts'; export { operations } from './src/api/operations.ts';",
    resolveDir: root,
    loader: 'ts',
  },
  outfile: join(dir, 'gen.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  logLevel: 'warning',
});
const { compileShapes, operations } = await import(pathToFileURL(join(dir, 'gen.mjs')).href);
const compiled = compileShapes(operations);
async function validator(key) {
  const file = join(dir, `${key.replace(':', '_')}.mjs`);
  await build({
    stdin: { contents: compiled.modules[key], resolveDir: root, loader: 'js' },
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  return (await import(pathToFileURL(file).href)).validate;
}

const event = JSON.parse(readFileSync(new URL('./lib/event-fixture.json', import.meta.url), 'utf8')).data;
const integration = {
  _id: '6761f0c2a3b4c5d6e7f80912',
  _environmentId: 'e',
  _organizationId: 'o',
  name: 'Mail',
  identifier: 'mail',
  providerId: 'sendgrid',
  channel: 'email',
  active: true,
  deleted: false,
  primary: true,
};
const answers = [
  ['listActiveIntegrations', '5 integrations', Array.from({ length: 5 }, () => integration)],
  ['getEvent', 'one event (bench/lib/event-fixture.json)', event],
  [
    'listEvents',
    'a page of 100 events',
    { data: Array.from({ length: 100 }, (_, i) => ({ ...event, _id: `${i}`.padStart(24, 'a') })), hasMore: true, pageSize: 100, page: 0 },
  ],
];

console.log(`node ${process.version}; median of ${rounds} checks each way, alternately\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, what, answer] of answers) {
  const validate = await validator(`response:${name}`);
  const schema = operations[name].response;
  if (!validate(answer) || !schema.safeParse(answer).success) throw new Error(`${name}: the sample answer does not pass`);
  const compiledUs = [];
  const zodUs = [];
  for (let i = 0; i < rounds; i++) {
    let t = process.hrtime.bigint();
    validate(answer);
    compiledUs.push(Number(process.hrtime.bigint() - t) / 1e3);
    t = process.hrtime.bigint();
    schema.safeParse(answer);
    zodUs.push(Number(process.hrtime.bigint() - t) / 1e3);
  }
  const c = median(compiledUs);
  const z = median(zodUs);
  console.log(
    `${name.padEnd(24)} ${what.padEnd(42)} compiled ${c.toFixed(1).padStart(7)} µs   zod ${z.toFixed(1).padStart(8)} µs   (${(z / c).toFixed(1)}× as long)`,
  );
}
console.log(`\n${Object.keys(compiled.modules).length} compiled validators; left to zod: ${Object.keys(compiled.skipped).length}`);
