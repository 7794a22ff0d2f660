// Mailpit's link check: each http(s) link of the email (its <a href>, stylesheets and images, then
// the URLs of its text) asked with a HEAD request, which opens no one-time link; a link answered
// 400 or above, or not at all, is an error. Sent through svc dev's one way out, so the loopback rule
// holds: a link off this machine is only asked with `svc dev --allow-remote-webhooks`, and is
// otherwise reported with the reason (status 0, as Mailpit reports a link it could not reach).
import { STATUS_CODES } from 'node:http';
import { attribute, htmlAnchors, textLinks } from '../../core/message-text.js';
import { ALLOW_REMOTE_WEBHOOKS, send } from '../outbound/index.js';

interface LinkStatus {
  URL: string;
  StatusCode: number;
  Status: string;
}

const HTTP_LINK = /^https?:\/\/[-\w@:%_+'!.~#?,&/=;]+/i;
const MAX_REDIRECTS = 10;

/** The links Mailpit checks, each once, in the order it finds them. */
function checkedLinks(html: string, text: string): string[] {
  const links = [
    ...htmlAnchors(html).map((l) => l.url),
    ...[...html.matchAll(/<link\b[^>]*>/gi)].filter((m) => /rel\s*=\s*["']?stylesheet/i.test(m[0])).map((m) => attribute(m[0], 'href') ?? ''),
    ...[...html.matchAll(/<img\b[^>]*>/gi)].map((m) => attribute(m[0], 'src') ?? ''),
  ].filter((l) => HTTP_LINK.test(l));
  return [...new Set([...links, ...textLinks(text)])];
}

async function status(url: string, follow: boolean, allowRemote: boolean): Promise<LinkStatus> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const r = await send({ url: target, method: 'HEAD', allowRemote, allowFlag: ALLOW_REMOTE_WEBHOOKS, retries: 0, timeoutMs: 10_000, keepHeaders: true });
    if (r.status === undefined) return { URL: url, StatusCode: 0, Status: r.error ?? 'no answer' };
    const location = r.headers?.location;
    if (follow && r.status >= 300 && r.status < 400 && location && hop < MAX_REDIRECTS) {
      target = new URL(location, target).toString();
      continue;
    }
    return { URL: url, StatusCode: r.status, Status: STATUS_CODES[r.status] ?? '' };
  }
}

export async function linkCheck(html: string, text: string, opts: { follow: boolean; allowRemote: boolean }) {
  const Links = await Promise.all(checkedLinks(html, text).map((l) => status(l, opts.follow, opts.allowRemote)));
  return { Errors: Links.filter((l) => l.StatusCode >= 400 || l.StatusCode === 0).length, Links };
}
