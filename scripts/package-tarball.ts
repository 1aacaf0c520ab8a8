// The package as `npm pack` makes it, built once: `npm run check:package` lints that tarball and,
// within `npm test`, leaves it where `npm run test:package` installs it from (TXC_PACKAGE_TARBALL),
// so that dist/ is compiled once per run rather than once per `npm pack`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm test` keeps the tarball between its two package stages (git-ignored). */
export const tarballVariable = 'TXC_PACKAGE_TARBALL';

/** Builds dist/ and packs it into `directory`; returns the tarball's path. */
export function buildAndPack(root: string, directory: string, env: NodeJS.ProcessEnv = process.env): string {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', env });
  return packBuilt(root, directory, env);
}

/** Packs the dist/ that is there, without the prepack build. */
export function packBuilt(root: string, directory: string, env: NodeJS.ProcessEnv = process.env): string {
  mkdirSync(directory, { recursive: true });
  const output = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--silent', '--pack-destination', directory],
    { cwd: root, encoding: 'utf8', env },
  );
  const [{ filename }] = JSON.parse(output.slice(output.indexOf('['))) as [{ filename: string }];
  return join(directory, filename);
}

/** Moves a packed tarball to `target` (the path TXC_PACKAGE_TARBALL names). */
export function keepTarball(tarball: string, target: string): void {
  mkdirSync(join(target, '..'), { recursive: true });
  renameSync(tarball, target);
}
