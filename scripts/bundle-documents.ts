// `npm run build`'s documents (scripts/build.ts): each root document bundled into one file under
// dist/openapi/ (`redocly bundle`), from a copy given every operation's derived code sample as
// x-codeSamples (scripts/code-samples.ts), so the documents a user installs show the samples the
// docs show.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { loadApiDocuments, projectRoot } from '../model/document.ts';
import { documentsWithSamples } from './code-samples.ts';

/** Bundles every root document into `outDir`; returns Redocly's exit code. */
export function bundleDocuments(outDir: string): number {
  const copy = documentsWithSamples(projectRoot);
  try {
    // One Redocly process for every document: with several, --output is the directory.
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(projectRoot, 'scripts/redocly-cli.ts'),
        'bundle',
        ...loadApiDocuments(projectRoot).map((api) => copy.file(api)),
        '--output',
        resolve(projectRoot, outDir),
      ],
      { cwd: projectRoot, stdio: 'inherit' },
    );
    return result.status ?? 1;
  } finally {
    copy.remove();
  }
}
