// Talks searched by meaning with a model in this process: transformers.js
// (@huggingface/transformers) loads all-MiniLM-L6-v2 from a local model
// directory, never from the network, and Lantern calls it as a `function`
// embedder for the records (in the background) and for each query.
//
//   node search.mjs [MODELS_DIR] [DATA_DIR]
//
// DATA_DIR defaults to a folder of the system's temp directory (an app keeps
// its data with its other data). MODELS_DIR (default ./models) holds Xenova/all-MiniLM-L6-v2/ as the Hub has
// it: config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx.
// Without it, a stand-in embedding (words hashed into 384 dimensions, no
// meaning) takes the model's place, so the Lantern wiring still runs: that
// is what CI runs, as no model can be downloaded there.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Lantern } from 'lantern-search';
import { fsStorage } from 'lantern-search/node';

const MODEL = 'Xenova/all-MiniLM-L6-v2';
const DIMENSIONS = 384;
const modelsDir = process.argv[2] ?? './models';
const dataDir = process.argv[3] ?? join(tmpdir(), 'lantern-example-transformers-js');

/** The model as an embedding function: one normalised 384-number vector per text. */
async function miniLM() {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.localModelPath = modelsDir;
  env.allowRemoteModels = false; // the model directory, or an error: never a download
  const extract = await pipeline('feature-extraction', MODEL, { dtype: 'fp32' });
  return async (texts) => (await extract(texts, { pooling: 'mean', normalize: true })).tolist();
}

/** Each word hashed to a dimension, summed and normalised: texts sharing words are near. No meaning. */
async function standIn(texts) {
  return texts.map((text) => {
    const vector = new Array(DIMENSIONS).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ char.codePointAt(0), 16777619) >>> 0;
      vector[hash % DIMENSIONS] += 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((x) => x / norm);
  });
}

const haveModel = existsSync(join(modelsDir, MODEL, 'config.json'));
const engine = await Lantern.open({ storage: fsStorage(dataDir), embedders: { minilm: haveModel ? await miniLM() : standIn } });
const client = engine.client();

const talks = [
  { objectID: '1', name: 'Are you a giver or a taker?', description: 'Givers, takers and matchers at work, and how to promote a culture of generosity.' },
  { objectID: '2', name: 'Do schools kill creativity?', description: 'Education should nurture creativity rather than undermine it.' },
  { objectID: '3', name: 'The power of vulnerability', description: 'A study of human connection, empathy, belonging and love.' },
  { objectID: '4', name: 'How great leaders inspire action', description: 'Leaders who start with why inspire cooperation, trust and change.' },
];
const firstRun = !engine.indexes.has('talks');
if (firstRun) {
  await client.setSettings({ indexName: 'talks', indexSettings: {
    searchableAttributes: ['name', 'description'],
    embedders: { minilm: { source: 'function', name: 'minilm', dimensions: DIMENSIONS, documentTemplate: '{{doc.name}}. {{doc.description}}' } },
  } });
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
}
await engine.waitForEmbeddings(); // the records' vectors, computed in the background, are in

const query = haveModel ? 'feeling close to other people' : 'human connection';
const { hits, semanticHitCount } = await client.searchSingleIndex({
  indexName: 'talks',
  searchParams: { query, hybrid: { embedder: 'minilm', semanticRatio: 0.8 }, hitsPerPage: 2 },
});
console.log(JSON.stringify({ model: haveModel ? MODEL : 'stand-in', firstRun, query, first: hits[0]?.name, semanticHitCount }));
await engine.close();
