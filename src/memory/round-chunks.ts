/** Positions where each window of `rounds` user/assistant rounds ends (the last one included). */
export function roundChunkEnds(turns: ReadonlyArray<{ speaker: string }>, rounds: number): Set<number> {
  const ends = new Set<number>();
  let inChunk = 0;
  turns.forEach((turn, position) => {
    if (turn.speaker !== 'user') return;
    if (inChunk === rounds) {
      ends.add(position - 1);
      inChunk = 0;
    }
    inChunk++;
  });
  if (turns.length > 0) ends.add(turns.length - 1);
  return ends;
}
