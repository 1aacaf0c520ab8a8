// "Try it" on the reference pages: a panel that sends the operation shown (the page's route) to
// the sandbox or a mock that `npm start` runs, signed here with Web Crypto (./sign.mjs, the
// signing recipe, by way of ./try-it-request.mjs). The body starts from the operation's named examples. The secret is typed into
// a password field and never shown: the request displayed carries the key, the payload and the
// signature only. Nothing is sent to an origin that is not this machine.
import { tryItRequest } from './try-it-request.mjs';

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
const data = JSON.parse(document.getElementById('try-it-data')?.textContent ?? '{"operations":[]}');
const operations = data.operations;

/** The origin typed, if it is an http(s) origin on this machine; else why not. */
export function localOrigin(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return { error: `not a URL: ${text}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'only http and https' };
  if (!localHosts.has(url.hostname))
    return { error: `${url.hostname} is not this machine: Try it only calls 127.0.0.1 or localhost` };
  return { origin: url.origin };
}

const element = (tag, attributes = {}, children = []) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
};

function buildPanel() {
  const style = element('style');
  style.textContent = `
    #try-it-toggle { position: fixed; right: 1rem; bottom: 1rem; z-index: 1000; padding: 0.5rem 1rem; border-radius: 999px; border: 0; background: #0044d4; color: #fff; font: 600 0.9rem system-ui, sans-serif; cursor: pointer; }
    #try-it { position: fixed; right: 1rem; bottom: 3.5rem; z-index: 1000; width: min(30rem, calc(100vw - 2rem)); max-height: calc(100vh - 5rem); overflow: auto; background: #fff; color: #1f2328; border: 1px solid #d0d7de; border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.2); padding: 1rem; font: 0.85rem system-ui, sans-serif; }
    #try-it[hidden] { display: none; }
    #try-it label { display: block; margin-top: 0.5rem; font-weight: 600; }
    #try-it input, #try-it select, #try-it textarea { width: 100%; box-sizing: border-box; font: 0.8rem ui-monospace, monospace; padding: 0.25rem; }
    #try-it pre { background: #f6f8fa; padding: 0.5rem; white-space: pre-wrap; overflow-wrap: anywhere; font: 0.75rem ui-monospace, monospace; }
    #try-it .refused { color: #cf222e; }
    #try-it button.send { margin-top: 0.75rem; padding: 0.4rem 1rem; }`;
  const toggle = element('button', { id: 'try-it-toggle', type: 'button' }, ['Try it']);
  const panel = element('section', { id: 'try-it', hidden: '', 'aria-label': 'Try it' });
  panel.innerHTML = `
    <strong>Try it</strong> <span id="try-it-operation"></span>
    <label for="try-it-target">Server (this machine only)</label>
    <input id="try-it-target">
    <label for="try-it-example">Example</label>
    <select id="try-it-example"></select>
    <label for="try-it-body">Body fields (JSON; request and nonce are added)</label>
    <textarea id="try-it-body" rows="6"></textarea>
    <div id="try-it-credentials">
      <label for="try-it-key">API key</label>
      <input id="try-it-key" autocomplete="off">
      <label for="try-it-secret">API secret (never shown or stored)</label>
      <input id="try-it-secret" type="password" autocomplete="off">
    </div>
    <button class="send" id="try-it-send" type="button">Send</button>
    <div id="try-it-result"></div>`;
  document.head.append(style);
  document.body.append(toggle, panel);
  panel.querySelector('#try-it-target').value = data.defaultTarget;
  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) show(current());
  });
  window.addEventListener('hashchange', () => show(current()));
  panel.querySelector('#try-it-example').addEventListener('change', (event) => {
    const operation = current();
    const example = operation?.examples.find((candidate) => candidate.name === event.target.value);
    panel.querySelector('#try-it-body').value = JSON.stringify(example?.fields ?? {}, null, 2);
  });
  panel.querySelector('#try-it-send').addEventListener('click', () => void send(current()));
}

/** The operation the page shows: the one whose route the address ends with. */
function current() {
  const route = decodeURIComponent(location.hash.replace(/^#/, ''));
  return operations.find((operation) => route === operation.route || route.startsWith(`${operation.route}/`));
}

function show(operation) {
  const panel = document.getElementById('try-it');
  panel.querySelector('#try-it-operation').textContent = operation
    ? `${operation.method.toUpperCase()} ${operation.path}`
    : '(open an operation)';
  // A token call needs the key too: the panel gets the token with a signed call first.
  panel.querySelector('#try-it-credentials').hidden = !(operation?.signed || operation?.token);
  const select = panel.querySelector('#try-it-example');
  select.replaceChildren(
    ...(operation?.examples ?? []).map((example) =>
      element('option', { value: example.name }, [example.summary]),
    ),
  );
  panel.querySelector('#try-it-body').value = JSON.stringify(operation?.examples[0]?.fields ?? {}, null, 2);
  panel.querySelector('#try-it-result').replaceChildren();
}

function showResult(parts) {
  document.getElementById('try-it-result').replaceChildren(...parts);
}

/** A fiat-gateway token, from the signed call the operation's token comes from, or why not. */
async function send(operation) {
  if (!operation) return showResult([element('p', { class: 'refused' }, ['Open an operation first.'])]);
  const target = localOrigin(document.getElementById('try-it-target').value.trim());
  if (target.error) return showResult([element('p', { class: 'refused' }, [`Not sent: ${target.error}`])]);
  let fields;
  try {
    fields = JSON.parse(document.getElementById('try-it-body').value || '{}');
  } catch (error) {
    return showResult([
      element('p', { class: 'refused' }, [`Not sent: the body is not JSON (${error.message})`]),
    ]);
  }
  const request = await tryItRequest({
    operation,
    origin: target.origin,
    fields,
    apiKey: document.getElementById('try-it-key').value,
    apiSecret: document.getElementById('try-it-secret').value,
  });
  if (request.error) return showResult([element('p', { class: 'refused' }, [`Not sent: ${request.error}`])]);
  const method = operation.method.toUpperCase();
  const shown = [
    `${method} ${request.url}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${request.hidden?.[name] ?? value}`),
    ...(request.body ? ['', request.body] : []),
  ].join('\n');
  const parts = [element('h4', {}, ['Request']), element('pre', { id: 'try-it-request' }, [shown])];
  try {
    const response = await fetch(request.url, {
      method,
      headers: request.headers,
      body: request.body,
      redirect: 'error',
    });
    const text = await response.text();
    let pretty = text;
    try {
      pretty = JSON.stringify(JSON.parse(text), null, 2);
    } catch {}
    parts.push(
      element('h4', {}, ['Answer']),
      element('pre', { id: 'try-it-answer', 'data-status': String(response.status) }, [
        `HTTP ${response.status}\n${pretty}`,
      ]),
    );
  } catch (error) {
    parts.push(
      element('p', { class: 'refused', id: 'try-it-answer' }, [
        `No answer: ${error.message} (is npm start running, and does the server allow this page's origin?)`,
      ]),
    );
  }
  showResult(parts);
}

buildPanel();
