// The docs page of the `txc` command line: its --help and every subcommand's, produced by running
// the CLI at build time, so the page shows exactly what the documents generate.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { headerStyle, siteHeader } from './layout.ts';
import { ownPageHead } from './readable-page.ts';

const run = promisify(execFile);
/** The CLI's code is the project's, wherever the documents being built live. */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface CliHelp {
  /** The arguments before --help, e.g. `balance`. */
  command: string;
  text: string;
}

/**
 * `txc --help`, then `txc <subcommand> --help` for every subcommand and `ops`, all asked of one
 * txc process (docs/print-cli-help.ts) rather than one process each.
 */
export async function collectCliHelp(): Promise<CliHelp[]> {
  // Not a terminal: the help is wrapped at the parser's fixed default width.
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--', join(projectRoot, 'docs/print-cli-help.ts')],
    { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as CliHelp[];
}

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function renderCliPage(helps: CliHelp[]): string {
  const sections = helps
    .map(({ command, text }) => {
      const title = `txc ${command ? `${command} ` : ''}--help`;
      const id = command ? `txc-${command}` : 'txc';
      return `    <h2 id="${escapeHtml(id)}"><code>${escapeHtml(title)}</code></h2>\n    <pre><code>${escapeHtml(text)}</code></pre>`;
    })
    .join('\n');
  return `${ownPageHead(
    'txc command line',
    // Wrapped inside its box on any screen: the help is as wide as the parser makes it.
    `${headerStyle}    pre { background: #f6f8fa; padding: 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }`,
  )}
<body>
${siteHeader('./cli.html')}
  <main>
    <h1>The <code>txc</code> command line</h1>
    <p><a href="./index.html">Back to the docs</a>. One subcommand per operation, its flags generated from
    the request schemas. <a href="./guide-txc.html">The txc guide</a> has examples, credentials and the exit codes.</p>
${sections}
  </main>
</body>
</html>
`;
}
