// `npm run lint`'s check of the stream documents (`tsx scripts/stream-lint-cli.ts`): the AsyncAPI
// parser's problems, one line each (`file:line:col rule message`, scripts/stream-lint.ts), then the
// operations' x-stream-events against them (scripts/stream-event-lint.ts), and exit code 1 when
// there is any. A clean lint is remembered per document (scripts/clean-lints.ts), so that `npm
// start` does not lint the same files again.
import { projectRoot } from '../model/document.ts';
import { type StreamDocumentName, streamDocumentFiles } from '../model/streams.ts';
import { rememberClean, streamLintKey } from './clean-lints.ts';
import { lintStreamEvents } from './stream-event-lint.ts';
import { lintStreamDocuments } from './stream-lint.ts';

const names = Object.keys(streamDocumentFiles) as StreamDocumentName[];
// Keyed by the files as they were before the lint read them.
const keys = names.map((name) => streamLintKey(projectRoot, name));
const parsed = await lintStreamDocuments(projectRoot);
const problems = [...parsed.problems, ...lintStreamEvents(projectRoot)];
const ok = problems.length === 0;
for (const problem of problems) console.error(problem);
if (parsed.ok) for (const key of keys) await rememberClean('stream-lint-clean', key);
if (ok) console.log(`${Object.values(streamDocumentFiles).join(' and ')}: valid AsyncAPI, no problems`);
else {
  console.error(`${problems.length} problem(s) in the stream documents`);
  process.exitCode = 1;
}
