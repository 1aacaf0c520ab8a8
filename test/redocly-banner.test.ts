// `npm run lint` shows what Redocly says about the documents, not its Node 20 banner.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { withoutBanner } from '../scripts/redocly-banner.ts';
import { timeLimits } from '../scripts/time-limits.ts';

const banner = `
    ╔═════════════════════════════════════════════════════════════════╗
    ║                                                                 ║
    ║  Deprecation warning: Node.js 20 support is ending              ║
    ║                                                                 ║
    ╚═════════════════════════════════════════════════════════════════╝

validating openapi/public-v4.yaml using lint rules for api 'public-v4'...

openapi/public-v4.yaml: validated in 86ms`;

const runCli = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/redocly-cli.ts'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: timeLimits.runMs,
  });

describe("Redocly's Node 20 banner", () => {
  it('is dropped with the blank lines around it; the rest stays, blank lines between included', () => {
    const filter = withoutBanner();
    expect(banner.split('\n').flatMap(filter)).toEqual([
      "validating openapi/public-v4.yaml using lint rules for api 'public-v4'...",
      '',
      'openapi/public-v4.yaml: validated in 86ms',
    ]);
  });

  it('npm run lint:api prints the result and no frame, with the exit code of the CLI', () => {
    // The smaller document is enough: the banner comes whatever is linted, and `npm run lint`
    // lints both documents itself.
    const passing = runCli(['lint', 'public-v4']);
    expect(passing.status).toBe(0);
    expect(passing.stdout + passing.stderr).toMatch(/valid/);
    expect(passing.stdout + passing.stderr).not.toMatch(/[╔║╚]|Deprecation warning/);
    const failing = runCli(['lint', 'no-such-document.yaml']);
    expect(failing.status).not.toBe(0);
    expect(failing.stdout + failing.stderr).not.toMatch(/[╔║╚]/);
  });
});
