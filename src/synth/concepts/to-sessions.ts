import type { DialogueSession, Turn } from '../../schemas/dialogue.js';
import type { ConceptConversation } from './schema.js';

/**
 * Converts a concept conversation into native sessions (one `<image>` placeholder per image,
 * speaker 0 = user) plus its QA with evidence as turn ids, ready for `interpolateIntoHost`.
 * Turn i of a session is at `date_time + i × turnGapMinutes`.
 *
 * @example const insert = conceptConversationToSessions(conversation, { userId: 'u1', turnGapMinutes: 2 });
 */
export function conceptConversationToSessions(
  conversation: ConceptConversation,
  options: { userId: string; turnGapMinutes: number; firstSessionIndex?: number },
): {
  sessions: DialogueSession[];
  qa: Array<{ question: string; answer: string; evidence: string[]; category: number }>;
} {
  const ids = new Map<string, string>();
  const sessions = conversation.sessions.map((session, s): DialogueSession => {
    const index = (options.firstSessionIndex ?? 0) + s;
    const start = Date.parse(session.date_time);
    const turns = session.turns.map((turn, t): Turn => {
      const id = `${options.userId}:S${index}:T${t}`;
      ids.set(turn.dia_id, id);
      const placeholders = turn.images.map(() => '<image>').join(' ');
      return {
        id,
        index: t,
        round: Math.floor(t / 2),
        time: new Date(start + t * options.turnGapMinutes * 60_000).toISOString(),
        speaker: turn.speaker === 0 ? 'user' : 'assistant',
        text: placeholders === '' ? turn.text : `${placeholders} ${turn.text}`,
        images: turn.images,
        slots: [],
        noise: null,
      };
    });
    return { index, start: turns[0]!.time, end: turns[turns.length - 1]!.time, topics: ['concepts'], turns };
  });
  const qa = conversation.qa.map((item) => ({
    question: item.question,
    answer: item.answer,
    evidence: item.evidence.map((id) => ids.get(id) ?? id),
    category: item.category,
  }));
  return { sessions, qa };
}
