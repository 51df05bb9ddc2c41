/** Text normalisation shared by the realizer (no repeated turns) and validation (keyword matching). */

const ASCII = /^[\x00-\x7f]*$/;

/** Lower-cased text with runs of non-letters/digits collapsed to one space, padded with spaces, for keyword matching. */
export function normaliseText(text: string): string {
  const lower = text.toLowerCase();
  // The ASCII pattern is several times faster than the Unicode one and covers most text.
  const collapsed = ASCII.test(lower)
    ? lower.replace(/[^a-z0-9]+/g, ' ')
    : lower.replace(/[^\p{L}\p{N}]+/gu, ' ');
  return ` ${collapsed.trim()} `;
}
