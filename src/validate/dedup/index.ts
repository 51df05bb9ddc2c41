export { createDeduplicator, createUserSigner, type SignedUser, type UserDedupResult } from './dedup.js';
export { createLshIndex, type NearDuplicate } from './lsh-index.js';
export { createMinHasher, estimateJaccard, fnv1a, shingleHashes, wordShingles } from './minhash.js';
