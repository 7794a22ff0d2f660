// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: at once with its
// baseline compiler, then again with the optimizing one on background threads; a process that has
// finished waits for that second compilation before it exits (~75-140 ms of idling after the answer is
// printed, issue 11). The baseline code is ample for a CLI's few answers. Imported first by undici.ts,
// so the flag is set before undici's modules evaluate.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
