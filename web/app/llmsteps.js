// llmsteps.js: which steps of the module ask the page's LLM endpoint, by the
// rule recmem.js and the Go host follow (docs/llm.md, "Which steps help"):
// the steps the user names, else the steps measured to help the named model
// (llm.ForModel inside the module), none for a model nothing was measured
// with. The module says what it applied (the exports export's llm key), and
// the settings panel says it in words. No DOM here: Node tests it.

// llmOptions returns the LLM options of Recmem.open for the user's settings:
// none without an endpoint (llmSteps []); with one, the steps the user named,
// or, when they named none, no llmSteps at all, so that the module applies
// the rule recmem.js and the Go host apply (llm.ForModel, docs/llm.md): the
// steps measured to help with the named model, none for a model nothing was
// measured with. No step was measured to help SmolLM2-135M-Instruct or
// Gemma 3 270M, so by default no step asks either.
export function llmOptions(s) {
  if (!s?.llmEndpoint) return { llmSteps: [] };
  const steps = (s.llmSteps || '').split(',').map((x) => x.trim()).filter(Boolean);
  const model = s.llmModel || undefined;
  return steps.length ? { llmSteps: steps, llmModel: model } : { llmModel: model };
}

// stepsWhy says which steps ask the LLM and why, from the user's settings s
// and the module's own account of what it applied (cfg: the exports export's
// llm key): the steps the user named, else the model's measured defaults.
export function stepsWhy(s, cfg) {
  const on = cfg?.steps ?? [];
  const list = on.join(', ');
  if ((s?.llmSteps || '').trim()) return on.length ? `Steps that ask the model: ${list} (named here).` : 'No step asks the model.';
  if (cfg?.model) {
    return on.length
      ? `Steps that ask the model: ${list}, the steps measured to help ${cfg.model} (${cfg.measured}).`
      : `No step asks the model: none was measured to help ${cfg.model} (${cfg.measured}). Name steps below to ask it anyway.`;
  }
  const model = s?.llmModel ? `“${s.llmModel}”` : 'an unnamed model';
  return `No step asks the model: nothing was measured with ${model}, and a step is on by default only where it was measured to help (docs/llm.md). Name steps below (${STEPS.join(', ')}) to ask it.`;
}

// STEPS are the steps that can ask the LLM (pkg/engine's LLMSteps).
export const STEPS = ['extract', 'plan', 'synthesize', 'rank', 'parse'];
