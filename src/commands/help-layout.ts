// How help is laid out at the terminal's width: wrapped between words, a word wider than the
// box broken after a / or a comma, a description under its term when the column beside it is too narrow,
// and no list of dozens of choices. Every command copies it from the root (cli.ts).
import { Help, type HelpConfiguration, type Option } from 'commander';

/**
 * commander's wrapping of help text, except that a word wider than the box (a route such as
 * /v2/workflows/{workflowId}/step/{stepId}/preview, a JSON example) breaks after a / or a comma rather
 * than running past the terminal's edge; lines still break between words everywhere else.
 */
function boxWrap(str: string, width: number): string {
  if (width < 16) return str;
  return str
    .split(/\r\n|\n/)
    .map((line) => {
      const chunks = (line.match(/\s*\S+/g) ?? []).flatMap((ch) =>
        ch.trim().length > width ? (ch.match(/\s*[^/,\s]*[/,]?/g) ?? [ch]).filter(Boolean).flatMap((p) => hardCut(p, width)) : [ch],
      );
      const out: string[] = [];
      let current = '';
      for (const ch of chunks) {
        if (current !== '' && current.length + ch.length > width) {
          out.push(current);
          current = ch.trimStart();
        } else current += ch;
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}

const hardCut = (s: string, width: number): string[] => (s.length <= width ? [s] : [s.slice(0, width), ...hardCut(s.slice(width), width)]);

/** More choices than this are not listed in an option's help (Tab completes them; `svc help providers`). */
const LISTED_CHOICES = 12;

/**
 * An option's help: its choices in brackets only when the description does not name them already, and
 * never a list of dozens (the provider ids): then how many there are and where to see them.
 */
function optionDescription(option: Option, helper: Help): string {
  const choices = option.argChoices;
  if (!choices) return Help.prototype.optionDescription.call(helper, option);
  const named = choices.every((c) => option.description.includes(c));
  const hidden = Object.assign(Object.create(Object.getPrototypeOf(option)), option, { argChoices: undefined }) as Option;
  const base = Help.prototype.optionDescription.call(helper, hidden);
  if (choices.length > LISTED_CHOICES) return `${base} (one of ${choices.length}; Tab completes them, svc help providers lists them)`;
  if (named) return base;
  return `${base} (${choices.join(', ')})`;
}

/** The one line a subcommand's help has in place of the global options (`svc help options` lists them). */
const GLOBAL_OPTIONS_LINE = 'Global options: see `svc help options` (-o, --json, --query, -q, --profile, …)';

export const helpLayout: HelpConfiguration = {
  // A subcommand's help shows its own options; the 20-odd global ones once, in `svc help options`.
  showGlobalOptions: false,
  formatHelp(cmd, helper) {
    const text = Help.prototype.formatHelp.call(this, cmd, helper);
    return cmd.parent ? `${text.replace(/\n*$/, '')}\n\n${boxWrap(GLOBAL_OPTIONS_LINE, helper.helpWidth ?? 80)}\n` : text;
  },
  sortSubcommands: false,
  // commander stops wrapping descriptions narrower than 40 columns (a group's long command names at
  // 80 columns, any help at 60): they are wrapped down to 16 instead of running off the screen.
  minWidthToWrap: 16,
  optionDescription(option) {
    return optionDescription(option, this as Help);
  },
  boxWrap,
  formatItem(term, termWidth, description, helper) {
    // Beside a column of long terms (a group's subcommands) on a narrow terminal, a description would
    // have almost no room: it goes under its term instead.
    const width = (this as Help).helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= 24) return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    return `  ${term}\n${boxWrap(description, width - 6).replace(/^/gm, '      ')}`;
  },
  styleUsage(str) {
    // The usage line, wrapped under itself when the terminal is narrower ("Usage: " is 7 columns).
    const width = (this as Help).helpWidth ?? 80;
    return Help.prototype.styleUsage.call(this, boxWrap(str, width - 7).replace(/\n/g, `\n${' '.repeat(7)}`));
  },
};
