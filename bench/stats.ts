// Small numeric helpers shared by the bench sections.

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile of unsorted values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** 12345.6 → "12,346"; NaN → "n/a". */
export function count(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

export function fixed(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 100
    ? `${value.toFixed(0)} ms`
    : value >= 10
      ? `${value.toFixed(1)} ms`
      : `${value.toFixed(2)} ms`;
}

export function kb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(2)} KB` : 'n/a';
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a';
}
