// The project's layers, checked by `npm run lint` (dependency-cruiser): imports point down only,
//   openapi/, asyncapi/ -> generated/ -> model/ -> src/ -> scripts/ -> sandbox/ -> contract-tests/, docs/, bench/ -> test/
// (a layer imports from itself and the layers before it; the four last are peers, and only test/
// imports from the other three), and nothing imports in a cycle. Within src/, one call reads down:
// client -> engine -> attempts -> hooks, request checks, rate window -> transport, signing -> errors
// -> waits. CONTRIBUTING.md draws the picture.

/** Every layer, lowest first; each may import from the ones before it. */
const layers = ['generated', 'model', 'src', 'scripts', 'sandbox', 'contract-tests|docs|bench', 'test'];

const above = (index) => `^(${layers.slice(index + 1).join('|')})/`;

/** A layer's files, and whether it may import from the peers of its own step. */
const layerRules = layers.slice(0, -1).flatMap((layer, index) => {
  const rules = [
    {
      name: `${layer.split('|').join('-')}-imports-down`,
      comment: `${layer.split('|').join(', ')} may import only from ${layers.slice(0, index).join(', ') || 'nothing of the project'}`,
      severity: 'error',
      // The code samples generated/samples/ holds are a reader's program: they import the
      // package by its name, as a user does, and nothing imports them.
      from: { path: `^(${layer})/`, ...(layer === 'generated' ? { pathNot: '^generated/samples/' } : {}) },
      to: { path: above(index) },
    },
  ];
  if (layer.includes('|')) {
    // Peers: contract-tests, docs and bench do not import each other.
    for (const peer of layer.split('|')) {
      rules.push({
        name: `${peer}-not-to-its-peers`,
        comment: `${peer} does not import from the other top layers (only test/ imports from them)`,
        severity: 'error',
        from: { path: `^${peer}/` },
        to: {
          path: `^(${layer
            .split('|')
            .filter((other) => other !== peer)
            .join('|')})/`,
        },
      });
    }
  }
  return rules;
});

/** src/'s call path, top first: a module imports only from those after it. */
const callPath = [
  '^src/(index|middleware)\\.ts$|^src/cli/',
  '^src/client\\.ts$',
  '^src/engine\\.ts$',
  '^src/attempts\\.ts$',
  '^src/(hooks|request-checks|rate-window)\\.ts$',
  '^src/(signing\\.ts|transport/)',
  '^src/errors\\.ts$',
  '^src/waits\\.ts$',
];
const callPathRules = callPath.slice(1).map((step, index) => ({
  name: `call-path-${index + 1}-points-down`,
  comment:
    'in src/, a call reads top-down: client -> engine -> attempts -> hooks, request checks, rate window -> transport, signing -> errors -> waits',
  severity: 'error',
  from: { path: step },
  to: { path: callPath.slice(0, index + 1).join('|') },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a cycle has no top to read from',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'src-only-the-names-of-model',
      comment:
        'the package ships src/ and generated/, and of model/ only the environment names (model/environment.ts): the rest reads YAML from disk',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^model/', pathNot: '^model/environment\\.ts$' },
    },
    {
      name: 'src-not-to-dev-dependencies',
      comment: 'what the package runs must be in its dependencies, not its devDependencies',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    ...callPathRules,
    {
      name: 'streams-beside-the-call-path',
      comment:
        'the stream client (src/streams/) stands beside the HTTP call path: of it, only errors.ts and waits.ts',
      severity: 'error',
      from: { path: '^src/streams/' },
      to: { path: '^src/', pathNot: '^src/(streams/|errors\\.ts$|waits\\.ts$)' },
    },
    {
      name: 'websockets-not-to-each-other',
      comment: 'each default WebSocket of #websocket stands alone behind the seam (streams/socket.ts)',
      severity: 'error',
      from: { path: '^src/streams/websocket-(node|global)\\.ts$' },
      to: { path: '^src/streams/websocket-(node|global)\\.ts$' },
    },
    {
      name: 'transports-not-to-each-other',
      comment: 'each transport stands alone behind the seam (transport/types.ts)',
      severity: 'error',
      from: { path: '^src/transport/(undici|fetch)\\.ts$' },
      to: { path: '^src/transport/(undici|fetch)\\.ts$' },
    },
  ],
  options: {
    includeOnly: '^(src|generated|model|scripts|sandbox|contract-tests|docs|bench|test)/',
    exclude: { path: '^test/typecheck/fixtures/' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from above is still a reference back up.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.json'],
    },
  },
};
