/**
 * `quarry login --url URL [--family auth|token] [--profile NAME] [--username NAME]`: checks
 * the credentials with the service and stores them as a profile, so later `quarry query` and
 * `quarry shell` need no flags. The key (or password) is read from a hidden prompt on a
 * terminal, or from standard input when it is piped; it is never a command-line argument
 * and never printed.
 */
import { Option, type Command } from 'commander';
import { connect } from '../../client/client.ts';
import { QuarryClientError } from '../../client/errors.ts';
import { profilePath, saveProfile, type Profile } from '../../client/profiles.ts';
import { exitWithError } from '../exit.ts';

interface LoginFlags {
  readonly url: string;
  readonly family: 'auth' | 'token';
  readonly profile: string;
  readonly username?: string;
  readonly default?: boolean;
  readonly verify: boolean;
}

/** All of standard input (a piped key), without the trailing line break. */
async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text.replace(/\r?\n$/, '').trim();
}

/** Asks on the terminal without echoing what is typed. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    let value = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return done();
        if (char === '\u0003') return done(new Error('interrupted'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The secret from a hidden prompt (terminal) or standard input (pipe). */
export async function readSecret(what: string): Promise<string> {
  const secret = process.stdin.isTTY ? await promptHidden(`${what}: `) : await readStdin();
  if (secret === '') throw QuarryClientError.client('CLIENT_KEY_MISSING', { what });
  return secret;
}

export function register(program: Command): void {
  program
    .command('login')
    .description('store a profile for a Quarry service (the key is read from a prompt or standard input)')
    .requiredOption('--url <url>', 'the service URL, e.g. http://127.0.0.1:8080')
    .addOption(new Option('--family <family>', 'protocol family').choices(['auth', 'token']).default('auth'))
    .option('--profile <name>', 'the profile name', 'default')
    .option('--username <name>', 'log in with a username and password (auth family, legacy accounts) instead of a key')
    .option('--default', 'make this the default profile')
    .option('--no-verify', 'store the profile without checking it with the service')
    .action(async (flags: LoginFlags) => {
      try {
        if (!/^https?:\/\/[^\s/]+/.test(flags.url))
          throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
            option: '--url',
            reason: `${flags.url} is not an http:// or https:// URL`,
          });
        const url = flags.url.replace(/\/+$/, '');
        let profile: Profile;
        if (flags.username !== undefined) {
          if (flags.family === 'token')
            throw QuarryClientError.client('CLIENT_CREDENTIALS_UNSUPPORTED', { family: 'token' });
          profile = { url, family: flags.family, username: flags.username, password: await readSecret('password') };
        } else {
          profile = { url, family: flags.family, key: await readSecret('API key') };
        }
        if (flags.verify) {
          const credentials =
            profile.key !== undefined
              ? { key: profile.key }
              : { username: profile.username ?? '', password: profile.password ?? '' };
          await connect({ url, ...credentials }, { family: flags.family, retry: { maxRetries: 1 } }).login();
        }
        const path = saveProfile(flags.profile, profile, { path: profilePath(), makeDefault: flags.default === true });
        process.stderr.write(
          `${flags.verify ? 'Logged in to' : 'Stored'} ${url} (${flags.family} family); profile '${flags.profile}' saved in ${path}.\n`,
        );
      } catch (error) {
        exitWithError(error);
      }
    });
}
