// The clock the stream bench's two processes share: the system's monotonic clock (libuv's hrtime,
// CLOCK_MONOTONIC on Linux), which every process on the machine reads alike, unlike
// `performance.now()`, whose origin is each process's start. So a time the server takes as it
// sends an update and one the consumer takes as it receives it can be subtracted.

/** The monotonic clock in microseconds (with a fraction). */
export const monotonicMicros = (): number => Number(process.hrtime.bigint()) / 1000;
