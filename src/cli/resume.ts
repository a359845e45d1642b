// The command that goes on with an import from where it stopped: the one the
// user ran, every argument kept as given (--data or --url, --format,
// --types, --settings, --rejects...), with --skip N for the records done
// with. The admin key is never printed: it is named by its environment
// variable, as `lantern serve` names it.
import type { parseArgs } from 'node:util';

export type CommandLineToken = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

export function resumeCommand(tokens: CommandLineToken[], skip: number, adminKeyVariable: string): string {
  const words = ['lantern'];
  let optionsEnd = -1;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      optionsEnd = words.length;
      words.push('--');
    } else if (token.kind === 'positional') {
      words.push(shellWord(token.value));
    } else if (token.name !== 'skip') {
      words.push(token.rawName);
      if (token.name === 'admin-key') words.push(`"$${adminKeyVariable}"`);
      else if (token.value !== undefined) words.push(shellWord(token.value));
    }
  }
  if (skip > 0) words.splice(optionsEnd === -1 ? words.length : optionsEnd, 0, '--skip', String(skip));
  return words.join(' ');
}

/** A word as a POSIX shell reads it back: as it is when it holds nothing the shell would change, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
