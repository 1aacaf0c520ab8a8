// Preloaded (`node --import`) into every server process the project starts: Prism, the sandbox,
// the contract suite's vitest. It ends this process when the process that started it is gone,
// however that ended, SIGKILL included, when nothing else would stop it: these servers run in
// process groups of their own, out of reach of a signal sent to their parent's group.
//
// The parent spawns it with an IPC channel (scripts/child-process.ts). The kernel closes the
// channel when the parent dies, and Node reports that as 'disconnect'. The channel is unref'd:
// it never keeps this process alive by itself. Plain JavaScript, so that a third-party CLI such as
// Prism can load it without a TypeScript loader.
if (process.channel) {
  process.once('disconnect', () => {
    // The parent is gone: nobody reads this process's output or stops it any more.
    process.exit(1);
  });
  process.channel.unref();
}
