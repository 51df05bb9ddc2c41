import type { ImageRef } from '../../../schemas/plan.js';
import { SynthConfig } from '../../../schemas/synth-config.js';
import { generateConceptsOffline } from '../../../synth/concepts/offline.js';
import type { ConceptMember } from '../../../synth/concepts/schema.js';
import { createRng } from '../../../util/rng.js';
import type { FakeChatRequest } from '../server.js';
import { promptContent } from './text.js';

const CONCEPT = /^- <([^>]+)>: (.+?) \((.+?)\), (.*); images: (.*)$/;

/**
 * `concept_sessions` (M²A): reads the concept group (names, kinds, images with captions), the
 * fixed timestamps, the turn range, the photo count and the QA counts from the prompt, and writes the sessions and
 * QA with the offline concept generator over exactly those inputs.
 */
export function conceptAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'CONCEPT_GROUP');
  const lines = prompt.split('\n');
  const concepts: ConceptMember[] = [];
  const images = new Map<string, ImageRef>();
  const times: string[] = [];
  for (const line of lines) {
    const concept = CONCEPT.exec(line);
    if (concept !== null) {
      const imageIds: string[] = [];
      for (const part of (concept[5] ?? '').split('; ')) {
        const at = part.indexOf(' = ');
        if (at < 0) continue;
        const id = part.slice(0, at).trim();
        imageIds.push(id);
        images.set(id, {
          id,
          path: `${id}.png`,
          caption: part.slice(at + 3).trim(),
          objects: [],
        } as ImageRef);
      }
      concepts.push({
        id: `concept-${concepts.length}`,
        name: concept[1] as string,
        kind: concept[2] as string,
        objectClass: concept[3] as string,
        description: concept[4] as string,
        imageIds,
      });
    }
    const time = /^- session \d+: (.+)$/.exec(line);
    if (time !== null) times.push(time[1] as string);
  }
  const turns = /sessions of (\d+)-(\d+) turns/.exec(prompt);
  const photos = /Show photos in (\d+) user turns/.exec(prompt);
  const counts =
    /exactly (\d+) QA items about the conversation: (\d+) multi-hop \(category 6\), (\d+) temporal \(category 7\), (\d+) open-domain \(category 8\), (\d+) single-hop/.exec(
      prompt,
    );
  const config = SynthConfig.parse({
    concepts: {
      ...(turns === null ? {} : { turnsPerSession: [Number(turns[1]), Number(turns[2])] }),
      ...(photos === null ? {} : { imagesPerConversation: Number(photos[1]) }),
      ...(counts === null
        ? {}
        : {
            qaTotal: Number(counts[1]),
            qaMix: {
              multiHop: Number(counts[2]),
              temporal: Number(counts[3]),
              openDomain: Number(counts[4]),
              singleHop: Number(counts[5]),
            },
          }),
    },
  }).concepts;
  return generateConceptsOffline(
    concepts,
    times,
    config,
    images,
    createRng(Number(request.body.seed ?? 0), 'fake-concepts', prompt.length),
  );
}
