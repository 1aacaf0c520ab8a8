import { invalidInputs, reproducibleFailures } from './contract-tests/cases.ts';
import { createModel, operationIds } from './contract-tests/support/documents.ts';
const model = createModel();
let n = 0;
for (const id of operationIds) { const c = invalidInputs(model, id); n += c.length; console.log(id, c.length, c.map(x => `${x.name} [${x.field}]`).join(' | ')); console.log('   repro', JSON.stringify(reproducibleFailures(model, id).map(r=>[r.example,r.status,r.fields]))); }
console.log('total', n);
