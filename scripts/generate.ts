// Writes generated/ from the OpenAPI documents: the types of each API named in redocly.yaml
// (openapi-typescript, to its x-openapi-ts output), operations.ts, the runtime table of
// operation facts read from the documents' vendor extensions, and routes.ts, what the client
// reads of it. With --check it writes nothing and fails when any file in generated/ differs
// from what the documents produce or is not produced by them at all, so CI catches a forgotten
// `npm run generate`. --root DIR works on a copy of the project. The command line of
// scripts/generate-command.ts.
import { runGenerate } from './generate-command.ts';

process.exitCode = await runGenerate(process.argv.slice(2));
