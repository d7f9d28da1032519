/** A recall card shown in the view, pinned after raw message `afterIndex` until the next epoch. */
export interface ResidentCard {
  readonly afterIndex: number;
  readonly key: string;
  readonly text: string;
  readonly tokens: number;
}
