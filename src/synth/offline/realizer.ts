import { slotTopic } from '../../plan/topic-words.js';
import type { UserPlan } from '../../schemas/plan.js';
import { createRng } from '../../util/rng.js';
import { roundTopics } from '../../util/round-topics.js';
import { normaliseText } from '../../util/text.js';
import type { ChunkRequest, RealizedRound, Realizer } from '../realizer.js';
import { slipOf } from '../slips.js';
import { composeAssistantTurn, composeUserTurn, type RoundContext } from './compose.js';
import { styleFor } from './style.js';

const AGAIN = [
  'Here is another one.',
  'One more, from a different angle.',
  'I took this one later.',
  'And this one too.',
  'Another shot of it.',
];

export interface OfflineRealizerOptions {
  /** Run seed; each round draws from its own stream keyed by user, session and round. */
  seed: number;
}

/**
 * The model-free realizer: a template grammar conditioned on the user's Big Five at the turn's
 * time. Every evidence slot's keywords appear verbatim in its user turn by construction (still
 * checked by `realizeDialogue`). Each round has its own seeded stream keyed by user, session,
 * round and attempt, so a regeneration (`attempt > 0`) draws fresh text.
 *
 * @example
 * const realizer = createOfflineRealizer({ seed: 42 });
 * const dialogue = await realizeDialogue(plan, { realizer });
 */
/** Plan topic labels as a person says them (never the label itself: "people in my life comes up"). */
const SPOKEN_LABELS: Readonly<Record<string, string>> = {
  'people in my life': 'friends and family',
  photos: 'my photos',
  'about me': 'my background',
  routines: 'my daily routine',
  'how I have been feeling': 'my mood lately',
};

/**
 * A topic in the assistant's voice: "my photos" → "your photos".
 *
 * @example assistantVoice('my plan to run a marathon') // 'your plan to run a marathon'
 */
export function assistantVoice(topic: string): string {
  return topic.replace(/\bmy\b/g, 'your').replace(/\bI\b/g, 'you');
}

/**
 * The subject a plan topic label names, in words: "preferences: durian" → its slot's subject
 * ("fruit"), "goals: marathon" → "marathon", "people in my life" → "friends and family".
 */
export function speakableTopic(plan: UserPlan, label: string): string {
  return withPlanCapitals(plan, spokenSubject(plan, label));
}

/** A name keeps the capital the plan's own words give it ("japan" → "Japan"). */
function withPlanCapitals(plan: UserPlan, subject: string): string {
  const word = new RegExp(`\\b${subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
  for (const text of [...plan.preferences.map((p) => p.item), ...plan.goals.map((g) => g.description)]) {
    const found = word.exec(text)?.[0];
    if (found !== undefined && found !== found.toLowerCase()) return found;
  }
  return subject;
}

function spokenSubject(plan: UserPlan, label: string): string {
  const spoken = SPOKEN_LABELS[label];
  if (spoken !== undefined) return spoken;
  const at = label.indexOf(': ');
  if (at < 0) return label;
  const subject = label.slice(at + 2);
  if (label.startsWith('preferences')) {
    // The subject in words ("Thai food"), never the preference itself before the user says it.
    const pref = plan.preferences.find((p) => p.keywords[0] === subject);
    if (pref !== undefined) return slotTopic(pref.slot);
  }
  if (label.startsWith('goals')) {
    // "goals: driving test" → "my plan to pass the driving test": a noun phrase any template takes.
    const goal = plan.goals.find((g) => g.keywords[0] === subject);
    if (goal !== undefined) return `my plan to ${goal.description}`;
  }
  return subject;
}

export function createOfflineRealizer(options: OfflineRealizerOptions): Realizer {
  // User texts said so far in the current session: a round that would repeat one word for word
  // (e.g. a second photo of the same concept) draws again, so no session repeats itself.
  let sessionKey = '';
  let said = new Set<string>();
  return {
    name: 'offline',
    offline: true,
    async realizeChunk(request: ChunkRequest): Promise<RealizedRound[]> {
      const { view, session, state } = request;
      const plan = view.plan;
      const name = plan.enriched.coreMemory.human.name;
      const roundTopic = roundTopics(plan.slots, session);
      return request.rounds.map((round) => {
        const rng = createRng(
          options.seed,
          plan.userId,
          'synth',
          session.index,
          round.round,
          request.attempt,
        );
        // The round's own topic, as the episodic gold labels it (src/util/round-topics.ts).
        const topic = speakableTopic(plan, roundTopic[round.round] ?? session.topics[0]!);
        const ctx: RoundContext = {
          view,
          round,
          state,
          // The personality at this round, not at the chunk's start: a shift said in the chunk shows from then on.
          style: styleFor(view.personalityAt(new Date(round.time).toISOString())),
          name,
          topic,
          assistantTopic: assistantVoice(topic),
          slip: slipOf(plan, session.index, round.round),
        };
        const key = `${plan.userId}\u0000${session.index}\u0000${request.attempt}`;
        if (key !== sessionKey) {
          sessionKey = key;
          said = new Set();
        }
        // Repeats are judged on normalised text (case and punctuation aside), as validation does.
        const seen = (text: string) => said.has(normaliseText(text));
        let user = composeUserTurn(ctx, rng);
        for (let retry = 1; seen(user) && retry <= 6; retry++) {
          user = composeUserTurn(ctx, rng.fork('unrepeat', retry));
        }
        if (seen(user)) user = `${user} ${AGAIN[said.size % AGAIN.length]}`;
        said.add(normaliseText(user));
        let assistant = composeAssistantTurn(ctx, rng);
        for (let retry = 1; seen(assistant) && retry <= 6; retry++) {
          assistant = composeAssistantTurn(ctx, rng.fork('unrepeat-reply', retry));
        }
        said.add(normaliseText(assistant));
        return { round: round.round, user, assistant };
      });
    },
  };
}
