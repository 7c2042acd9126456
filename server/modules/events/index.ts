/** The event outbox (reference.md "Events"): events recorded in the transaction of their change. */
export { EVENT_NAMES, isEventName, type EventName } from './event-names.ts';
export { EventOutbox, type EventOutboxRow } from './event-outbox.entity.ts';
export { recordEvent, listEvents, type ListEventsQuery } from './record-event.ts';
