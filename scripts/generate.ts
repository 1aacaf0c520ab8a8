// Writes generated/ from the OpenAPI documents: the types of each API named in redocly.yaml
// (openapi-typescript, to its x-openapi-ts output), operations.ts, the runtime table of
// operation facts read from the documents' vendor extensions, and routes.ts, what the client
// reads of it. With --check it writes nothing and fails when any file in generated/ differs
// from what the documents produce or is not produced by them at all, so CI catches a forgotten
// `npm run generate`. --root DIR works on a copy of the project.
import { fileURLToPath } from 'node:url';
import { staleGeneratedFiles, writeGeneratedFiles } from './generated-files.ts';

const rootFlag = process.argv.indexOf('--root');
const root =
  rootFlag > 0 ? (process.argv[rootFlag + 1] as string) : fileURLToPath(new URL('..', import.meta.url));

if (process.argv.includes('--check')) {
  const { differing, leftover } = await staleGeneratedFiles(root);
  for (const file of differing) console.error(`${file} is stale: run npm run generate`);
  for (const file of leftover)
    console.error(`${file} is not produced by the documents: run npm run generate`);
  if (differing.length + leftover.length > 0) process.exit(1);
  console.log('generated/ is up to date');
} else {
  const { written, removed } = await writeGeneratedFiles(root);
  for (const file of written) console.log(`wrote ${file}`);
  for (const file of removed) console.log(`removed ${file}`);
}
