/** A byte count as B / KB / MB with the locale's number format. */
export function formatSize(bytes: number, number: (n: number, digits?: number) => string) {
  if (bytes < 1024) return `${number(bytes)} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024, 1)} KB`;
  return `${number(bytes / 1024 / 1024, 1)} MB`;
}
