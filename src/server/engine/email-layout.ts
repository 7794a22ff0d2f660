// The email layout of this service, in a module of its own: the store reads it (a message's compact
// form leaves its parts out) without loading the renderer.
/**
 * The layout an email gets when its `layoutId` is absent (or names a layout this service does not
 * have): a minimal, client-friendly document around the body.
 */
export const DEFAULT_EMAIL_LAYOUT = [
  '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
  '<title>{{ subject }}</title></head>',
  '<body style="margin:0;padding:0;background:#f6f7f9;font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Roboto,Helvetica,Arial,sans-serif;color:#1f2937">',
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" style="padding:24px 12px">',
  '<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px">',
  '<tr><td style="padding:32px;font-size:15px;line-height:1.6">{{ content }}</td></tr></table></td></tr></table></body></html>',
].join('');
