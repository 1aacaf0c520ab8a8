// Builds the docs into site/ and serves them on a free port of 127.0.0.1 for the browser tests;
// the server is closed in teardown.
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { projectRoot } from '../samples.ts';
import { serveStatic } from '../serve.ts';
import { buildSite } from '../site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    docsUrl: string;
    /** Where the site is built (the server's root). */
    docsDir: string;
    docsPages: { name: string; file: string; title: string; version: string }[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const siteDir = join(projectRoot, 'site');
  const pages = await buildSite(siteDir);
  const server = await serveStatic(siteDir, 0);
  project.provide('docsUrl', server.url);
  project.provide('docsDir', siteDir);
  project.provide(
    'docsPages',
    pages.map(({ name, file, title, version }) => ({ name, file, title, version })),
  );
  return () => server.close();
}
