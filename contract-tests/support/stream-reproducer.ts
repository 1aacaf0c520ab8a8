// What the report says under a failed stream check: the frames the failing connection sent, in
// order, as one websocat command a reader pastes into a shell. `-n` keeps the connection open
// after the last frame (websocat otherwise closes it at the end of its input, before the updates
// come); Ctrl-C ends it. A token sent to anything but the stream mock is written as
// "$CONTRACT_STREAM_TOKEN", for the shell to put in: it is never printed.
import { contractVariables } from '../../model/environment.ts';
import { reproducerHeading } from './reproducer.ts';
import type { StreamContext } from './stream-target.ts';
import { describeTarget } from './variables.ts';

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The websocat command that sends `sent` to the stream target, one frame a line. */
export function websocatLine(stream: StreamContext, sent: readonly string[]): string {
  const token = stream.token && !stream.mock ? JSON.stringify(stream.token).slice(1, -1) : undefined;
  // Runs of frames without the token go out through one printf each; a frame with it through a
  // printf whose format puts it in from the environment.
  const commands: string[] = [];
  let plain: string[] = [];
  const flush = () => {
    if (plain.length > 0) commands.push(`printf '%s\\n' ${plain.map(shellQuote).join(' ')}`);
    plain = [];
  };
  for (const frame of sent) {
    if (token && frame.includes(token)) {
      flush();
      const format = frame.replaceAll('%', '%%').split(token).join('%s');
      const count = frame.split(token).length - 1;
      const values = Array.from({ length: count }, () => `"$${contractVariables.streamToken}"`).join(' ');
      commands.push(`printf ${shellQuote(`${format}\\n`)} ${values}`);
    } else plain.push(frame);
  }
  flush();
  const input = commands.length === 1 ? commands[0] : `{ ${commands.join('; ')}; }`;
  return `${input} | websocat -n ${shellQuote(describeTarget(stream.url ?? ''))}`;
}

/** The reproducer block of a failed stream check, after its problems. */
export function streamReproducer(stream: StreamContext, sent: readonly string[]): string {
  const needsToken =
    stream.token !== undefined &&
    !stream.mock &&
    sent.some((frame) => frame.includes(stream.token as string));
  return [
    `${reproducerHeading} websocat (-n keeps the connection open for the updates; Ctrl-C ends it${needsToken ? `; set ${contractVariables.streamToken}` : ''}):`,
    `  ${websocatLine(stream, sent)}`,
  ].join('\n');
}
