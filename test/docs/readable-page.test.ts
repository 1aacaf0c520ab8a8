// The docs pages' descriptions are unwrapped for Redoc's search snippets without changing what
// markdown renders: only soft breaks inside paragraphs become spaces.
import { describe, expect, it } from 'vitest';
import { readablePage, unwrapDescriptions, unwrapParagraphs } from '../../docs/readable-page.ts';

describe('unwrapParagraphs', () => {
  it('joins the lines of a paragraph and of a list item, keeps every block apart', () => {
    const markdown = [
      'The response is',
      'not cached.',
      '',
      'Observed upstream:',
      '- the body is serialized once,',
      '  as compact JSON;',
      '- a second item',
      '',
      '## Heading',
      '| a | b |',
      '|---|---|',
      '```json',
      '{"code": 9,',
      ' "message": "x"}',
      '```',
      'hard break  ',
      'next line',
    ].join('\n');
    expect(unwrapParagraphs(markdown).split('\n')).toEqual([
      'The response is not cached.',
      '',
      'Observed upstream:&#32;',
      '- the body is serialized once, as compact JSON;&#32;',
      '- a second item',
      '',
      '## Heading',
      '| a | b |',
      '|---|---|',
      '```json',
      '{"code": 9,',
      ' "message": "x"}',
      '```',
      'hard break  ',
      'next line',
    ]);
  });

  it('rewrites only the embedded descriptions, as valid JSON safe inside a script', () => {
    const state = { description: 'is\nnot </script> cached', summary: 'a\nb' };
    const html = `<html><head></head><body><script>const __state = ${JSON.stringify(state)};</script></body></html>`;
    const page = readablePage(html);
    const json = /const __state = (.*);<\/script>/.exec(page)?.[1] as string;
    expect(JSON.parse(json)).toEqual({ description: 'is not </script> cached', summary: 'a\nb' });
    expect(json).not.toContain('</script>');
    expect(page).toContain('<link rel="icon"');
    // One <base>, in the head, with no href: the page's URLs resolve against its own address.
    expect(page.match(/<base\b[^>]*>/g)).toEqual(['<base target="_self">']);
    expect(page.indexOf('<base')).toBeLessThan(page.indexOf('</head>'));
    expect(unwrapDescriptions('"description":"a\\\\nb"')).toBe('"description":"a\\\\nb"');
  });
});
