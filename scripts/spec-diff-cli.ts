// `npm run spec:diff [REF] [--json | --markdown]`: what changed in the documents since REF
// (default: the last tag, else the merge base with main), per operation, and whom it breaks.
import { fileURLToPath } from 'node:url';
import { compareWithRef } from './spec-compare.ts';
import { type ReportFormat, renderReport } from './spec-report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const format: ReportFormat = args.includes('--json')
  ? 'json'
  : args.includes('--markdown')
    ? 'markdown'
    : 'text';
const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--json' && arg !== '--markdown');
const refs = args.filter((arg) => !arg.startsWith('-'));
if (unknown.length > 0 || refs.length > 1) {
  console.error('usage: npm run spec:diff [REF] [--json | --markdown]');
  process.exit(2);
}

const comparison = compareWithRef(root, refs[0]);
if (!comparison.found) {
  console.error(`spec:diff: ${comparison.reason}`);
  process.exit(2);
}
const changes = comparison.documents.flatMap((document) => document.changes);
process.stdout.write(renderReport({ base: comparison.base.how, changes }, format));
