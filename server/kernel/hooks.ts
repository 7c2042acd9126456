/**
 * Typed hooks: how a lower module lets the modules above it act on its events without importing them, so
 * that module imports only ever point down the layers (the layering at the top of .dependency-cruiser.cjs).
 * The lower module defines a hook and runs it where the event happens; a module above names its handler in
 * its manifest (modules/manifest.ts `hooks`), and buildApp subscribes every manifest's handlers.
 *
 * A required hook refuses to run without a subscriber: its handlers finish a job the caller promised (an
 * MFA reset that removes passkeys too), and a server that forgot to wire them must fail, not half do it.
 */
export type HookHandler<Args extends unknown[]> = (...args: Args) => Promise<unknown> | unknown;

export interface Hook<Args extends unknown[]> {
  readonly name: string;
  /** Adds a handler; the same handler twice is kept once (buildApp runs more than once in a test process). */
  subscribe(handler: HookHandler<Args>): void;
  /** Calls every handler in subscription order, one after another: they share the caller's transaction. */
  run(...args: Args): Promise<void>;
}

export interface HookOptions {
  /** Running with no handler subscribed is a programming error (see above). */
  readonly required?: boolean;
}

export function defineHook<Args extends unknown[]>(name: string, options: HookOptions = {}): Hook<Args> {
  const handlers = new Set<HookHandler<Args>>();
  return {
    name,
    subscribe: (handler) => void handlers.add(handler),
    run: async (...args) => {
      if (options.required && handlers.size === 0) throw new Error(`hook ${name} has no subscriber: buildApp wires the module hooks`);
      for (const handler of handlers) await handler(...args);
    },
  };
}

/** One handler of a module for a hook of a lower module, as a manifest lists it. */
export interface HookSubscription {
  readonly hook: string;
  subscribe(): void;
}

export function subscription<Args extends unknown[]>(hook: Hook<Args>, handler: HookHandler<Args>): HookSubscription {
  return { hook: hook.name, subscribe: () => hook.subscribe(handler) };
}
