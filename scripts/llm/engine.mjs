// engine.mjs: a GGUF model on node-llama-cpp (llama.cpp's CPU build, from npm's
// prebuilt binary) behind the small interface server.mjs serves:
//
//   {info, contextSize, promptTokens(messages), complete(request)}
//
// One context with one sequence: requests run one at a time (server.mjs
// queues them). Decoding is greedy at temperature 0, as in the MARS paper, and
// a response_format becomes a llama.cpp grammar, so the answer is a JSON
// value of the requested schema by construction.
import { getLlama, LlamaChat, LlamaText } from 'node-llama-cpp';
import fs from 'node:fs';
// The schema-to-grammar converter, with the option of a compact grammar (no
// newlines, no indentation): node-llama-cpp's createGrammarForJsonSchema
// always allows pretty-printed JSON, and a small model then spends a third
// of its output tokens, and of its time, on indentation. The module is not
// in the package's exports, so it is imported by path (node-llama-cpp is
// pinned to 3.21.1 in package-lock.json).
import { getGbnfGrammarForGbnfJsonSchema } from './node_modules/node-llama-cpp/dist/utils/gbnfJson/getGbnfGrammarForGbnfJsonSchema.js';

const runtimeVersion = JSON.parse(fs.readFileSync(new URL('./node_modules/node-llama-cpp/package.json', import.meta.url), 'utf8')).version;

/** An error the client caused: the server answers it with a 400. */
export class RequestError extends Error {
  constructor(message, code = 'invalid_request_error') {
    super(message);
    this.status = 400;
    this.code = code;
  }
}

function toHistory(messages) {
  const h = messages.map((m) => (m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content }));
  if (h.at(-1).type !== 'model') h.push({ type: 'model', response: [] });
  return h;
}

/**
 * openEngine loads a GGUF and returns the engine.
 * @param {{modelPath: string, contextSize?: number, threads?: number, model: import('./models.mjs').Model | null}} o
 */
export async function openEngine({ modelPath, contextSize = 4096, threads = 2, repeatPenalty = 1, model: meta }) {
  const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false, logLevel: 'error' });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize, threads, sequences: 1 });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  const grammars = new Map(); // schema text -> grammar; a recmem run reuses few
  const grammarFor = async (format) => {
    if (!format || format.type === 'text') return undefined;
    const key = format.type === 'json_object' ? 'json' : JSON.stringify(format.schema);
    let g = grammars.get(key);
    if (!g) {
      try {
        g = format.type === 'json_object' ? await llama.getGrammarFor('json') : await llama.createGrammar({
          grammar: getGbnfGrammarForGbnfJsonSchema(format.schema, { allowNewLines: false, scopePadSpaces: 0 }),
          stopGenerationTriggers: [LlamaText(['\n'.repeat(4)])],
          trimWhitespaceSuffix: true,
        });
      } catch (err) {
        throw new RequestError(`response_format.json_schema.schema: ${err.message}`);
      }
      if (grammars.size >= 256) grammars.delete(grammars.keys().next().value);
      grammars.set(key, g);
    }
    return g;
  };
  const promptTokens = (messages) =>
    chat.chatWrapper.generateContextState({ chatHistory: toHistory(messages) }).contextText.tokenize(model.tokenizer).length;
  return {
    info: {
      id: meta ? `${meta.name}-${meta.quantization.toLowerCase()}` : modelPath.split('/').at(-1),
      model: meta ? meta.base : modelPath,
      file: modelPath.split('/').at(-1),
      quantization: meta ? meta.quantization : 'unknown',
      runtime: `node-llama-cpp ${runtimeVersion} (its ${llama.buildType} llama.cpp CPU build, ${threads} threads, context ${contextSize}, chat template ${chat.chatWrapper.wrapperName})`,
      decoding: `greedy at temperature 0${repeatPenalty > 1 ? `, repeat penalty ${repeatPenalty} over the last 64 tokens` : ''}; response_format as a grammar`,
    },
    contextSize,
    promptTokens,
    async complete({ messages, maxTokens, temperature, format, signal }) {
      const grammar = await grammarFor(format);
      let completionTokens = 0;
      const r = await chat.generateResponse(toHistory(messages), {
        maxTokens, temperature, grammar, signal, stopOnAbortSignal: false,
        repeatPenalty: repeatPenalty > 1 ? { penalty: repeatPenalty, lastTokens: 64 } : false,
        onToken: (ts) => { completionTokens += ts.length; },
      });
      return {
        text: r.response,
        completionTokens,
        finishReason: r.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
      };
    },
    async close() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
