// What a failure's reproducers show of a fiat-gateway call: the card number (x-sensitive) by its
// last four digits only, in the txc line and the curl body, and the gateway token by the reader's
// own variable, never its value.
import { describe, expect, it } from 'vitest';
import { reproducer } from '../../contract-tests/support/reproducer.ts';
import { environmentVariables } from '../../model/environment.ts';

const token = 'eyJhbGciOiJSUzI1NiJ9.token-under-test.sig';

describe('the reproducer of a fiat-gateway call', () => {
  it('masks the card number and names the token by its variable', async () => {
    const text = await reproducer(
      { target: 'http://127.0.0.1:9', mock: false, allowWrites: false, urls: {} },
      'issueCardToken',
      {
        url: 'http://127.0.0.1:9/api/card-token',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({ cardNumber: '4111111111111111' }),
      },
      undefined,
    );
    expect(text).not.toContain('4111111111111111');
    expect(text).toContain('************1111');
    expect(text).not.toContain(token);
    expect(text).toContain(`$${environmentVariables.gatewayToken}`);
  });
});
