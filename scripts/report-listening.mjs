// Preloaded (`node --import`, scripts/listening.ts) into a server whose parent waits for it to
// listen, when the server says nothing the parent could read (Prism tells it only in the log lines
// it is asked not to write): each time a server of this process has started listening, ready to
// accept connections, the parent is told its address over the IPC channel the parent gave it
// (scripts/child-process.ts). Plain JavaScript, so that a third-party CLI can load it without a
// TypeScript loader.
import { subscribe } from 'node:diagnostics_channel';

if (process.send) {
  // Node publishes this once `listen` has bound the address and the socket accepts connections.
  subscribe('tracing:net.server.listen:asyncEnd', (message) => {
    const address = message.server.address();
    if (address && typeof address === 'object') process.send?.({ listening: address.port });
  });
}
