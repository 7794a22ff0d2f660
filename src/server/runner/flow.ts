// Flow-control steps (delay, digest, throttle, custom, http_request) are the workflow engine's to
// run. Until it plugs its handlers in, such a step says so in its execution details and the workflow
// goes on with its next step, rather than stalling or failing the whole event.
import type { StepType } from '../../api/schemas/enums.js';
import type { StepHandler, StepRegistry } from './types.js';

export const FLOW_STEP_TYPES: StepType[] = ['delay', 'digest', 'throttle', 'custom', 'http_request'];

const passOver = (type: StepType): StepHandler => ({
  run(ctx) {
    ctx.detail({
      status: 'Warning',
      detail: `Step type ${type} is not yet run by the local service; continuing with the next step`,
      source: 'Internal',
    });
    return { status: 'completed' };
  },
});

export function registerFlowPlaceholders(registry: StepRegistry): StepRegistry {
  for (const type of FLOW_STEP_TYPES) registry.register(type, passOver(type));
  return registry;
}
