// Byte sizes as a person reads them, and the largest request body the service reads: core's input
// reader refuses a larger value before reading it, and the API layer's body limits (api/limits.ts)
// start from the same figure.

const MiB = 1024 * 1024;

/**
 * The largest request body the service reads: its API parses JSON bodies with a 26 MiB limit on the
 * routes that carry payloads and workflow definitions (triggers, workflows, bridge sync) and with the
 * body parser's default, 100 KiB, everywhere else. Larger bodies are answered 413.
 */
export const MAX_BODY_BYTES = 26 * MiB;

/** "26 MiB", "100 KiB", "1.5 MiB". */
export function sizeText(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
