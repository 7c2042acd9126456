/**
 * One pass of a background worker at a time (the workers of docs/architecture.md#adding-a-module). A pass
 * asked for while one runs is not dropped: the running pass may have looked at its rows before the ask, so
 * exactly one more runs after it, however many asks came meanwhile.
 */
export interface SerialPass {
  /** Starts a pass now, or one more after the running one. */
  request(): void;
  /** The running pass, if any (workers' idle() and stop() wait for it). */
  readonly current: Promise<void> | undefined;
}

/**
 * `run` is one pass; `ready` says whether passes may run at all (started, not stopped); `failed` logs a pass
 * that threw, so that the worker keeps running.
 */
export function serialPass(run: () => Promise<void>, ready: () => boolean, failed: (err: unknown) => void): SerialPass {
  let current: Promise<void> | undefined;
  let again = false;
  const request = (): void => {
    if (!ready()) return;
    if (current) {
      again = true;
      return;
    }
    again = false;
    current = run()
      .catch(failed)
      .finally(() => {
        current = undefined;
        if (again) request();
      });
  };
  return {
    request,
    get current() {
      return current;
    },
  };
}
