// Limits of the API that both the command flags (at start-up, without zod) and the schemas need.

/** Recipients one trigger takes (api-spec.md, operation 13). */
export const MAX_RECIPIENTS = 100;

/** The activity feed's largest page (api-spec.md, operation 14). */
export const EVENTS_MAX_LIMIT = 50;
