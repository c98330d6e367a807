// The "Measure it" panel's words. Numbers never appear here as typed values: sentences that quote
// engine results are built in measure-model.js / stall-model.js from the training report; the only
// figures below are the request's own settings (learning rate, batch), passed in by the panel.
import { formatInt } from '../format/format.js';

export const TITLE = 'Measure it — train a tiny GPT in your browser';
export const SHORT_TITLE = 'Measure it';

// On screen: what to do and what it shows. Behind "Why?" (the *_MORE texts): how and why.
export const INTRO = 'Here the lab’s reference engine really trains a small GPT-2-style model in a background thread of this '
  + 'page. Its allocator tags every byte, so you can hold the ledger’s prediction against real allocations and time your own CPU.';
export const INTRO_MORE = 'The ledger in Act 1 is bookkeeping: it adds up what each tensor should cost. The model’s size is shown '
  + 'once a run starts; the task is a generated next-token task. Runs are deliberately small: the first settings take a few '
  + 'seconds, the largest a minute or more. The page stays usable while one runs, and Cancel stops it between two steps.';

export const SETTINGS_LEAD = 'Choose a configuration and press Run.';
// The lab keeps the acts' settings in its link on every page, this one included (and a notice at the
// top names any that is not valid); this line says those are not this panel's settings.
export const SETTINGS_SCOPE = 'These settings are not in the lab’s link: it carries only the acts’ settings.';

export const LOSS_LEAD = 'Cross-entropy of each step’s batch, in nats.';
export const LOSS_MORE = 'The dashed lines are a uniform guess over the vocabulary '
  + '(the loss of a model that has learned nothing) and the task’s floor (the lowest loss any model can reach, because the '
  + 'generated data is itself random).';

export const BYTES_LEAD = 'Hatched: the ledger’s prediction of each category at the step’s peak; solid: what the allocator held.';
export const BYTES_MORE = 'The training engine sizes every buffer from one table of tensors (its inventory). The lab’s memory ledger '
  + 'reads the same table, in its exact inventory mode, and predicts the bytes of each category at the step’s peak before anything runs. '
  + 'While training, the engine’s allocator counts what it actually holds.';

export const TIMELINE_LEAD = 'Live memory through one training step, phase by phase.';
export const TIMELINE_MORE = 'The coloured layers are what is still allocated at the end of each '
  + 'phase; the line is the highest point reached inside the phase (temporary buffers come and go within a phase).';

export const ZOOM_LABEL = 'Zoom in: start the axis just below the memory held all step long (weights, gradients, optimizer state)';

export const PEAK_WHY_SUMMARY = 'Why is the peak not the sum?';
export const PEAK_WHY = 'A fit check that adds up each category’s largest size assumes every category is at '
  + 'its largest at once. They are not. Saved activations pile up during the forward pass and are released layer by layer '
  + 'during backward; the logits and their gradient exist only around the loss; working buffers live for one operation. '
  + 'What must fit is the largest sum at any single moment — the peak marked on the chart.';

export const SPEED_LEAD = 'How fast your CPU trained this model, from the engine’s own timing of each step (the median step).';

export const MFU_WHY_SUMMARY = 'What is MFU here?';
export const MFU_WHY = 'MFU (model FLOPs utilisation) is the model’s useful work per step, divided by time per step × the peak rate. '
  + 'The peak here is not a datasheet figure: just before training, the engine timed its own float32 matrix-multiply kernel '
  + 'on this CPU, in the page’s background thread, and kept its best rate (how exactly is quoted above). So the MFU says how '
  + 'much of that kernel’s speed a whole training step keeps; the rest goes to attention, LayerNorm, GELU, softmax, 16-bit '
  + 'rounding (emulated on a CPU) and moving data. HFU counts the recomputed work as well when checkpointing is on.';

export const STALL_LEAD = 'Does pure 16-bit training learn? The demo trains the same model twice: pure 16-bit, then mixed precision.';
export function stallMore({ learningRate, batch, seq }) {
  return 'Pure 16-bit training keeps only a 16-bit copy of each weight. When an update is smaller than half the gap between '
    + 'two neighbouring 16-bit numbers, the new value rounds back to the old one and the weight does not move at all. Mixed '
    + 'precision applies the same update to an FP32 master copy, where it is kept, and rounds to 16 bits only for the next '
    + `forward pass. Both runs use the same data and seed, with plain SGD at learning rate `
    + `${learningRate} (batch ${batch} × ${seq} tokens): first pure 16-bit, then mixed precision with the same 16-bit format, `
    + 'so the FP32 master copy is the only difference.';
}

export const STALL_UNCHANGED_LEAD = 'Share of weights that came out of an update bit-for-bit identical, per step. Even in FP32 a few weights '
  + 'do not move: those whose gradient is exactly zero in that step (for example position embeddings past the sequence length).';

export const NOT_RUN = 'Nothing measured yet: press Run above.';
export const STALL_NOT_RUN = 'The demo has not run yet.';
export const SANDBOXED_WORKER = 'This lab is embedded in a sandboxed frame, which may not let it start the training engine. If Run reports that, open the lab in a tab of its own to measure.';

// Runs kept with the progress (measure-keep.js) and drawn again when the student comes back to the panel.
export const RESTORED_TRAIN = 'Restored: the results below are from your earlier run. Nothing has run since; press Run to start a new run.';
export const RESTORED_STALL = 'Restored: the charts below are from your earlier stall demo. Nothing has run since; '
  + 'press “Run the stall demo” to run it again.';

// How the stall demo ended (steps counted over both runs).
export const stallDone = (steps) => `Done: both runs ran ${formatInt(steps)} steps; the charts below compare them.`;
export const stallCancelled = (done, total) => `Cancelled after ${formatInt(done)} of ${formatInt(total)} steps.`;
export const stallLeft = (done, total) => `Stopped when you left Measure it, after ${formatInt(done)} of ${formatInt(total)} steps.`;
