#!/usr/bin/env node
import('../dist/main.js').then((m) => m.run(process.argv.slice(2)));
