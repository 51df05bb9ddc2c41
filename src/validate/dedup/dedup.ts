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
 * One user's part of dedup, computed without the corpus (a worker thread may do it): the
 * MinHash signature of each checked user utterance and of the whole dialogue.
 */
export interface SignedUser {
  userId: string;
  /** Ids of the checked utterances (those of at least `minUtteranceWords` words), in turn order. */
  utteranceIds: string[];
  /** Their signatures, `numPerm` values each, one after the other. */
  signatures: Uint32Array;
  /** Element-wise minimum over every shingled user utterance; null when none had a word. */
  dialogueSignature: Uint32Array | null;
}

/**
 * Signs one user's utterances for `createDeduplicator(config).addSigned`.
 *
 * @example const signUser = createUserSigner(config.dedup); const signed = signUser(bundle);
 */
export function createUserSigner(config: DedupConfig): (bundle: UserBundle) => SignedUser {
  const hasher = createMinHasher(config.numPerm);
  return (bundle) => {
    const utteranceIds: string[] = [];
    const signatures: Uint32Array[] = [];
    // MinHash of a union is the element-wise minimum of the parts' signatures, so the
    // dialogue signature comes for free from the utterance signatures.
    const dialogueSignature = new Uint32Array(config.numPerm).fill(0xffffffff);
    let shingled = 0;
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
        utteranceIds.push(turn.id);
        signatures.push(signature);
      }
    }
    const packed = new Uint32Array(signatures.length * config.numPerm);
    signatures.forEach((signature, i) => {
      packed.set(signature, i * config.numPerm);
    });
    return {
      userId: bundle.plan.userId,
      utteranceIds,
      signatures: packed,
      dialogueSignature: shingled === 0 ? null : dialogueSignature,
    };
  };
}

/**
 * Near-duplicate detection within and across users (MinHash + LSH): each user utterance of at
 * least `minUtteranceWords` words against every earlier one, and each dialogue (its user turns as
 * one text) against earlier dialogues. Users are fed in order; state grows with the corpus (one
 * signature per utterance), never with the dialogues themselves. `addSigned` takes a user
 * signed elsewhere (`createUserSigner`); `addUser` signs it here.
 *
 * @example const dedup = createDeduplicator(config.dedup); const result = dedup.addUser(bundle);
 */
export function createDeduplicator(config: DedupConfig) {
  const signUser = createUserSigner(config);
  const utterances = createLshIndex(config.bands, config.utteranceThreshold);
  const dialogues = createLshIndex(config.bands, config.dialogueThreshold);
  const addSigned = (signed: SignedUser): UserDedupResult => {
    const { userId } = signed;
    const duplicateUtterances: NearDuplicate[] = [];
    const checked = signed.utteranceIds.length;
    for (let i = 0; i < checked; i++) {
      const signature = signed.signatures.subarray(i * config.numPerm, (i + 1) * config.numPerm);
      const found = utterances.add(signed.utteranceIds[i]!, userId, signature);
      if (found !== null) duplicateUtterances.push(found);
    }
    const duplicateDialogue =
      signed.dialogueSignature === null ? null : dialogues.add(userId, userId, signed.dialogueSignature);
    return {
      userId,
      utterancesChecked: checked,
      duplicateUtterances,
      duplicateDialogue,
      duplicateRatio: checked === 0 ? 0 : duplicateUtterances.length / checked,
    };
  };
  return {
    addSigned,
    addUser: (bundle: UserBundle): UserDedupResult => addSigned(signUser(bundle)),
  };
}
