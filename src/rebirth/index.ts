export {
  buildRawRebirthSeedFromMessages,
  buildSeedFromCanonical,
  REBIRTH_SEED_DIRECTIVE,
  renderRawRebirthSeed,
  type RawRebirthSeed,
  type RawRebirthSeedOptions,
  type RebirthSeedSection,
} from './raw-rebirth-seed.ts';
