// The loopback server every HTTP contender calls: node:http on 127.0.0.1, an ephemeral port,
// one fixed JSON balance body for every request. It runs in its own child process (so that it
// has its own event loop and core), reports its port over IPC (or stdout without IPC), and
// exits when its parent disconnects or tells it to stop.
import { createServer } from 'node:http';

const body = JSON.stringify({
  BTC: { main_balance: '0.0013929494020316' },
  ETH: { main_balance: '0.001398289308' },
  USDT: { main_balance: '1250.5' },
});
const length = String(Buffer.byteLength(body));

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;

const stop = () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
};
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('message', (message) => {
  if (message === 'stop') stop();
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (process.send) process.send({ port });
  else console.log(JSON.stringify({ port }));
});
