/**
 * The wink-nlp pipelines of this thread (with wink-eng-lite-web-model), one per set of
 * annotations, made on first use and shared by every reader that asks for the same set: each
 * new pipeline reads the model again (about half a second and tens of MB per thread).
 */
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

export type WinkNlp = ReturnType<typeof winkNLP>;
/** The annotations a pipeline can run, in the order wink-nlp names them. */
export type WinkAnnotation = 'sbd' | 'negation' | 'sentiment' | 'pos';

const pipelines = new Map<string, WinkNlp>();

/**
 * The pipeline running `annotations` (the same instance for the same list).
 *
 * @example winkPipeline(['sbd', 'pos', 'negation']).readDoc('I am not sure.').sentences().length() // 1
 */
export function winkPipeline(annotations: readonly WinkAnnotation[]): WinkNlp {
  const key = annotations.join(',');
  let pipeline = pipelines.get(key);
  if (pipeline === undefined) {
    pipeline = winkNLP(model, [...annotations]);
    pipelines.set(key, pipeline);
  }
  return pipeline;
}

/** The reading pipeline most readers share: sentences, part of speech, lemmas, negation scope. */
export const READING: readonly WinkAnnotation[] = ['sbd', 'pos', 'negation'];

type WinkDoc = ReturnType<WinkNlp['readDoc']>;
/** Documents read by the `READING` pipeline, by their exact text (most readers of a turn read it in one stage). */
const docs = new Map<string, WinkDoc>();
const DOC_CACHE = 2_000;

/**
 * `text` read by the {@link READING} pipeline, read once for every reader that reads the same
 * string (the meaning reader, the personality reader and the text-shape checks read the same
 * user turns). A document is only read from, never changed.
 *
 * @example winkDoc('I love it. It is great.').sentences().length() // 2
 */
export function winkDoc(text: string): WinkDoc {
  let doc = docs.get(text);
  if (doc === undefined) {
    doc = winkPipeline(READING).readDoc(text);
    if (docs.size >= DOC_CACHE) docs.clear();
    docs.set(text, doc);
  }
  return doc;
}
