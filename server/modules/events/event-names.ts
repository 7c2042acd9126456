/**
 * The webhook event names of docs/events.md; anything else is rejected, so a typo in a flow
 * fails its tests instead of recording an event no webhook can subscribe to.
 *
 * The closed set lives here, in a foundation, because webhook subscriptions are checked against it and
 * EventName types recordEvent; which module records each name is declared in that module's manifest
 * (`events`), and test/events/event-declarations.test.ts holds every name here to exactly one declaring
 * module (docs/architecture.md#adding-a-module).
 */
export const EVENT_NAMES = [
  'user.login',
  'user.created',
  'user.signup',
  'user.access_revoked',
  'user.access_enabled',
  'user.deleted',
  'user.deactivated',
  'user.provisioned',
  'user.deprovisioned',
  'user.scim_updated',
  /** An organization's IdP took over an account whose address nobody proved (accounts/clean-takeover.ts). */
  'user.taken_over',
  'group.created',
  'group.updated',
  'group.deleted',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(value: string): value is EventName {
  return (EVENT_NAMES as readonly string[]).includes(value);
}
