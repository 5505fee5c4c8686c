// The short chime the element plays (with the `sound` attribute) when a question arrives while the
// page is hidden. Synthesised with Web Audio, so nothing is fetched and no asset ships.

/** `played`, or `blocked` when the browser's autoplay rules keep the page silent. */
export type ChimeOutcome = 'played' | 'blocked';

export interface Chime {
  play(): Promise<ChimeOutcome>;
  /** Release the audio context. */
  close(): void;
}

interface UserActivationLike {
  readonly hasBeenActive: boolean;
}

export function createChime(): Chime {
  let context: AudioContext | undefined;
  return {
    async play() {
      // Browsers let a page make sound only after a person has interacted with it (sticky
      // activation); before that an AudioContext stays suspended and Chromium logs a warning.
      const activation = (navigator as { userActivation?: UserActivationLike }).userActivation;
      if (activation?.hasBeenActive === false || typeof AudioContext === 'undefined') return 'blocked';
      context ??= new AudioContext();
      if (context.state === 'suspended') await context.resume().catch(() => undefined);
      if (context.state !== 'running') return 'blocked';
      // Two soft rising notes, about a third of a second in all.
      const start = context.currentTime;
      for (const [offset, frequency] of [[0, 880], [0.14, 1320]] as const) {
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = 'sine';
        oscillator.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start + offset);
        gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.18);
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(start + offset);
        oscillator.stop(start + offset + 0.2);
      }
      return 'played';
    },
    close() {
      void context?.close().catch(() => undefined);
      context = undefined;
    },
  };
}
