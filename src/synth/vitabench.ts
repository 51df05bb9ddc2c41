import type { BehaviorEvent, UserDialogue } from '../schemas/dialogue.js';

/** One VitaBench 2.0 "init_gen" interaction (FORMATS.md §5): a day's behaviors and dialogue. */
export interface VitaBenchInteraction {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  behavior: Array<{ behavior_type: string; content: Record<string, unknown> }>;
  dialogue: Array<{ role: 'user' | 'assistant'; content: string }>;
}

function behaviorContent(event: BehaviorEvent): Record<string, unknown> {
  const items = event.items.map((item) => ({
    product_name: item.name,
    price: item.price,
    quantity: item.quantity,
  }));
  switch (event.type) {
    case 'search':
      return { keyword: event.keyword ?? '' };
    case 'review':
      return { merchant_name: event.merchant, rating: event.rating, text: event.text ?? '' };
    case 'order':
    case 'cancel':
      return { scenario: event.scenario, merchant_name: event.merchant, tags: event.tags, items };
    default:
      return {
        scenario: event.scenario,
        ...(event.merchant === null ? {} : { merchant_name: event.merchant }),
        tags: event.tags,
        ...(items.length === 0 ? {} : { items }),
        ...(event.text === null ? {} : { text: event.text }),
      };
  }
}

/**
 * Groups a dialogue's sessions and behavior events by calendar day into VitaBench 2.0's
 * interaction-history shape `{date, behavior[], dialogue[]}` (FORMATS.md §5, "init_gen").
 * Behavior types keep our names (`browse`, `search`, `order`, `review`, `cancel`, `favorite`,
 * `compare`, `consult`); image placeholders stay in the text.
 *
 * @example toVitaBenchInteractions(dialogue)[0] // { date: '2024-03-04', behavior: [...], dialogue: [...] }
 */
export function toVitaBenchInteractions(dialogue: UserDialogue): VitaBenchInteraction[] {
  const days = new Map<string, VitaBenchInteraction>();
  const day = (time: string): VitaBenchInteraction => {
    const date = time.slice(0, 10);
    let entry = days.get(date);
    if (entry === undefined) {
      entry = { date, behavior: [], dialogue: [] };
      days.set(date, entry);
    }
    return entry;
  };
  for (const session of dialogue.sessions) {
    for (const turn of session.turns)
      day(turn.time).dialogue.push({ role: turn.speaker, content: turn.text });
  }
  for (const event of dialogue.behaviors)
    day(event.time).behavior.push({ behavior_type: event.type, content: behaviorContent(event) });
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}
