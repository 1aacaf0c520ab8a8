// The page of the signing recipes (docs/recipes.ts): how a private call is signed, then each
// recipe's file as it is, with the line that runs it.
import { signingHeaders } from '../generated/operations.ts';
import { escapeHtml } from './landing.ts';
import { headerStyle, siteHeader } from './layout.ts';
import { ownPageHead } from './readable-page.ts';
import { recipeSource, recipes, recipeUsage } from './recipes.ts';

export const signingPage = 'signing';

export function renderSigningPage(root?: string): string {
  const sections = recipes
    .map(
      (recipe) => `    <section class="recipe" id="${recipe.id}" data-file="${escapeHtml(recipe.file)}">
      <h2>${escapeHtml(recipe.title)}</h2>
      <p>Run it with the three variables set (<code>npm start</code> prints the sandbox's):</p>
      <pre class="usage"><code>${escapeHtml(recipeUsage(recipe))}</code></pre>
      <pre class="source"><code>${escapeHtml(recipeSource(recipe, root))}</code></pre>
    </section>`,
    )
    .join('\n');
  return `${ownPageHead(
    'Signing without the package',
    `${headerStyle}    pre { background: #f6f8fa; padding: 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }`,
  )}
<body>
${siteHeader('./signing.html')}
  <main>
    <h1>Signing a private call without the package</h1>
    <p><a href="./index.html">Back to the docs</a>. Every private call is a <code>POST</code> whose JSON
    body holds <code>request</code> (the path) and <code>nonce</code> (greater than the last one the
    key used; a millisecond timestamp does) beside the operation's own fields, and three headers:</p>
    <ul id="signing-headers">
      <li><code>${escapeHtml(signingHeaders.ApiKey)}</code>: the API key;</li>
      <li><code>${escapeHtml(signingHeaders.Payload)}</code>: the body's exact bytes in base64;</li>
      <li><code>${escapeHtml(signingHeaders.Signature)}</code>: HMAC-SHA512 of that payload, keyed with
      the secret, in lowercase hex.</li>
    </ul>
    <p>The body sent must be the bytes that were encoded, compact JSON. Each recipe below is run
    against the sandbox, which verifies every signature, by <code>npm test</code>.</p>
${sections}
  </main>
</body>
</html>
`;
}
