declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done: () => void) => void): void;
    /** Removes the listener the hook library installed for `event`. */
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
