// Imported by undici-agent.ts before undici itself. undici parses HTTP with llhttp compiled to
// WebAssembly; V8 compiles it quickly first (Liftoff), then again, optimised, in the background once it
// has run, and the process waits for that second compile before it can exit: after the last output of a
// command that sent several requests, 90 ms idle on a quiet machine and 250 ms on a busy one. Headers are
// a small part of a request's cost here: `events list --all` of 20,000 events takes the same CPU time
// with Liftoff only (1.17 s against 1.22 s) and 15 MB less memory. So the second compile is turned off.
import { setV8Flags } from '../core/code-cache.js';

setV8Flags('--liftoff-only');
