// The runner with the step handlers this version of the local service has. The workflow engine
// registers its own handlers over the flow-control placeholders (StepRegistry.register replaces).
import { registerChannelHandlers } from './channels.js';
import { registerFlowPlaceholders } from './flow.js';
import { StepRegistry } from './types.js';

export function defaultRegistry(): StepRegistry {
  return registerChannelHandlers(registerFlowPlaceholders(new StepRegistry()));
}

export { JobRunner, type RunnerOptions } from './runner.js';
export { queueJob } from './queue.js';
export * from './types.js';
