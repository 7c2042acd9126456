/**
 * What the Security page's sessions section shows of a session: the browser and system a User-Agent names
 * (ui-shared/user-agent.ts), whose tokens browsers borrow from each other, and "2 hours ago" in the page's
 * language (login-ui/src/security/relative-time.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeUserAgent } from '../../ui-shared/user-agent.ts';
import { relativeTime } from '../../login-ui/src/security/relative-time.ts';

test('browsers and systems are told apart, the borrowed tokens notwithstanding', () => {
  const cases: [string, { browser?: string; os?: string }][] = [
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', { browser: 'Firefox', os: 'Linux' }],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', { browser: 'Chrome', os: 'Windows' }],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87', { browser: 'Edge', os: 'Windows' }],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', { browser: 'Safari', os: 'macOS' }],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', { browser: 'Safari', os: 'iOS' }],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1', { browser: 'Chrome', os: 'iOS' }],
    ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', { browser: 'Samsung Internet', os: 'Android' }],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 OPR/82.0.0.0', { browser: 'Opera', os: 'Android' }],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', { browser: 'Chrome', os: 'ChromeOS' }],
    ['curl/8.5.0', { browser: 'curl' }],
    ['grpc-node-js/1.12.0', {}],
    ['', {}],
  ];
  for (const [agent, expected] of cases) assert.deepEqual(describeUserAgent(agent), expected, agent);
  assert.deepEqual(describeUserAgent(null), {});
  assert.deepEqual(describeUserAgent(undefined), {});
});

test('relative times take the largest unit that fits, in the given language', () => {
  const now = Date.UTC(2026, 0, 10, 12, 0, 0);
  const at = (secondsAgo: number) => Math.floor(now / 1000) - secondsAgo;
  assert.equal(relativeTime(at(5), 'en', now), 'this minute');
  assert.equal(relativeTime(at(-30), 'en', now), 'this minute', 'a clock slightly ahead never reads "in"');
  assert.equal(relativeTime(at(5 * 60), 'en', now), '5 minutes ago');
  assert.equal(relativeTime(at(90 * 60), 'en', now), '1 hour ago');
  assert.equal(relativeTime(at(2 * 3600 + 59), 'en', now), '2 hours ago');
  assert.equal(relativeTime(at(86_400 + 10), 'en', now), 'yesterday');
  assert.equal(relativeTime(at(3 * 86_400), 'en', now), '3 days ago');
  assert.equal(relativeTime(at(15 * 86_400), 'en', now), '2 weeks ago');
  assert.equal(relativeTime(at(2 * 3600), 'fr', now), 'il y a 2 heures');
});
