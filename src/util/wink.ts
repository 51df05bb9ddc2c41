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
