/**
 * Planted defects of issue 13's and 27's label classes: personality-inference targets their
 * messages do not support (read from several messages, graded), photo descriptions the photo
 * contradicts, visual distractors true of another photo.
 */
import type { Defect } from './types.js';

export const LABEL_DEFECTS: Defect[] = [
  {
    name: 'personality target copied from the hidden profile (message shows no trait)',
    check: 'personality_evidence',
    apply(b) {
      const trace = b.memory!.traces.find((t) => t.task === 'personality_inference')!;
      trace.gold.value = { ...b.plan.personality[0]!.bigFive };
    },
  },
  {
    name: 'personality target reads 3 for a trait several of its messages show',
    check: 'personality_evidence',
    apply(b) {
      const trace = b.memory!.traces.find((t) => t.task === 'personality_inference')!;
      const said = (text: string) => ({ speaker: 'user', text, time: trace.time, images: [] });
      // Three of the four messages it reads say the user is anxious: neuroticism is not "no evidence".
      trace.input.context = [
        said('I am scared I will mess it up again.'),
        said('I have been so tense since Monday.'),
        said('I worry about the budget every single night.'),
      ];
    },
  },
  {
    name: 'personality target graded from a single message (one exclamation read as extraversion 5)',
    check: 'personality_evidence',
    apply(b) {
      const trace = b.memory!.traces.find((t) => t.task === 'personality_inference')!;
      const shown = trace.input.turn as { text: string };
      shown.text = `Guess what, ${shown.text.replace(/\.$/, '!')}`;
      trace.gold.value = { ...(trace.gold.value as object), extraversion: 5 };
    },
  },
  {
    name: 'user calls the cat in their photo by another colour',
    check: 'photo_description',
    apply(b) {
      const shown = b.dialogue.sessions.flatMap((s) => s.turns).find((t) => t.images.length > 0)!;
      shown.text = `${shown.text} This is Tom, my black cat.`;
    },
  },
  {
    name: 'user miscounts the cats in their photo',
    check: 'photo_description',
    apply(b) {
      const shown = b.dialogue.sessions.flatMap((s) => s.turns).find((t) => t.images.length > 0)!;
      shown.text = `${shown.text} Look at these three grey cats.`;
    },
  },
  {
    name: 'visual distractor true of another photo of the same concept',
    check: 'visual_distractors',
    apply(b) {
      const [first] = b.plan.images;
      b.plan.images.push({
        ...first!,
        id: `${first!.id}-b`,
        caption: 'a black cat on a sofa',
        objects: [{ name: 'cat', color: 'black', count: 1 }],
      });
      b.plan.concepts.push({
        id: 'concept-tom',
        name: 'Tom',
        kind: 'pet',
        objectClass: 'cat',
        description: 'Tom, my cat',
        imageIds: [first!.id, `${first!.id}-b`],
      });
      const slot = b.plan.slots.find((s) => s.imageId === first!.id)!;
      slot.refId = 'concept-tom';
      const template = b.plan.qa[0]!;
      b.plan.qa.push({
        ...template,
        id: 'qa-visual',
        family: 'persona-mme',
        task: 'visual_detail_recall',
        question: 'In the photo of Tom I showed you, what colour was the cat?',
        answer: 'Grey',
        answerType: 'mc',
        choices: ['Grey', 'Black', 'Red', 'Blue'],
        correctIndex: 0,
        evidenceSlotIds: [slot.id],
      });
    },
  },
];
