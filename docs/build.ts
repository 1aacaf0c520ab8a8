// `npm run docs`: builds the browsable docs into site/ (see docs/site.ts).
import { join } from 'node:path';
import { projectRoot } from './samples.ts';
import { buildSite } from './site.ts';

const outDir = join(projectRoot, 'site');
const pages = await buildSite(outDir);
for (const page of pages) console.log(`built site/${page.file} from ${page.document}`);
console.log('built site/index.html, site/cli.html and a page per stream document (site/streams-*.html)');
