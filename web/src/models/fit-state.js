// Whether a configuration can run, as one state every instrument shares (DOM-free): 'ok' only when it
// fits AND can train. Pure FP16/BF16 has no FP32 master copy, so small updates round away and
// training stalls: that is 'invalid' even when it fits, and never drawn, labelled or summarised as a
// success (banner, chart, summary, table). 'oom' wins when it does not fit. Used by Act 1 and Act 2.

export const STATE_ICONS = Object.freeze({ ok: '✓', oom: '✕', invalid: '⚠', error: '✕' });

// memory: an engine result's `memory` ({ fits, numerically_valid }).
export function fitState(memory) {
  if (!memory.fits) return 'oom';
  if (memory.numerically_valid === false) return 'invalid';
  return 'ok';
}

export const INVALID_WHY = 'pure 16-bit training keeps no FP32 master copy, so updates smaller than half the gap between '
  + 'neighbouring 16-bit numbers round away and training stalls';
