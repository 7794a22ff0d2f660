// The runner with the workflow engine's step handlers: every step kind of the spec.
import { bridgeHandler } from './bridge-step.js';
import { registerChannelHandlers } from './channels.js';
import { registerFlowHandlers } from './flow.js';
import { httpRequestHandler } from './http-request.js';
import { StepRegistry } from './types.js';

export function defaultRegistry(): StepRegistry {
  return registerFlowHandlers(registerChannelHandlers(new StepRegistry())).register('http_request', httpRequestHandler).registerExternal(bridgeHandler);
}

export * from './types.js';
