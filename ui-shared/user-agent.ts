/**
 * The browser and operating system a User-Agent names, for a person to recognise their sessions ("Firefox on
 * Linux"). A small table of the tokens browsers send (RFC 9110 §10.1.5 User-Agent: product tokens), checked
 * in order because browsers borrow each other's: Edge and Opera also say Chrome, Chrome also says Safari.
 * Anything unrecognised is left out, and the caller shows the raw string or a generic name instead.
 */

export interface DescribedAgent {
  browser?: string;
  os?: string;
}

/** First match wins: the more specific product before the one it claims to be compatible with. */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\b(Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

function firstMatch(text: string, table: readonly (readonly [RegExp, string])[]): string | undefined {
  return table.find(([pattern]) => pattern.test(text))?.[1];
}

export function describeUserAgent(userAgent: string | null | undefined): DescribedAgent {
  // Server-side the value is at most 512 characters; bounded again here so a pattern never scans more.
  const text = (userAgent ?? '').slice(0, 512);
  const described: DescribedAgent = {};
  const browser = firstMatch(text, BROWSERS);
  const os = firstMatch(text, SYSTEMS);
  if (browser) described.browser = browser;
  if (os) described.os = os;
  return described;
}
