import { describe, expect, it } from 'vitest';
import { buildUserPlan } from '../../src/plan/index.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { photoDescriptionProblems } from '../../src/validate/rules/photo-description.js';
import { visualAnswerInText } from '../../src/validate/rules/visual-answer-text.js';
import { visualQuestionProblems } from '../../src/validate/rules/visual-distractors.js';
import { indexUser } from '../../src/validate/types.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

/** Users of the PersonaVLM profile with a small image pool, so concepts have several photos in several colours. */
describe('offline photos: the text says what the image shows, and visual questions have one true option', async () => {
  const images = fixtureImages(7, 60);
  const plans = fixtureUsers(10, 13).map((user) =>
    buildUserPlan({ ...user, images }, { config: { profile: 'personavlm' }, seed: 42 }),
  );
  const bundles = await Promise.all(
    plans.map(async (plan) => ({
      plan,
      dialogue: await realizeDialogue(plan, { realizer: createOfflineRealizer({ seed: 42 }), seed: 42 }),
      memory: null,
    })),
  );

  it('never gives an object in a photo another colour or count, and never says the one a visual question asks', () => {
    let conceptTurns = 0;
    for (const bundle of bundles) {
      const index = indexUser(bundle);
      expect(photoDescriptionProblems(index)).toEqual([]);
      const conceptSlots = new Set(
        bundle.plan.slots
          .filter((slot) => bundle.plan.concepts.some((concept) => concept.id === slot.refId))
          .map((slot) => slot.id),
      );
      for (const turn of bundle.dialogue.sessions.flatMap((session) => session.turns)) {
        if (!turn.slots.some((id) => conceptSlots.has(id))) continue;
        conceptTurns++;
        // The turn names the photo and its subject, never what it shows: no caption, so a
        // visual question about it needs the image.
        const image = bundle.plan.images.find((item) => item.id === turn.images[0]);
        expect(turn.text).not.toContain(image!.caption);
      }
      for (const qa of bundle.plan.qa) expect(visualAnswerInText(index, qa), qa.question).toBeNull();
    }
    expect(conceptTurns).toBeGreaterThan(20);
  });

  it('asks visual-detail questions whose distractors are false of every photo the question can mean', () => {
    let asked = 0;
    let conceptsInColours = 0;
    for (const bundle of bundles) {
      const index = indexUser(bundle);
      for (const qa of bundle.plan.qa.filter((item) => item.task === 'visual_detail_recall')) {
        asked++;
        expect(visualQuestionProblems(index, qa), qa.question).toEqual([]);
      }
      for (const concept of bundle.plan.concepts) {
        const colours = new Set(
          bundle.plan.images
            .filter((image) => concept.imageIds.includes(image.id))
            .map((image) => image.objects.find((o) => o.name === concept.objectClass)?.color),
        );
        if (colours.size > 1) conceptsInColours++;
      }
    }
    expect(asked).toBeGreaterThan(20);
    // The defect's setting occurs: concepts whose photos show their object in several colours.
    expect(conceptsInColours).toBeGreaterThan(5);
  });
});
