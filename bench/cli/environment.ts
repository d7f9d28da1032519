import { availableParallelism, cpus } from 'node:os';

/** Where timings were taken: they mean little without it. */
export interface MeasuredOn {
  readonly node: string;
  readonly platform: string;
  readonly cpu: string;
  readonly cores: number;
}

export function measuredOn(): MeasuredOn {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
  };
}
