// svc help [topic | command...]: help topics (exit codes, environment) and help for any command.
import { PROVIDER_IDS } from '../api/enum-values.js';
import { UsageError } from '../core/errors.js';
import type { Deps } from '../deps.js';
import { type AnyCommand, type ArgsOf, Command, examples, type OptsOf, wrapWords } from './define.js';

export const command = () =>
  examples(
    new Command('help')
      .description('show help for a command, or a topic: options, exit-codes, environment, providers')
      .argument('[topic...]', 'command or topic'),
    ['svc help options', 'svc help exit-codes', 'svc help environment', 'svc help providers', 'svc help events list'],
  );

const EXIT_CODES = `Exit codes (stable; scripts may rely on them):
  0    success; for trigger --wait, delivered, or merged into a digest already
       under way (outcome "merged": sent with that digest when it closes)
  1    the service answered with an error not listed below (5xx after
       retries, ...), or a trigger was not processed (status other than
       "processed"); also a --query that failed on the result (the command ran)
  2    invalid usage or input; nothing was sent
  3    missing or rejected credentials (no key, 401, 403), or a state change
       refused by a read-only profile
  4    network failure or timeout after all retries
  5    not found (404); also messages mark-as when no message was changed
  6    rejected by the service as invalid or conflicting (400, 409, 422)
  7    rate limited (429) after all retries
  8    trigger --wait: some job still pending when the wait ended
  9    trigger --wait: at least one job failed
  10   trigger --wait: every job finished but nothing was delivered (every
       channel step skipped, throttled or canceled)
  130  interrupted (Ctrl-C)

With -o json, an error is one JSON object on stderr:
  {"error": {"code": "not_found", "status": 404, "message": "..."}}
`;

const ENVIRONMENT = `Environment variables:
  SVC_API_KEY       API key (after --api-key, before the profile)
  SVC_BASE_URL      service base URL (after --base-url, before the profile)
  SVC_PROFILE       profile name (after --profile, before the current profile)
  SVC_CONFIG_DIR    directory of the profile store
                    (default: $XDG_CONFIG_HOME/svc or ~/.config/svc)
  NO_COLOR          disable colour
  FORCE_COLOR       force colour (FORCE_COLOR=0 disables it)
  CI                never prompt (as --no-input)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   proxy settings, honoured by every request

Each value is resolved on its own: flag, then environment, then profile.
The profile store is config.json (mode 0600) in a 0700 directory.
`;

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>, self: AnyCommand): Promise<void> {
  const words = given ?? [];
  const topic = words.join(' ');
  if (topic === 'exit-codes' || topic === 'exit codes') return void deps.io.stdout.write(EXIT_CODES);
  if (topic === 'environment' || topic === 'env') return void deps.io.stdout.write(ENVIRONMENT);
  if (topic === 'providers') {
    // The values of --provider, laid out for the terminal (too many for the options' help).
    const width = (deps.io.stdout.isTTY && deps.io.stdout.columns) || 80;
    const lines = wrapWords(PROVIDER_IDS.join(', '), width - 2).map((l) => `  ${l}`);
    return void deps.io.stdout.write(`Provider ids (--provider):\n${lines.join('\n')}\n`);
  }
  if (topic === 'options' || topic === 'global-options') return void deps.io.stdout.write(globalOptions(self.parent ?? self, deps));
  let target: AnyCommand = self.parent ?? self;
  for (const w of words) {
    const next = target.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!next) throw new UsageError(`no help topic or command '${topic}'; topics: options, exit-codes, environment, providers`);
    target = next;
  }
  target.outputHelp();
}

/** The options every command takes (the root's), laid out as in help at the terminal's width. */
function globalOptions(root: AnyCommand, deps: Deps): string {
  const cmd = root as unknown as import('commander').Command;
  const helper = cmd.createHelp();
  const width = (deps.io.stdout.isTTY && deps.io.stdout.columns) || 80;
  helper.prepareContext({ helpWidth: width });
  const options = helper.visibleOptions(cmd);
  const termWidth = Math.max(...options.map((o) => helper.optionTerm(o).length));
  const items = options.map((o) => helper.formatItem(helper.optionTerm(o), termWidth, helper.optionDescription(o), helper));
  return `Global options (every command takes them, before or after its own):\n${items.join('\n')}\n`;
}
