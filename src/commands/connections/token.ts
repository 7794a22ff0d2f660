// The workspace and access token flags of `connections create` and `connections update`.
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import type { Command } from '../define.js';
import type * as Typed from '@commander-js/extra-typings';

export interface TokenOptions {
  workspaceId: string;
  workspaceName?: string;
  accessToken?: string;
  accessTokenStdin?: boolean;
}

export function tokenOptions<A extends unknown[], O extends Typed.OptionValues>(cmd: Command<A, O>) {
  return cmd
    .requiredOption('--workspace-id <id>', 'workspace id')
    .option('--workspace-name <name>', 'workspace name')
    .option('--access-token <token>', 'access token (visible to other users of this machine; prefer --access-token-stdin)')
    .option('--access-token-stdin', 'read the access token from stdin');
}

export async function accessToken(deps: Deps, opts: TokenOptions): Promise<string> {
  if (opts.accessToken !== undefined && opts.accessTokenStdin) {
    throw new UsageError('--access-token and --access-token-stdin cannot be used together');
  }
  let token: string | undefined = opts.accessToken;
  if (opts.accessTokenStdin) token = (await deps.input.stdinText('--access-token-stdin')).replace(/\r?\n$/, '');
  if (token === undefined && deps.interactive()) {
    const { askSecret } = await import('../../io/prompt.js');
    token = await askSecret(deps, 'Access token:', (v) => (v.trim() ? true : 'the token must not be empty'));
  }
  if (token === undefined) throw new UsageError('missing access token: give --access-token-stdin (reads stdin) or --access-token TOKEN');
  const flag = opts.accessTokenStdin ? '--access-token-stdin' : '--access-token';
  if (!token.trim()) throw new UsageError(`${flag}: ${opts.accessTokenStdin ? 'stdin held no token' : 'must not be empty'}`);
  if (/[\r\n]/.test(token)) throw new UsageError(`${flag}: must be a single line`);
  return token;
}

export function workspace(opts: TokenOptions): { id: string; name?: string } {
  return opts.workspaceName !== undefined ? { id: opts.workspaceId, name: opts.workspaceName } : { id: opts.workspaceId };
}
