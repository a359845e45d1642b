// The stored keys' HMAC states in a core instance of their own (the slot
// array of assembly/hmac-screen.ts), and the screen that tries a list of
// them against a secured key's HMAC in one call, four keys at a time.
import { SCREEN_BLOCKS, SCREEN_MAC, SCREEN_MESSAGE, SIGNER_WORDS } from './abi.js';
import { instantiateCore, type CoreExports } from './wasm.js';

/** A message and the HMAC presented with it, as the screen reads them: big-endian words. */
export interface ScreenInput {
  /** The inner hash's message (after the key block), padded: 16 words a block. */
  readonly blocks: Int32Array;
  /** The HMAC presented: 8 words. */
  readonly mac: Int32Array;
}

export class SignerSlots {
  private readonly core: CoreExports = instantiateCore().core;

  /** Keeps a key's HMAC states (hmacState: SIGNER_WORDS words); returns their slot. */
  store(state: Int32Array): number {
    const { core } = this;
    // the scratch first: making it may grow the memory, which detaches the buffer read before
    const at = core.scratch(SIGNER_WORDS * 4);
    new Int32Array(core.memory.buffer, at, SIGNER_WORDS).set(state);
    return core.storeSigner();
  }

  /** Wipes `slot`, to be reused. */
  free(slot: number): void {
    this.core.freeSigner(slot);
  }

  /** The place in `slots` (the first `count`) of the first whose key signed `input`, or -1. */
  screen(input: ScreenInput, slots: Int32Array, count: number): number {
    const { core } = this;
    const words = SCREEN_MESSAGE + input.blocks.length + count;
    const at = core.scratch(words * 4);
    const view = new Int32Array(core.memory.buffer, at, words);
    view.set(input.mac, SCREEN_MAC);
    view[SCREEN_BLOCKS] = input.blocks.length / 16;
    view.set(input.blocks, SCREEN_MESSAGE);
    view.set(slots.subarray(0, count), SCREEN_MESSAGE + input.blocks.length);
    return core.screenSigners(count);
  }
}
