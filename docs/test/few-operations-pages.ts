// Reference pages of a few operations each, built as the site's are (build-docs on the documents
// with their samples, Redoc and the Try it panel from the site's assets): the root documents with
// every other path and every tag they no longer use left out. The browser checks what Redoc and
// the panel do on these; a page of the whole document shows nothing more in the browser but
// takes Redoc longer to render (reference-pages.test.ts checks what it holds, in process).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { operations } from '../../generated/operations.ts';
import type { ApiDocument } from '../../model/document.ts';
import { stringAt } from '../../model/json.ts';
import { documentsWithSamples } from '../../scripts/code-samples.ts';
import { projectRoot } from '../samples.ts';
import { buildDocsOutput, buildPage, writeRedocAssets } from '../site.ts';
import { type TryItData, tryItData, writeTryItAssets } from '../try-it.ts';

export interface FewOperationsPage {
  /** The page's file in the output directory. */
  file: string;
  /** The operations it has, with what its Try it panel knows of them. */
  tryIt: TryItData;
  /** The page as build-docs wrote it (kept, scripts/output-cache.ts), before it is made to work offline. */
  buildDocsPage: string;
}

/** Builds into `outDir` a page per document of `keep`, of its operations named there. */
export async function buildFewOperationsPages(
  keep: ReadonlyMap<ApiDocument, readonly string[]>,
  outDir: string,
): Promise<Map<string, FewOperationsPage>> {
  const copy = documentsWithSamples(
    projectRoot,
    [...keep.keys()].map((api) => api.name),
  );
  try {
    for (const [api, operationIds] of keep) {
      const paths = new Set(
        operationIds.map((id) => operations[id as keyof typeof operations].path as string),
      );
      const tags = new Set(
        operationIds.map((id) => {
          const { path, method } = operations[id as keyof typeof operations];
          return stringAt(api.dereferenced, 'paths', path, method, 'tags', 0);
        }),
      );
      const root = parse(readFileSync(copy.file(api), 'utf8'));
      // One operation a path item: the paths of the operations kept are exactly theirs.
      root.paths = Object.fromEntries(Object.entries(root.paths).filter(([path]) => paths.has(path)));
      root.tags = root.tags.filter((tag: { name: string }) => tags.has(tag.name));
      writeFileSync(copy.file(api), stringify(root));
    }
    const redoc = writeRedocAssets(join(outDir, 'assets'));
    writeTryItAssets(join(outDir, 'assets'));
    const pages = new Map<string, FewOperationsPage>();
    for (const [api, operationIds] of keep) {
      const file = `${api.name}-few.html`;
      // The whole document's data of the operations kept (the generated operations of the page's
      // document are all of the whole document's).
      const whole = tryItData(api);
      const tryIt = {
        ...whole,
        operations: whole.operations.filter((operation) => operationIds.includes(operation.operationId)),
      };
      await buildPage(copy.file(api), join(outDir, file), redoc, tryIt);
      pages.set(api.name, { file, tryIt, buildDocsPage: await buildDocsOutput(copy.file(api)) });
    }
    return pages;
  } finally {
    copy.remove();
  }
}
