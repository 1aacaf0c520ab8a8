// A CommonJS consumer: require() of the ES module package (Node 20.19 and later).
const api = require('txc-api-v4');
const operations = require('txc-api-v4/operations');

console.log(
  JSON.stringify({
    createPrivateClient: typeof api.createPrivateClient,
    createSigningMiddleware: typeof api.createSigningMiddleware,
    invest: api.ActionType.INVEST,
    operations: Object.keys(operations.operations).length,
  }),
);
