/** The event outbox (docs/events.md): events recorded in the transaction of their change. */
import { defineModule } from '../manifest.ts';
import { EventOutbox } from './event-outbox.entity.ts';

export { EVENT_NAMES, isEventName, type EventName } from './event-names.ts';
export { EventOutbox, type EventOutboxRow } from './event-outbox.entity.ts';
export { recordEvent, listEvents, type ListEventsQuery } from './record-event.ts';
export { forgetEventsNaming, namesAny } from './erase.ts';

export const eventsModule = defineModule({ name: 'events', entities: [EventOutbox] });
