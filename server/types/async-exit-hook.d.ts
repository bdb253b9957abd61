declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done?: () => void) => void): void;
    /** Called for each event the first hook hooks (assignable: the library reads it at that moment). */
    hookEvent: (event: string, code?: number, filter?: (...args: unknown[]) => boolean) => void;
    unhookEvent: (event: string) => void;
    hookedEvents: () => string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
