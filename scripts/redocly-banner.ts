// The Redocly CLI's Node 20 banner, recognised so that `npm run lint` can drop it. @redocly/cli prints a framed
// "Node.js 20 support is ending" notice on every run under Node 20 and has no option or variable
// to turn it off (REDOCLY_SUPPRESS_UPDATE_NOTICE covers only the update notice). This project
// supports Node 20.19+ with the pinned CLI, so scripts/redocly-cli.ts drops the frame from stderr.

/** A line filter that drops a frame drawn with ╔…╚ (and the blank lines around it). */
export function withoutBanner(): (line: string) => string[] {
  let inFrame = false;
  let afterFrame = false;
  let blanks: string[] = [];
  return (line) => {
    if (inFrame) {
      if (line.includes('╚')) {
        inFrame = false;
        afterFrame = true;
      }
      return [];
    }
    if (line.includes('╔')) {
      inFrame = true;
      blanks = [];
      return [];
    }
    if (line.trim() === '') {
      if (afterFrame) return [];
      blanks.push(line);
      return [];
    }
    afterFrame = false;
    const out = [...blanks, line];
    blanks = [];
    return out;
  };
}
