// The console's page: the bundled files (dist/console, built by scripts/build.mjs), read once on the
// first request for one of them, and answered with the page's security headers.
import type { FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

// The page's own code only; `style-src 'unsafe-inline'` is for the e-mail HTML shown in a sandboxed
// srcdoc frame (which inherits this policy), whose scripts the sandbox blocks. `img-src` names no
// remote origin: an e-mail's remote images (tracking pixels) are not fetched when it is shown.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-src 'self' about:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** Where the built assets are: dist/console beside the bundle, or under the checkout in development. */
function assetDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const candidate of [join(dir, 'console'), join(dir, 'dist', 'console')]) {
      // src/console holds the page's source (index.html but no bundle): skip it.
      if (existsSync(join(candidate, 'index.html')) && existsSync(join(candidate, 'app.js'))) return candidate;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** Answers a request for one of the page's files (`index.html`, `app.js`, `app.css`). */
export function consolePage(): (reply: FastifyReply, name: string) => FastifyReply {
  // The whole console is three small files.
  const files = new Map<string, { body: Buffer; type: string }>();
  const dir = assetDir();
  for (const name of ['index.html', 'app.js', 'app.css']) {
    const file = dir && join(dir, name);
    if (file && existsSync(file)) files.set(name, { body: readFileSync(file), type: TYPES[name.slice(name.lastIndexOf('.'))]! });
  }
  return (reply, name) => {
    const f = files.get(name);
    if (!f) throw new HttpError(404, 'The console is not built: run `npm run build:fast`');
    return reply.code(200).headers(SECURITY_HEADERS).type(f.type).send(f.body);
  };
}
