import type { BehaviorEvent, UserDialogue } from '../../schemas/dialogue.js';
import type { VitaInteraction } from './vita-memory.js';

/**
 * A behavior-log event as one line of text.
 *
 * @example
 * describeBehavior(event); // 'order in delivery at Noodle Bar; ramen ×2 (38); rated 5'
 */
export function describeBehavior(event: BehaviorEvent): string {
  const items = event.items.map(
    (item) => `${item.name}${item.quantity > 1 ? ` ×${item.quantity}` : ''} (${item.price})`,
  );
  const parts = [
    `${event.type} in ${event.scenario}${event.merchant === null ? '' : ` at ${event.merchant}`}`,
    items.length > 0 ? items.join(', ') : null,
    event.keyword === null ? null : `search "${event.keyword}"`,
    event.tags.length > 0 ? `tags: ${event.tags.join(', ')}` : null,
    event.rating === null ? null : `rated ${event.rating}`,
    event.text,
  ];
  return parts.filter((part): part is string => part !== null && part !== '').join('; ');
}

/**
 * A realized user's history between `from` (exclusive) and `to` (inclusive) as VitaBench
 * interactions — dialogue turns and behavior events merged in time order — ready for
 * `update(memory, newInteractions)` before the task at `to`.
 *
 * @example
 * await memory.update(interactionsBetween(dialogue, null, task.time));
 */
export function interactionsBetween(
  dialogue: UserDialogue,
  from: string | null,
  to: string | null,
): VitaInteraction[] {
  const lower = from === null ? Number.NEGATIVE_INFINITY : Date.parse(from);
  const upper = to === null ? Number.POSITIVE_INFINITY : Date.parse(to);
  const inside = (time: string) => {
    const at = Date.parse(time);
    return at > lower && at <= upper;
  };
  const turns: VitaInteraction[] = dialogue.sessions.flatMap((session) =>
    session.turns
      .filter((turn) => inside(turn.time))
      .map((turn) => ({ time: turn.time, kind: 'dialogue' as const, text: `${turn.speaker}: ${turn.text}` })),
  );
  const behaviors: VitaInteraction[] = dialogue.behaviors
    .filter((event) => inside(event.time))
    .map((event) => ({ time: event.time, kind: 'behavior' as const, text: describeBehavior(event) }));
  // Stable merge by time: turns before behaviors at the same instant.
  return [...turns, ...behaviors].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
}
