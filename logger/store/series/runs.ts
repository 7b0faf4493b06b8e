/**
 * Calls `each(a, b)` for every run of consecutive sample numbers in `slots[0..n)`: rows a..b-1 sit
 * on slots[a], slots[a] + 1, … — so each run of a column is one append.
 */
export function forEachRun(slots: Float64Array, n: number, each: (a: number, b: number) => void): void {
  for (let a = 0; a < n; ) {
    let b = a + 1;
    while (b < n && slots[b] === slots[b - 1]! + 1) b++;
    each(a, b);
    a = b;
  }
}
