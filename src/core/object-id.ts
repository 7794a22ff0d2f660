// Database ids are 24 hexadecimal characters (ground truth, "Response envelopes"). The one copy of the
// pattern: the command checks, the table renderer (ids are never shortened) and the zod schemas use it.
export const OBJECT_ID_RE = /^[0-9a-fA-F]{24}$/;
