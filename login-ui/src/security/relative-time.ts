/**
 * "2 hours ago" in the page's language (Intl.RelativeTimeFormat, ECMA-402 §17): the largest unit that fits,
 * rounded down, so a session used 90 minutes ago reads "1 hour ago". Within the last minute: "this minute".
 */
const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

export function relativeTime(unixSeconds: number, language: string, nowMs = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  // A clock a little ahead of this browser's must not read "in 1 minute".
  const ago = Math.max(0, Math.floor(nowMs / 1000) - unixSeconds);
  for (const [unit, seconds] of UNITS) {
    if (ago >= seconds) return format.format(-Math.floor(ago / seconds), unit);
  }
  return format.format(0, 'minute');
}
