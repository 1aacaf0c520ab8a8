// What the "Try it" panel of a reference page (docs/try-it/try-it.mjs) knows of its operations:
// each one's route on the page, method, path, whether it is signed, and its named request
// examples as the fields a caller writes. All read from the documents and generated facts.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { operations, signedBodyFields } from '../generated/operations.ts';
import type { ApiDocument } from '../model/document.ts';
import { at, recordAt } from '../model/json.ts';
import { documentModel } from '../model/model.ts';
import type { TokenSource } from '../model/token-source.ts';
import { operationGroups, tagSlug } from './landing.ts';
import { projectRoot } from './samples.ts';

export interface TryItOperation {
  operationId: string;
  /** Redoc's route of the operation's section, as in the page's address after `#`. */
  route: string;
  method: string;
  path: string;
  signed: boolean;
  /**
   * A fiat-gateway call: the token it presents in `header`, which the panel first gets from the
   * signed operation at `sourcePath` (the link into it whose x-stateful names `gatewayToken`), at
   * the JSON pointer `at` of its answer.
   */
  token?: { header: string; sourceOperationId: string; sourcePath: string; at: string } | undefined;
  /** A GET's path parameters: the fields that fill the path's `{name}`, not its query. */
  pathParams: string[];
  examples: { name: string; summary: string; fields: Record<string, unknown> }[];
}

export interface TryItData {
  /** Where calls go unless the reader types another local origin: the sandbox of npm start. */
  defaultTarget: string;
  operations: TryItOperation[];
}

const signedFields = new Set<string>(signedBodyFields);

/** The request builder of the panel (docs/try-it/try-it-request.mjs), as the site's assets hold it. */
export const tryItRequestAsset = 'assets/try-it-request.mjs';
const tryItRequestFile = 'docs/try-it/try-it-request.mjs';
/** Where a token call's token comes from: its generated fact (model/token-source.ts derives it). */
function tokenOf(operationId: string): TryItOperation['token'] {
  const facts = (operations as Record<string, { tokenHeader?: string; tokenSource?: TokenSource }>)[
    operationId
  ];
  const source = facts?.tokenSource;
  if (!facts?.tokenHeader || !source) return undefined;
  return {
    header: facts.tokenHeader,
    sourceOperationId: source.operationId,
    sourcePath: (operations as Record<string, { path: string }>)[source.operationId]?.path as string,
    at: source.at,
  };
}

export function tryItData(api: ApiDocument): TryItData {
  const model = documentModel();
  const list: TryItOperation[] = [];
  for (const group of operationGroups([api])) {
    for (const facts of group.operations) {
      const view = model.operation(facts.operationId);
      const declared = recordAt(view.object, 'requestBody', 'content', 'application/json', 'examples');
      list.push({
        operationId: facts.operationId,
        route: `/${tagSlug(group.tag)}/${facts.operationId.toLowerCase()}`,
        method: facts.method,
        path: facts.path,
        signed: facts.auth === 'signed',
        ...(facts.auth === 'gateway-token' && { token: tokenOf(facts.operationId) }),
        pathParams: view.parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name),
        examples: view.parametersExample
          ? [
              {
                name: 'parameters',
                summary: "The parameters' first examples",
                fields: { ...view.parametersExample.path, ...view.parametersExample.query },
              },
            ]
          : view.requestExamples.map((example) => ({
              name: example.name,
              summary: String(at(declared, example.name, 'summary') ?? example.name),
              fields: Object.fromEntries(
                Object.entries((example.value ?? {}) as Record<string, unknown>).filter(
                  ([field]) => !signedFields.has(field),
                ),
              ),
            })),
      });
    }
  }
  return { defaultTarget: `http://127.0.0.1:${process.env.SANDBOX_PORT || 4012}`, operations: list };
}

/** The panel's script, the request it builds and the signing recipe that signs it, into the site's assets. */
export function writeTryItAssets(assetsDir: string): void {
  mkdirSync(assetsDir, { recursive: true });
  copyFileSync(join(projectRoot, 'docs/try-it/try-it.mjs'), join(assetsDir, 'try-it.mjs'));
  copyFileSync(join(projectRoot, tryItRequestFile), join(assetsDir, 'try-it-request.mjs'));
  copyFileSync(join(projectRoot, 'docs/recipes/sign.mjs'), join(assetsDir, 'sign.mjs'));
}

/** A reference page with the panel: its data as JSON, then the script. */
export function withTryIt(html: string, data: TryItData): string {
  const json = JSON.stringify(data).replaceAll('<', '\\u003c');
  const tags = `<script type="application/json" id="try-it-data">${json}</script>\n<script type="module" src="./assets/try-it.mjs"></script>\n`;
  const end = html.lastIndexOf('</body>');
  return end < 0 ? html + tags : `${html.slice(0, end)}${tags}${html.slice(end)}`;
}
