// The landing page's list of operations: grouped by their document's tag, each linking to its
// section in the Redoc page, with badges for the facts a caller plans around (rate limit,
// partner-only, writes) read from generated/operations.ts.
import { operations } from '../generated/operations.ts';
import type { ApiDocument } from '../model/document.ts';
import { arrayAt, stringAt } from '../model/json.ts';

export const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

type Operation = (typeof operations)[keyof typeof operations];

/** Redoc's route segment for a tag (`Main account` → `main-account`), as its sidebar links use. */
export const tagSlug = (tag: string): string => tag.toLowerCase().replaceAll(' ', '-');

/** The Redoc page and hash an operation's section lives at. */
export function operationHref(page: string, tag: string, operationId: string): string {
  return `./${page}#/${tagSlug(tag)}/${operationId.toLowerCase()}`;
}

export interface OperationGroup {
  tag: string;
  description: string;
  page: string;
  operations: Operation[];
}

/** The operations of each document, by tag in the order the document lists its tags. */
export function operationGroups(apis: readonly ApiDocument[]): OperationGroup[] {
  const groups: OperationGroup[] = [];
  for (const api of apis) {
    const document = api.dereferenced;
    const tagOf = (operation: Operation): string =>
      stringAt(document, 'paths', operation.path, operation.method, 'tags', 0) ?? 'Other';
    const own = Object.values(operations).filter((operation) => operation.api === api.name);
    const declared = arrayAt(document, 'tags').map((tag) => ({
      name: stringAt(tag, 'name') ?? '',
      description: stringAt(tag, 'description'),
    }));
    const names = [...new Set([...declared.map((tag) => tag.name), ...own.map(tagOf)])];
    for (const tag of names) {
      const members = own.filter((operation) => tagOf(operation) === tag);
      if (members.length === 0) continue;
      groups.push({
        tag,
        description: declared.find((entry) => entry.name === tag)?.description ?? '',
        page: `${api.name}.html`,
        operations: members,
      });
    }
  }
  return groups;
}

/** `10000 per 10 s`, marked when the figure is observed upstream rather than specified. */
export function rateLimitText(operation: Operation): string {
  const { requests, windowSeconds, source } = operation.rateLimit;
  return `${requests} per ${windowSeconds} s${source === 'observed-upstream' ? ' (observed)' : ''}`;
}

function badges(operation: Operation): string {
  const out = [
    `<span class="badge rate-limit" title="Rate limit per key (${escapeHtml(operation.rateLimit.source)})">${escapeHtml(rateLimitText(operation))}</span>`,
  ];
  if (operation.partnerOnly)
    out.push(
      '<span class="badge partner-only" title="Only B2B partner services may call it">partners only</span>',
    );
  if (operation.writes)
    out.push('<span class="badge writes" title="Changes state: not repeated on its own">writes</span>');
  return out.join(' ');
}

export function renderOperationGroups(groups: readonly OperationGroup[]): string {
  return groups
    .map((group) => {
      const items = group.operations
        .map(
          (operation) =>
            `        <li data-operation-id="${escapeHtml(operation.operationId)}">` +
            `<a href="${escapeHtml(operationHref(group.page, group.tag, operation.operationId))}">` +
            `<span class="method">${operation.method.toUpperCase()}</span> <code>${escapeHtml(operation.path)}</code>` +
            `<span class="summary">${escapeHtml(operation.summary)}</span></a> ${badges(operation)}</li>`,
        )
        .join('\n');
      return `      <section class="tag" data-tag="${escapeHtml(group.tag)}">
        <h3>${escapeHtml(group.tag)}</h3>
        ${group.description ? `<p class="tag-description">${escapeHtml(group.description.replace(/\s+/g, ' ').trim())}</p>` : ''}
      <ul class="operations">
${items}
      </ul>
      </section>`;
    })
    .join('\n');
}
