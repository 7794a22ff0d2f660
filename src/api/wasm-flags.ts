// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: at once with its
// baseline compiler, then again with the optimizing one on background threads; a process that has
// finished waits for that second compilation before it exits (~75-140 ms of idling after the answer is
// printed, up to 250 ms on a busy machine; issue 11). The baseline code is ample for a CLI's answers:
// `events list --all` of 20,000 events takes the same CPU time with it (1.17 s against 1.22 s) and 15 MB
// less memory. Imported first by undici-agent.ts, so the flag is set before undici's modules evaluate.
// Through setV8Flags, so that this process writes no code cache stamped with other flags (code-cache.ts).
import { setV8Flags } from '../core/code-cache.js';

setV8Flags('--liftoff-only');
