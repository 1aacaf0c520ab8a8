// Preloaded (`node --require`, scripts/prism-command.ts) into every Prism the project starts: it
// takes away two costs Prism pays for nothing in our use of it, and changes no answer. Plain
// CommonJS, loaded before Prism's own modules, which are CommonJS too. Should Prism's insides
// change (a version other than the one pinned), each part leaves Prism as it is.
//
// 1. Faker with English alone. Prism's dynamic example generator loads @faker-js/faker, whose
//    entry point loads all of its 57 locales for a faker that speaks English: about 0.6 CPU-s of
//    each start (measured), and the project starts a score of Prisms per npm test. The generator
//    gets faker's English-only build, the same default locale, from the module cache.
// 2. Routing remembered. For each request Prism's router scores and sorts every operation of
//    the document and compiles each path template into a pattern: about 40 % of the private
//    mock's CPU in a contract run (measured with both parts, 26 against 15 CPU-s). Its answer depends only on the
//    method, the base URL and the path, and on the operations, which a reload of the document
//    replaces with a new list: so it is kept per list, and the list's entries are dropped once
//    there are many (a mock left running for days sees any number of paths).
const { dirname } = require('node:path');

const maxRoutesKept = 10_000;

/** Resolves `request` as Prism's HTTP package does, from where the installed Prism finds it. */
function prismPart(request) {
  const within = (from, name) => dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
  const prismHttp = within(within(__dirname, '@stoplight/prism-cli'), '@stoplight/prism-http');
  return require.resolve(request, { paths: [prismHttp] });
}

function fakerInEnglish() {
  const Module = require('node:module');
  const filename = prismPart('@faker-js/faker');
  const english = require(prismPart('@faker-js/faker/locale/en'));
  if (typeof english?.name?.firstName !== 'function') return;
  const lean = new Module(filename, module);
  lean.filename = filename;
  lean.loaded = true;
  // What Prism reads of the module: its default export (a faker), under both names it has.
  lean.exports = { __esModule: true, default: english, faker: english };
  require.cache[filename] = lean;
}

function rememberedRoutes() {
  const router = require(prismPart('@stoplight/prism-http/dist/router'));
  const route = router.default;
  if (typeof route !== 'function') return;
  const byOperations = new WeakMap();
  router.default = (request) => {
    const { resources, input } = request;
    let routes = byOperations.get(resources);
    if (!routes || routes.size >= maxRoutesKept) {
      routes = new Map();
      byOperations.set(resources, routes);
    }
    const key = `${input.method} ${input.url.baseUrl ?? ''} ${input.url.path}`;
    let routed = routes.get(key);
    if (routed === undefined) {
      routed = route(request);
      routes.set(key, routed);
    }
    return routed;
  };
}

for (const part of [fakerInEnglish, rememberedRoutes]) {
  try {
    part();
  } catch {
    // Not the Prism this was written against: it runs as it is.
  }
}
