// `npm run spec:gate [REF]`: fails when the documents changed since REF without the version
// (and, for a change that breaks callers, the CHANGELOG.md section) the change needs.
import { fileURLToPath } from 'node:url';
import { runGate } from './spec-gate.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = runGate(root, process.argv[2]);
for (const line of result.lines) (result.passed ? console.log : console.error)(line);
if (!result.passed) process.exit(1);
