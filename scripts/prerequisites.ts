// What `npm test` needs besides Node and npm ci, found before anything else runs: a Chromium for
// the browser tests (docs pages, the package in a page) and tmux for txc's terminal tests. A
// missing one stops the run within a second with the one command that installs it, instead of
// failing at the last step minutes later.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Names a Chromium (or Chrome) binary goes by on PATH, and where packages put it. */
const chromiumNames = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
export const chromiumPlaces = [
  '/usr/bin/chromium',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The first executable called one of `names` in the directories of PATH. */
export function onPath(names: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const directory of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(directory, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

export type Found = { path: string } | { problem: string };

/**
 * Chromium: CHROMIUM_PATH when set (and then only it: a wrong setting is reported, not guessed
 * around), else the usual names on PATH, else the usual places.
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  places: readonly string[] = chromiumPlaces,
): Found {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    return isExecutableFile(configured)
      ? { path: configured }
      : {
          problem: `CHROMIUM_PATH=${configured} is not an executable file: point it at a Chromium or Chrome binary, or unset it and install Chromium with \`sudo apt-get install -y chromium\``,
        };
  }
  const path = onPath(chromiumNames, env) ?? places.find(isExecutableFile);
  return path
    ? { path }
    : {
        problem:
          'npm test needs Chromium for its browser tests and none was found: install it with `sudo apt-get install -y chromium` (or set CHROMIUM_PATH)',
      };
}

/** tmux, which txc's terminal tests drive. */
export function findTmux(env: NodeJS.ProcessEnv = process.env): Found {
  const path = onPath(['tmux'], env);
  return path
    ? { path }
    : {
        problem:
          'npm test needs tmux for the terminal tests of txc and none was found: install it with `sudo apt-get install -y tmux`',
      };
}

/** The path of the Chromium the browser tests launch (the default when none is found). */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const found = findChromium(env);
  return 'path' in found ? found.path : (env.CHROMIUM_PATH ?? '/usr/bin/chromium');
}
