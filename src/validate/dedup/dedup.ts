import type { DedupConfig } from '../../schemas/validate-config.js';
import type { UserBundle } from '../types.js';
import { createLshIndex, type NearDuplicate } from './lsh-index.js';
import { createMinHasher, shingleHashes } from './minhash.js';

/** What dedup found for one user. */
export interface UserDedupResult {
  userId: string;
  utterancesChecked: number;
  duplicateUtterances: NearDuplicate[];
  /** Set when the user's whole dialogue near-duplicates an earlier user's. */
  duplicateDialogue: NearDuplicate | null;
  /** Share of checked user utterances that are near-duplicates. */
  duplicateRatio: number;
}

/**
 * Near-duplicate detection within and across users (MinHash + LSH): each user utterance of at
 * least `minUtteranceWords` words against every earlier one, and each dialogue (its user turns as
 * one text) against earlier dialogues. Users are fed in order; state grows with the corpus (one
 * signature per utterance), never with the dialogues themselves.
 *
 * @example const dedup = createDeduplicator(config.dedup); const result = dedup.addUser(bundle);
 */
export function createDeduplicator(config: DedupConfig) {
  const hasher = createMinHasher(config.numPerm);
  const utterances = createLshIndex(config.bands, config.utteranceThreshold);
  const dialogues = createLshIndex(config.bands, config.dialogueThreshold);
  return {
    addUser(bundle: UserBundle): UserDedupResult {
      const userId = bundle.plan.userId;
      const duplicateUtterances: NearDuplicate[] = [];
      // MinHash of a union is the element-wise minimum of the parts' signatures, so the
      // dialogue signature comes for free from the utterance signatures.
      const dialogueSignature = new Uint32Array(config.numPerm).fill(0xffffffff);
      let shingled = 0;
      let checked = 0;
      for (const session of bundle.dialogue.sessions) {
        for (const turn of session.turns) {
          if (turn.speaker !== 'user') continue;
          const hashes = shingleHashes(turn.text, config.shingleWords);
          if (hashes.length === 0) continue;
          shingled++;
          const signature = hasher.signatureOfHashes(hashes);
          for (let i = 0; i < signature.length; i++)
            if (signature[i]! < dialogueSignature[i]!) dialogueSignature[i] = signature[i]!;
          if (hashes.length + config.shingleWords - 1 < config.minUtteranceWords) continue;
          checked++;
          const found = utterances.add(turn.id, userId, signature);
          if (found !== null) duplicateUtterances.push(found);
        }
      }
      const duplicateDialogue = shingled === 0 ? null : dialogues.add(userId, userId, dialogueSignature);
      return {
        userId,
        utterancesChecked: checked,
        duplicateUtterances,
        duplicateDialogue,
        duplicateRatio: checked === 0 ? 0 : duplicateUtterances.length / checked,
      };
    },
  };
}
