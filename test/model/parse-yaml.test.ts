// The parse kept on disk gives what the yaml package's parse gives, for each text as it is now.

import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parsedYamlFile, parseYaml } from '../../model/parse-yaml.ts';

/** A text no earlier run has met, so that its first parse is a parse. */
const fresh = (body: string) => `# ${randomUUID()}\n${body}`;

describe('parseYaml', () => {
  it('gives the value parse gives, first parsed, then read back, each time a value of its own', () => {
    const text = fresh("a: 1\nb: [x, 'y', 2.50]\nc: { d: null, e: true }\n'200': ok\n");
    const file = parsedYamlFile(text);
    try {
      const first = parseYaml(text);
      expect(first).toEqual(parse(text));
      expect(existsSync(file)).toBe(true);
      const second = parseYaml(text) as { b: unknown[] };
      expect(second).toStrictEqual(parse(text));
      expect(second).not.toBe(first);
      second.b.push('changed');
      expect(parseYaml(text)).toStrictEqual(parse(text));
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('gives an edited text its own value, never the one before the edit', () => {
    const before = fresh('summary: Before.\n');
    const after = before.replace('Before.', 'After.');
    try {
      expect(parseYaml(before)).toEqual({ summary: 'Before.' });
      expect(parseYaml(after)).toEqual({ summary: 'After.' });
      expect(parseYaml(before)).toEqual({ summary: 'Before.' });
    } finally {
      for (const text of [before, after]) rmSync(parsedYamlFile(text), { force: true });
    }
  });

  it('keeps no value JSON cannot give back, and parses it each time', () => {
    const text = fresh('limit: .inf\n');
    expect(parseYaml(text)).toEqual({ limit: Number.POSITIVE_INFINITY });
    expect(existsSync(parsedYamlFile(text))).toBe(false);
    expect(parseYaml(text)).toEqual({ limit: Number.POSITIVE_INFINITY });
  });

  it('throws as parse does on a text that does not parse, and keeps nothing', () => {
    const text = fresh('a: [1, 2\n');
    expect(() => parse(text)).toThrow();
    expect(() => parseYaml(text)).toThrow(/flow sequence|Missing/i);
    expect(existsSync(parsedYamlFile(text))).toBe(false);
  });
});
