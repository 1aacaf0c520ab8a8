// `npm run check:prerequisites`, the first step of `npm test`: one line per missing tool, exit 1.
import { findChromium, findTmux } from './prerequisites.ts';

const problems = [findChromium(), findTmux()].flatMap((found) => ('problem' in found ? [found.problem] : []));
for (const problem of problems) console.error(problem);
process.exitCode = problems.length > 0 ? 1 : 0;
