/**
 * One time convention everywhere (issue 15 §6): headers, tables, chart axes, read-outs and date
 * fields all show the 24-hour clock, as test cells and control rooms read time, in every locale;
 * only the order of day, month and year follows the locale. Every Intl.DateTimeFormat that shows
 * a time of day is built with these options.
 */
export const TIME_CONVENTION = { hourCycle: "h23" } as const satisfies Intl.DateTimeFormatOptions;

export function withTimeConvention(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormatOptions {
  return { ...options, ...TIME_CONVENTION };
}
