#!/usr/bin/env node
// The supported Node lines are 22 (from 22.19), 24 and 26. Older ones get one line, not a crash in the store's driver.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: svc needs Node.js 22.19 or later (22, 24 or 26); this is Node.js ${process.versions.node}\n`);
  process.exit(1);
}
import('../dist/main.js').then((m) => m.run(process.argv.slice(2)));
