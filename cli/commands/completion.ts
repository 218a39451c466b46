// atrium completion bash|zsh|fish: a completion script for the shell, written
// from the command tree itself, so that it never lists a command that is gone.
import type { Command, Option } from 'commander';
import { CliError, EXIT } from '../output.ts';

type Node = { path: string[]; subcommands: string[]; options: string[]; description: string };

function nodes(command: Command, path: string[] = []): Node[] {
  const visible = command.commands.filter((c) => c.name() !== 'help');
  const options = command.options.flatMap((o: Option) => [o.long, o.short].filter((f): f is string => Boolean(f)));
  const own: Node = { path, subcommands: visible.map((c) => c.name()), options: [...options, '--help'], description: command.description() };
  return [own, ...visible.flatMap((c) => nodes(c, [...path, c.name()]))];
}

function bash(root: Command): string {
  const globals = nodes(root)[0].options.filter((o) => o.startsWith('--')).join(' ');
  const cases = nodes(root)
    .map((n) => `    "${n.path.join(' ')}") words="${[...new Set([...n.subcommands, ...n.options.filter((o) => o.startsWith('--')), ...globals.split(' ')])].join(' ')}" ;;`)
    .join('\n');
  return `# atrium completion for bash. Add to ~/.bashrc:  eval "$(atrium completion bash)"
_atrium() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "\${path:+$path }$word" in
${nodes(root)
  .filter((n) => n.path.length)
  .map((n) => `      "${n.path.join(' ')}") path="${n.path.join(' ')}" ;;`)
  .join('\n')}
    esac
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _atrium atrium
`;
}

function zsh(root: Command): string {
  return `#compdef atrium
# atrium completion for zsh. Add to ~/.zshrc:  eval "$(atrium completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bash(root).replace(/^# .*\n/, '')}`;
}

function fish(root: Command): string {
  const lines = ['# atrium completion for fish. Save as ~/.config/fish/completions/atrium.fish:  atrium completion fish > ~/.config/fish/completions/atrium.fish', 'complete -c atrium -f'];
  const escape = (text: string) => text.replace(/'/g, "\\'");
  for (const n of nodes(root)) {
    const condition = n.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${n.path[n.path.length - 1]}`;
    for (const sub of n.subcommands) {
      const child = root.commands.find((c) => c.name() === sub) ?? null;
      const description = n.path.length === 0 ? child?.description() ?? '' : '';
      lines.push(`complete -c atrium -n '${condition}' -a '${sub}'${description ? ` -d '${escape(description.split(/[;(]/)[0].trim())}'` : ''}`);
    }
    for (const option of n.options.filter((o) => o.startsWith('--'))) {
      lines.push(`complete -c atrium -n '${condition}' -l '${option.slice(2)}'`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const SHELLS = { bash, zsh, fish } as const;

function completion(this: Command, shell: string) {
  const generate = SHELLS[shell as keyof typeof SHELLS];
  if (!generate) throw new CliError(`No completion for "${shell}".`, 'Pass bash, zsh or fish.', EXIT.usage);
  let root: Command = this;
  while (root.parent) root = root.parent;
  process.stdout.write(generate(root));
}

export function register(program: Command) {
  program
    .command('completion <shell>')
    .description('Print a completion script for bash, zsh or fish')
    .addHelpText(
      'after',
      '\nExamples:\n  $ atrium completion fish > ~/.config/fish/completions/atrium.fish\n  $ eval "$(atrium completion bash)"        # in ~/.bashrc\n  $ eval "$(atrium completion zsh)"         # in ~/.zshrc',
    )
    .action(completion);
}
