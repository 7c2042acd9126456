/** A clock tests move forward (buildApp overrides.clock): real time plus an offset. */
import type { Clock } from '../../server/kernel/deps.ts';

export class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
