/**
 * The wait before another code may be sent: a fixed pause after each send (so a person does not flood their
 * own inbox and the server's limits), or as long as the server said when it refused with a wait (Retry-After).
 */
import { useEffect, useState } from 'react';
import { ApiError } from '../../../ui-shared/graphql-client.ts';

export const RESEND_PAUSE_SECONDS = 30;

export function useCoolDown(): { secondsLeft: number; start: (seconds?: number) => void; startFromError: (err: unknown) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(1000, until - now));
    return () => window.clearTimeout(timer);
  }, [until, now]);
  const start = (seconds = RESEND_PAUSE_SECONDS) => {
    const at = Date.now();
    setNow(at);
    setUntil(at + seconds * 1000);
  };
  const startFromError = (err: unknown) => {
    if (err instanceof ApiError && err.retryAfter) start(err.retryAfter);
  };
  return { secondsLeft: Math.max(0, Math.ceil((until - now) / 1000)), start, startFromError };
}
