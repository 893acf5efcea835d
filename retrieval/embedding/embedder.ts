/** Turns texts into unit-length vectors; the local ONNX model and a remote endpoint both fit it. */
export interface Embedder {
  /** Names the model, so an index built with one model is never searched with another's vectors. */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per text, in order; batching is the embedder's business. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Scales a vector to unit length in place (cosine similarity becomes a dot product). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / norm;
  return vector;
}

export function dot(a: Float32Array | readonly number[], b: Float32Array | readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}
