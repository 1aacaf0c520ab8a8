// The part of npm-run-all2's Node API that scripts/test-stages.ts uses (the package has no types).
declare module 'npm-run-all2' {
  interface RunAllOptions {
    parallel?: boolean;
    continueOnError?: boolean;
    printLabel?: boolean;
    printName?: boolean;
    aggregateOutput?: boolean;
    maxParallel?: number;
    silent?: boolean;
    stdin?: NodeJS.ReadableStream | null;
    stdout?: NodeJS.WritableStream | null;
    stderr?: NodeJS.WritableStream | null;
  }
  /** Runs the npm scripts matching `patterns`; rejects with `results` when one failed. */
  export default function runAll(
    patterns: string | string[],
    options?: RunAllOptions,
  ): Promise<{ name: string; code: number | undefined }[]>;
}
