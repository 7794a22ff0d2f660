// Unused files and exports (`npm run knip`). The entries are what runs: the binary (package.json's
// `bin`, which knip reads itself, as it reads vitest.config.ts through its vitest plugin) and its main, the
// command files the CLI loads lazily (src/cli.ts's `import('./commands/…')`, read from it, since
// knip cannot see that their `command`/`run` are used), the console's page, svc dev's module, the
// loader of the hot path (scripts/build.mjs bundles it into dist/main.cjs from a string), the scripts,
// benches and tests. examples/ are packages of their own.
import { readFileSync } from 'node:fs';

const commandFiles = [...readFileSync(new URL('./src/cli.ts', import.meta.url), 'utf8').matchAll(/import\('\.\/(commands\/[^']+)\.js'\)/g)].map(
  (m) => `src/${m[1]}.ts`,
);

export default {
  entry: [
    'src/main.ts',
    'src/script-cache.ts',
    ...commandFiles,
    'src/console/main.ts',
    'src/server/index.ts',
    'src/testing/index.ts',
    'scripts/*.mjs',
    'bench/*.mjs',
    'bench/lib/*.mjs',
    'test/**/*.{ts,mjs}',
  ],
  project: ['bin/**/*.js', 'src/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.mjs', 'test/**/*.{ts,mjs}'],
  ignore: ['examples/**'],
  // `node` is the project's own Node binary; @novu/react and react-dom are bundled by esbuild from the
  // page source test/helpers/inbox-page.ts writes; unshare is the system's (bridge-guard.test.ts).
  ignoreDependencies: ['node', '@novu/react', 'react-dom'],
  ignoreBinaries: ['unshare'],
};
