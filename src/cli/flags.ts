// The lantern command's flags: their definitions for node:util's parseArgs
// and, in one table, what a numeric or enumerated flag accepts, so that a
// bad value is one line naming the flag, the value and what it takes
// (before, `--port abc` surfaced Node's "Received type number (NaN)").
import { parseArgs } from 'node:util';
import { FORMATS } from './record-sources.js';
import { MAX_TEXTS_PER_REQUEST } from '../vectors/embedder.js';

export const OPTIONS = {
  port: { type: 'string', default: '7700' },
  host: { type: 'string', default: '127.0.0.1' },
  data: { type: 'string' },
  'app-id': { type: 'string' },
  'admin-key': { type: 'string' },
  // the store's encryption key (or LANTERN_ENCRYPTION_KEY): never on the command line itself
  'key-file': { type: 'string' },
  clusters: { type: 'string' },
  settings: { type: 'string' },
  format: { type: 'string' },
  types: { type: 'string' },
  skip: { type: 'string' },
  // import: where the records that cannot be imported go (without it, the first one stops the import)
  rejects: { type: 'string' },
  'with-replicas': { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  hits: { type: 'string', default: '10' },
  url: { type: 'string' },
  demo: { type: 'boolean', default: false },
  // serve --demo: the talks' vectors (lantern embed's output) and the server that embeds the queries
  'demo-vectors': { type: 'string' },
  'embedder-url': { type: 'string' },
  // embed: the output, the embeddings server's model and key, the text of a record, the vectors' name and length
  out: { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  template: { type: 'string' },
  embedder: { type: 'string', default: 'default' },
  dimensions: { type: 'string' },
  batch: { type: 'string' },
  concurrency: { type: 'string' },
  retries: { type: 'string' },
  // behind one reverse proxy: its X-Forwarded-For names the caller
  'trust-proxy': { type: 'boolean', default: false },
  // open connections one client address may hold (0 = no limit); behind a proxy, the proxy's
  'max-connections-per-address': { type: 'string' },
  memory: { type: 'boolean', default: false },
  // read worker threads, each with a copy of the state (1 = none: the main thread answers everything)
  workers: { type: 'string', default: '1' },
  // NATS servers holding the application's stream and snapshots (cluster mode), and the copies they keep
  nats: { type: 'string' },
  'nats-replicas': { type: 'string' },
  // with --nats and --clusters c1: the URL the nodes of other clusters send this node's users' calls to
  advertise: { type: 'string' },
  'snapshot-every': { type: 'string' },
  // records' worth of recent writes kept for followers
  'follow-backlog': { type: 'string' },
  'recommend-min-events': { type: 'string' },
  // searches, and insight events, kept for analytics (the oldest dropped past it)
  'max-analytics-events': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

/** What a flag's value must be: `expected` completes "--flag needs ...". */
interface Rule {
  expected: string;
  accepts(text: string): boolean;
}

function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): Rule {
  return {
    expected: max === Number.MAX_SAFE_INTEGER ? `a whole number from ${min}` : `a whole number from ${min} to ${max}`,
    accepts: (text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max,
  };
}

function oneOf(choices: readonly string[]): Rule {
  return { expected: `one of ${choices.join(', ')}`, accepts: (text) => choices.includes(text) };
}

/** --workers: a number of threads, or auto (one per core). */
const WORKERS: Rule = { expected: 'a whole number from 1, or auto', accepts: (text) => text === 'auto' || wholeNumber(1).accepts(text) };

/** Every flag whose value is a number or one of a few words, and what it accepts. */
const RULES = {
  port: wholeNumber(0, 65535),
  hits: wholeNumber(0, 1000),
  skip: wholeNumber(0),
  format: oneOf(FORMATS),
  dimensions: wholeNumber(1),
  batch: wholeNumber(1, MAX_TEXTS_PER_REQUEST),
  concurrency: wholeNumber(1),
  retries: wholeNumber(0),
  'max-connections-per-address': wholeNumber(0),
  workers: WORKERS,
  'nats-replicas': wholeNumber(1, 5),
  'snapshot-every': wholeNumber(0),
  'follow-backlog': wholeNumber(0),
  'recommend-min-events': wholeNumber(0),
  'max-analytics-events': wholeNumber(1),
} satisfies Partial<Record<keyof typeof OPTIONS, Rule>>;

/** A flag whose value, once checked, is a whole number. */
export type NumericFlag = Exclude<keyof typeof RULES, 'format' | 'workers'>;

/** A command line that cannot be used: the message is the one line to print. */
export class FlagError extends Error {}

const ruleOf = (flag: string): Rule | undefined => (RULES as Record<string, Rule>)[flag.replace(/^--/, '')];

const refusal = (flag: string, rule: Rule, text: string) => new FlagError(`${flag} needs ${rule.expected}, not "${text}"`);

/** The command line, its numeric and enumerated flags checked (throws FlagError). */
export function parseCommandLine(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS, tokens: true });
  } catch (e) {
    throw inOurWords(e as NodeJS.ErrnoException, args);
  }
  for (const [flag, rule] of Object.entries(RULES) as [keyof typeof RULES, Rule][]) {
    const text = parsed.values[flag];
    if (text !== undefined && !rule.accepts(text)) throw refusal(`--${flag}`, rule, text);
  }
  return parsed;
}

/** parseArgs' refusal as one line of ours: its own text is several lines, in its terms ("argument is ambiguous"). */
function inOurWords(e: NodeJS.ErrnoException, args: string[]): FlagError {
  const flag = /'(-[^' ]+)/.exec(e.message)?.[1] ?? '';
  const rule = ruleOf(flag);
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new FlagError(`unknown option ${flag}`);
  if (e.message.includes('does not take an argument')) return new FlagError(`${flag} takes no value`);
  if (e.message.includes('argument missing')) return new FlagError(`${flag} needs ${rule?.expected ?? 'a value'}`);
  if (e.message.includes('ambiguous')) {
    // a value starting with "-" (--skip -1): parseArgs takes it for another flag
    const value = args[args.indexOf(flag) + 1] ?? '';
    return rule && !rule.accepts(value) ? refusal(flag, rule, value) : new FlagError(`${flag} ${value}: a value starting with "-" goes as ${flag}=${value}`);
  }
  return new FlagError(e.message.split('\n')[0]);
}
