export { describeExpectation, meaningProblems, problemOf, slotExpectations } from './problems.js';
export { readMeaning } from './read.js';
export type { MeaningExpectation, MeaningReading, Polarity, Verdict } from './types.js';
