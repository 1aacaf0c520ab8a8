// `npm run build` (and npm pack's prepack): the package's JavaScript, declarations and source maps
// in dist/ (tsconfig.build.json), and the bundled documents under dist/openapi/. Inside `npm test`
// the emit skips tsc's type check (`--noCheck`): the run's typecheck stage checks the same sources
// under the same compiler options, and a type error fails the run there. Everywhere else the build
// checks them itself.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { bundleDocuments } from './bundle-documents.ts';
import { nativeTsc } from './native-tsc.ts';
import { typesCheckedByTsc } from './test-plan.ts';

rmSync(join(projectRoot, 'dist'), { recursive: true, force: true });
const typesChecked = process.env[typesCheckedByTsc] === '1';
try {
  execFileSync(
    process.execPath,
    [nativeTsc, '-p', join(projectRoot, 'tsconfig.build.json'), ...(typesChecked ? ['--noCheck'] : [])],
    { cwd: projectRoot, stdio: 'inherit' },
  );
} catch {
  // tsc has printed its errors.
  process.exit(1);
}
process.exitCode = bundleDocuments(join(projectRoot, 'dist/openapi'));
