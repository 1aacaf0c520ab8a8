// `txc --validate`: the answer is checked against the documents; drift is one line per problem on
// stderr naming the check and the field, the answer is still printed, and the exit code is 1.
// Without the flag the same answer passes unremarked. A local server answers the drifted body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../client/local-server.ts';
import { credentials, runTxc } from './helpers.ts';

const key = { apiKey: 'validate-key', secret: 'validate-secret-0123456789' };
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((_request, response) => json(response, 200, { main_balance: 7 }));
});
afterAll(() => server.close());

describe('txc --validate', () => {
  it('prints the drift, still prints the answer, and exits 1', async () => {
    const run = await runTxc(['balance', '--validate', '--json'], credentials(server.url, key));
    expect(run.stderr).toContain(
      'txc: drift: getMainBalance HTTP 200: response_schema_conformance main_balance: must be string',
    );
    expect(JSON.parse(run.stdout)).toEqual({ main_balance: 7 });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(key.secret);
  });

  it('without the flag, the same answer is printed and exits 0', async () => {
    const run = await runTxc(['balance', '--json'], credentials(server.url, key));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});
