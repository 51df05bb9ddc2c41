/**
 * Planted defects of issue 13's label classes: personality-inference targets the message does
 * not show, photo descriptions the photo contradicts, visual distractors true of another photo.
 */
import type { Defect } from './defects.js';

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
    name: 'personality target reads 3 for a trait its message shows',
    check: 'personality_evidence',
    apply(b) {
      const trace = b.memory!.traces.find((t) => t.task === 'personality_inference')!;
      const shown = trace.input.turn as { text: string };
      shown.text = `Guess what, ${shown.text.replace(/\.$/, '!')}`;
    },
  },
  {
    name: 'personality target on the other side of what its message shows',
    check: 'personality_evidence',
    apply(b) {
      const trace = b.memory!.traces.find((t) => t.task === 'personality_inference')!;
      const shown = trace.input.turn as { text: string };
      shown.text = `I will keep this short, ${shown.text}`;
      trace.gold.value = { ...(trace.gold.value as object), extraversion: 4 };
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
