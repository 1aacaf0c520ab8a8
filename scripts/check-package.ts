// `npm run check:package`: builds and packs the package once, then runs publint and Are the Types
// Wrong on that tarball. With TXC_PACKAGE_TARBALL set (as `npm test` does), the tarball is kept
// there for `npm run test:package`; otherwise it is removed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { buildAndPack, keepTarball, tarballVariable } from './package-tarball.ts';

const scratch = mkdtempSync(join(tmpdir(), 'txc-check-package-'));
const bin = (name: string) => join(projectRoot, 'node_modules/.bin', name);
let code = 0;
try {
  const tarball = buildAndPack(projectRoot, scratch);
  const checks: [string, string[]][] = [
    ['publint', ['run', '--strict', tarball]],
    // The table only: no summary or emoji in a CI log.
    [
      'attw',
      [
        tarball,
        '--profile',
        'esm-only',
        '--entrypoints',
        '.',
        './middleware',
        './validation',
        './operations',
        './streams',
        '--no-summary',
        '--no-emoji',
        '--format',
        'table',
      ],
    ],
  ];
  for (const [name, args] of checks) {
    try {
      execFileSync(bin(name), args, { cwd: projectRoot, stdio: 'inherit' });
    } catch {
      code = 1;
    }
  }
  const keep = process.env[tarballVariable];
  if (keep) keepTarball(tarball, keep);
} catch (error) {
  console.error(`check:package: ${(error as Error).message}`);
  code = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = code;
