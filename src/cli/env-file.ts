// --env-file: KEY=VALUE lines (the dotenv format Node itself reads, with comments and quotes).
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { UsageError } from './usage-error.ts';

export function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as { code?: string }).code ?? 'unreadable';
    throw new UsageError(`--env-file ${path}: cannot read it (${reason})`);
  }
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseEnv(text))) if (value !== undefined) values[name] = value;
  return values;
}
